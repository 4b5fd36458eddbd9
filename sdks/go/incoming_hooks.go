package onair

import (
	"context"
	"net/http"
)

// IncomingHooksService manages a channel's incoming webhooks (/v1/channels/{id}/incoming-hooks): URLs a
// scorekeeping system posts JSON to, mapped onto the channel's inputs. Post to them with Client.Hooks.
type IncomingHooksService struct{ c *Client }

// Create adds an incoming hook. Its URL (the credential) and, with RequireSignature, its Secret are in this answer
// only: store them now. It sends an Idempotency-Key, so its retries never add two hooks.
func (s *IncomingHooksService) Create(ctx context.Context, channelID string, in IncomingHookIn, opts ...RequestOption) (*IncomingHookCreated, error) {
	path, err := route("/channels/{channelID}/incoming-hooks", channelID)
	if err != nil {
		return nil, err
	}
	return send[IncomingHookCreated](ctx, s.c, call{method: http.MethodPost, path: path, body: in, creates: true}, opts)
}

// List gives every hook of a channel (without URLs or secrets).
func (s *IncomingHooksService) List(ctx context.Context, channelID string, opts ...RequestOption) (*IncomingHookList, error) {
	path, err := route("/channels/{channelID}/incoming-hooks", channelID)
	if err != nil {
		return nil, err
	}
	return send[IncomingHookList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Get reads one hook.
func (s *IncomingHooksService) Get(ctx context.Context, channelID, hookID string, opts ...RequestOption) (*IncomingHook, error) {
	path, err := route("/channels/{channelID}/incoming-hooks/{hookID}", channelID, hookID)
	if err != nil {
		return nil, err
	}
	return send[IncomingHook](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Update changes a hook's name or mapping; its URL stays the same.
func (s *IncomingHooksService) Update(ctx context.Context, channelID, hookID string, in IncomingHookPatch, opts ...RequestOption) (*IncomingHook, error) {
	path, err := route("/channels/{channelID}/incoming-hooks/{hookID}", channelID, hookID)
	if err != nil {
		return nil, err
	}
	return send[IncomingHook](ctx, s.c, call{method: http.MethodPatch, path: path, body: in}, opts)
}

// Delete removes a hook; its URL answers 404 at once.
func (s *IncomingHooksService) Delete(ctx context.Context, channelID, hookID string, opts ...RequestOption) error {
	path, err := route("/channels/{channelID}/incoming-hooks/{hookID}", channelID, hookID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}

// Deliveries gives the hook's last 50 posts past its door, newest first, failed ones included with their error: the
// way to fix a mapping during the warm-up. Posts refused at the door are in Refusals.
func (s *IncomingHooksService) Deliveries(ctx context.Context, channelID, hookID string, opts ...RequestOption) (*IncomingHookDeliveryList, error) {
	path, err := route("/channels/{channelID}/incoming-hooks/{hookID}/deliveries", channelID, hookID)
	if err != nil {
		return nil, err
	}
	return send[IncomingHookDeliveryList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Refusals gives the posts refused at the hook's door (rate limited, bad signature, replayed): one line per second
// with a Count, newest first, the last 50 seconds that had any.
func (s *IncomingHooksService) Refusals(ctx context.Context, channelID, hookID string, opts ...RequestOption) (*IncomingHookRefusalList, error) {
	path, err := route("/channels/{channelID}/incoming-hooks/{hookID}/refusals", channelID, hookID)
	if err != nil {
		return nil, err
	}
	return send[IncomingHookRefusalList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}
