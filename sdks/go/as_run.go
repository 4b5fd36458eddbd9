package onair

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// AsRunService reads a channel's as-run log (/v1/channels/{id}/as-run, docs/as-run.md): every interval a scene or
// rundown item was on program, in the order they began, with its values, frames, duration, who took and cleared
// it, and which outputs confirmed painting it.
type AsRunService struct{ c *Client }

// AsRunListOptions bounds and pages the log. The zero value lists the first page of every interval.
type AsRunListOptions struct {
	// From keeps the intervals still on air at or after this time.
	From time.Time
	// To keeps the intervals that began before this time.
	To time.Time
	// Limit is the page size, 1 to 1000; zero leaves it to the server (100).
	Limit int
	// Cursor is the NextCursor of the previous page.
	Cursor string
}

func (o AsRunListOptions) query() url.Values {
	q := url.Values{}
	if !o.From.IsZero() {
		q.Set("from", FormatTime(o.From))
	}
	if !o.To.IsZero() {
		q.Set("to", FormatTime(o.To))
	}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	return q
}

// List gives one page of the channel's as-run log.
func (s *AsRunService) List(ctx context.Context, channelID string, lo AsRunListOptions, opts ...RequestOption) (*AsRunList, error) {
	path, err := route("/channels/{channelID}/as-run", channelID)
	if err != nil {
		return nil, err
	}
	return send[AsRunList](ctx, s.c, call{method: http.MethodGet, path: path, query: lo.query()}, opts)
}

// ListAll walks every interval in the range, from lo.Cursor on.
func (s *AsRunService) ListAll(ctx context.Context, channelID string, lo AsRunListOptions, opts ...RequestOption) *Iterator[AsRunInterval] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]AsRunInterval, *string, error) {
		page := lo
		page.Cursor = cursor
		list, err := s.List(ctx, channelID, page, opts...)
		if err != nil {
			return nil, nil, err
		}
		return list.Data, list.NextCursor, nil
	})
}

// CSV gives the same page as CSV (RFC 4180, a header row), for a spreadsheet or a sponsor's report.
func (s *AsRunService) CSV(ctx context.Context, channelID string, lo AsRunListOptions, opts ...RequestOption) ([]byte, error) {
	path, err := route("/channels/{channelID}/as-run", channelID)
	if err != nil {
		return nil, err
	}
	q := lo.query()
	q.Set("format", "csv")
	var text []byte
	if err := s.c.do(ctx, call{method: http.MethodGet, path: path, query: q}, &text, opts); err != nil {
		return nil, err
	}
	return text, nil
}
