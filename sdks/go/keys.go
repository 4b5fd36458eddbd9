package onair

import (
	"context"
	"net/http"
)

// KeysService manages API keys (/v1/keys): their permissions and channel locks. A caller can never create a key
// beyond its own powers.
type KeysService struct{ c *Client }

// Create makes a key. Its Secret is in this answer only: store it now. It sends an Idempotency-Key, so its
// retries never make two keys.
func (s *KeysService) Create(ctx context.Context, in KeyIn, opts ...RequestOption) (*KeyCreated, error) {
	return send[KeyCreated](ctx, s.c, call{method: http.MethodPost, path: "/keys", body: in, creates: true}, opts)
}

// List gives one page of keys (revoked ones included, secrets never), oldest first.
func (s *KeysService) List(ctx context.Context, lo ListOptions, opts ...RequestOption) (*KeyList, error) {
	return send[KeyList](ctx, s.c, call{method: http.MethodGet, path: "/keys", query: lo.query()}, opts)
}

// ListAll walks every key from lo.Cursor on.
func (s *KeysService) ListAll(ctx context.Context, lo ListOptions, opts ...RequestOption) *Iterator[Key] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]Key, *string, error) {
		page, err := s.List(ctx, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Get reads one key.
func (s *KeysService) Get(ctx context.Context, keyID string, opts ...RequestOption) (*Key, error) {
	path, err := route("/keys/{keyID}", keyID)
	if err != nil {
		return nil, err
	}
	return send[Key](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Revoke revokes a key at once: its requests answer 401 and its WebSockets close. Revoking twice is fine.
func (s *KeysService) Revoke(ctx context.Context, keyID string, opts ...RequestOption) error {
	path, err := route("/keys/{keyID}", keyID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}
