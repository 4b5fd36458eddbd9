package onair

import (
	"context"
	"net/http"
)

// HistoryService reads a channel's on-air history (/v1/channels/{id}/history, docs/rundowns.md "Undo"): the
// actions Playout.Undo and Playout.Redo walk, newest first, each with who did it (a key, a dashboard user, the
// schedule). An undo or redo names the action it took back or did again in Of. What incoming hooks set is not
// recorded.
type HistoryService struct{ c *Client }

// List gives one page of the channel's history, newest first.
func (s *HistoryService) List(ctx context.Context, channelID string, lo ListOptions, opts ...RequestOption) (*HistoryList, error) {
	path, err := route("/channels/{channelID}/history", channelID)
	if err != nil {
		return nil, err
	}
	return send[HistoryList](ctx, s.c, call{method: http.MethodGet, path: path, query: lo.query()}, opts)
}

// ListAll walks the channel's history, newest first, from lo.Cursor on.
func (s *HistoryService) ListAll(ctx context.Context, channelID string, lo ListOptions, opts ...RequestOption) *Iterator[HistoryAction] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]HistoryAction, *string, error) {
		page, err := s.List(ctx, channelID, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}
