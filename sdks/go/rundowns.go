package onair

import (
	"context"
	"net/http"
)

// RundownsService calls the rundown routes (/v1/channels/{id}/rundowns, docs/rundowns.md). A rundown is a
// channel's list of prepared items, each a scene with its own values (its item inputs), shared by every operator
// and node, with a shared focus. Edits send the version they read: a stale one is a 409 version_conflict
// *APIError whose Current decodes the record as it is now.
type RundownsService struct{ c *Client }

// Create makes a rundown (201). It sends an Idempotency-Key, so its retries never make two.
func (s *RundownsService) Create(ctx context.Context, channelID string, in RundownIn, opts ...RequestOption) (*Rundown, error) {
	path, err := route("/channels/{channelID}/rundowns", channelID)
	if err != nil {
		return nil, err
	}
	return send[Rundown](ctx, s.c, call{method: http.MethodPost, path: path, body: in, creates: true}, opts)
}

// List gives every rundown of the channel, with its items, in creation order.
func (s *RundownsService) List(ctx context.Context, channelID string, opts ...RequestOption) (*RundownList, error) {
	path, err := route("/channels/{channelID}/rundowns", channelID)
	if err != nil {
		return nil, err
	}
	return send[RundownList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Get reads one rundown.
func (s *RundownsService) Get(ctx context.Context, channelID, rundownID string, opts ...RequestOption) (*Rundown, error) {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}", channelID, rundownID)
	if err != nil {
		return nil, err
	}
	return send[Rundown](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Update renames a rundown; in.Version is the version you read (409 version_conflict when stale).
func (s *RundownsService) Update(ctx context.Context, channelID, rundownID string, in RundownUpdate, opts ...RequestOption) (*Rundown, error) {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}", channelID, rundownID)
	if err != nil {
		return nil, err
	}
	return send[Rundown](ctx, s.c, call{method: http.MethodPatch, path: path, body: in}, opts)
}

// Delete deletes a rundown; what is on air stays on air.
func (s *RundownsService) Delete(ctx context.Context, channelID, rundownID string, opts ...RequestOption) error {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}", channelID, rundownID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}

// AddItem adds an item (201): a scene with its own Values, a Label, Notes, a DurationMs after which it leaves air
// by itself, at Position (default: last). It sends an Idempotency-Key.
func (s *RundownsService) AddItem(ctx context.Context, channelID, rundownID string, in ItemIn, opts ...RequestOption) (*RundownItem, error) {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}/items", channelID, rundownID)
	if err != nil {
		return nil, err
	}
	return send[RundownItem](ctx, s.c, call{method: http.MethodPost, path: path, body: in, creates: true}, opts)
}

// UpdateItem edits or moves (Position) an item; fields left nil keep their value. in.Version is the version you
// read: a stale one is a 409 version_conflict whose Current is the item as it is now. An edit never changes what
// is on air (Playout.Update does).
func (s *RundownsService) UpdateItem(ctx context.Context, channelID, rundownID, itemID string, in ItemUpdate, opts ...RequestOption) (*RundownItem, error) {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}/items/{itemID}", channelID, rundownID, itemID)
	if err != nil {
		return nil, err
	}
	return send[RundownItem](ctx, s.c, call{method: http.MethodPatch, path: path, body: in}, opts)
}

// DuplicateItem copies an item (201); the copy comes right after it. It sends an Idempotency-Key.
func (s *RundownsService) DuplicateItem(ctx context.Context, channelID, rundownID, itemID string, opts ...RequestOption) (*RundownItem, error) {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}/items/{itemID}/duplicate", channelID, rundownID, itemID)
	if err != nil {
		return nil, err
	}
	return send[RundownItem](ctx, s.c, call{method: http.MethodPost, path: path, creates: true}, opts)
}

// DeleteItem deletes an item.
func (s *RundownsService) DeleteItem(ctx context.Context, channelID, rundownID, itemID string, opts ...RequestOption) error {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}/items/{itemID}", channelID, rundownID, itemID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}

// Focus moves the shared focus to an item (in.ItemID) or by a move (in.Move: next, previous, first, last), and
// answers the rundown.
func (s *RundownsService) Focus(ctx context.Context, channelID, rundownID string, in FocusIn, opts ...RequestOption) (*Rundown, error) {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}/focus", channelID, rundownID)
	if err != nil {
		return nil, err
	}
	return send[Rundown](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}

// Cue cues an item (in.ItemID; nil: the focused one) into preview, with its values, and answers the channel's
// state.
func (s *RundownsService) Cue(ctx context.Context, channelID, rundownID string, in ItemRefIn, opts ...RequestOption) (*State, error) {
	return s.play(ctx, channelID, rundownID, "cue", in, opts)
}

// PlayNext cues the next item and takes it to air in one frame; the focus moves on. No item left to play is a
// 409 conflict.
func (s *RundownsService) PlayNext(ctx context.Context, channelID, rundownID string, opts ...RequestOption) (*State, error) {
	return s.play(ctx, channelID, rundownID, "play-next", nil, opts)
}

// Stop takes an item (in.ItemID; nil: this rundown's items on air) off air, and answers the channel's state.
func (s *RundownsService) Stop(ctx context.Context, channelID, rundownID string, in ItemRefIn, opts ...RequestOption) (*State, error) {
	return s.play(ctx, channelID, rundownID, "stop", in, opts)
}

func (s *RundownsService) play(ctx context.Context, channelID, rundownID, op string, in any, opts []RequestOption) (*State, error) {
	path, err := route("/channels/{channelID}/rundowns/{rundownID}/"+op, channelID, rundownID)
	if err != nil {
		return nil, err
	}
	return send[State](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}
