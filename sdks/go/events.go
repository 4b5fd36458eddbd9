package onair

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// EventsService reads the event log: everything that happened on air in the last 7 days, oldest first.
type EventsService struct{ c *Client }

// EventListOptions filters and pages the event log. The zero value lists every event from the oldest.
type EventListOptions struct {
	// ChannelID keeps one channel's events.
	ChannelID string
	// Type keeps one type of event.
	Type EventType
	// Since starts at the events created at or after this time instead of the oldest. Not with Cursor.
	Since time.Time
	// Limit is the page size, 1 to 100; zero leaves it to the server (50).
	Limit int
	// Cursor is the NextCursor of the previous page.
	Cursor string
}

func (o EventListOptions) query() url.Values {
	q := url.Values{}
	if o.ChannelID != "" {
		q.Set("channelId", o.ChannelID)
	}
	if o.Type != "" {
		q.Set("type", string(o.Type))
	}
	if !o.Since.IsZero() {
		q.Set("since", FormatTime(o.Since))
	}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	return q
}

// List gives one page of events. A filtered page may hold fewer events than the limit, or none, while
// NextCursor is set: follow it until it is nil (ListAll does).
func (s *EventsService) List(ctx context.Context, lo EventListOptions, opts ...RequestOption) (*EventList, error) {
	return send[EventList](ctx, s.c, call{method: http.MethodGet, path: "/events", query: lo.query()}, opts)
}

// ListAll walks every matching event. Since applies to the first page; the following pages are reached by cursor.
func (s *EventsService) ListAll(ctx context.Context, lo EventListOptions, opts ...RequestOption) *Iterator[Event] {
	first := true
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]Event, *string, error) {
		page := lo
		page.Cursor = cursor
		if !first {
			page.Since = time.Time{}
		}
		first = false
		list, err := s.List(ctx, page, opts...)
		if err != nil {
			return nil, nil, err
		}
		return list.Data, list.NextCursor, nil
	})
}
