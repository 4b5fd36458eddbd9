package onair

import (
	"context"
	"net/http"
)

// Me tells who the client is (GET /v1/me): its key, workspace, permissions and channel lock. A cheap way to check
// a key works.
func (c *Client) Me(ctx context.Context, opts ...RequestOption) (*Me, error) {
	return send[Me](ctx, c, call{method: http.MethodGet, path: "/me"}, opts)
}
