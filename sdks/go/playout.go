package onair

import (
	"context"
	"net/http"
)

// PlayoutService drives a channel's buses: preview (cued) and program (on air), one scene instance per layer on
// each, plus triggers, clocks, undo and redo. Each operation is applied at the channel's next frame and answers
// once it is stored.
//
// An instance is a scene with its own values (SceneRef{SceneID, Values}: the scene's item inputs) or a rundown
// item with its values (SceneRef{ItemID}).
type PlayoutService struct{ c *Client }

// Preview cues an instance on preview, on its scene's layer. Program does not change.
func (s *PlayoutService) Preview(ctx context.Context, channelID string, in SceneRef, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "preview", in, opts)
}

// Program cuts an instance straight to air on its scene's layer, with no transition. Preview does not change.
func (s *PlayoutService) Program(ctx context.Context, channelID string, in SceneRef, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "program", in, opts)
}

// Update changes item values of the instance on air at the next frame, merged into its own (a nil value gives
// the input back to the channel). Set in.Layer or in.SceneID when several are on air. A rundown item's own values
// stay as they are.
func (s *PlayoutService) Update(ctx context.Context, channelID string, in UpdateIn, opts ...RequestOption) (*State, error) {
	if in.Values == nil {
		in.Values = ItemValues{}
	}
	return s.op(ctx, channelID, "update", in, opts)
}

// Continue plays the next step of the scene on air (its "next" trigger), or only of the one on in.Layer; in.Step
// sends the OGraf graphics on air to that step instead. No scene on air with a next step is a 404 unknown_trigger.
func (s *PlayoutService) Continue(ctx context.Context, channelID string, in ContinueIn, opts ...RequestOption) (*FrameResult, error) {
	path, err := route("/channels/{channelID}/continue", channelID)
	if err != nil {
		return nil, err
	}
	return send[FrameResult](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}

// Undo takes back the channel's last on-air action by a person, a key or the schedule (a cue, take, cut, clear,
// update or input change): the layers and values it touched go back as they were, at the next frame. What
// incoming hooks set is never undone. Nothing to undo is a 409 nothing_to_undo.
func (s *PlayoutService) Undo(ctx context.Context, channelID string, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "undo", nil, opts)
}

// Redo does again the last action undone; nothing to redo is a 409 nothing_to_undo.
func (s *PlayoutService) Redo(ctx context.Context, channelID string, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "redo", nil, opts)
}

// Take moves every cued layer (or only in.Layer) to air at once, with transitions, and empties those preview
// layers. Nothing cued is a 409 preview_empty.
func (s *PlayoutService) Take(ctx context.Context, channelID string, in TakeIn, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "take", in, opts)
}

// Clear takes everything off air, or one layer (in.Layer), or one scene (in.SceneID), with out transitions.
func (s *PlayoutService) Clear(ctx context.Context, channelID string, in ClearIn, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "clear", in, opts)
}

func (s *PlayoutService) op(ctx context.Context, channelID, op string, in any, opts []RequestOption) (*State, error) {
	path, err := route("/channels/{channelID}/"+op, channelID)
	if err != nil {
		return nil, err
	}
	return send[State](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}

// FireTrigger plays a named trigger (an animation) once on every renderer showing a scene, on program or preview,
// that declares it. Unknown names are a 404 unknown_trigger.
func (s *PlayoutService) FireTrigger(ctx context.Context, channelID, name string, opts ...RequestOption) (*FrameResult, error) {
	path, err := route("/channels/{channelID}/triggers/{name}", channelID, name)
	if err != nil {
		return nil, err
	}
	return send[FrameResult](ctx, s.c, call{method: http.MethodPost, path: path}, opts)
}

// FireTriggerWith is FireTrigger with a body: in.Payload is what an OGraf graphic's custom action runs with, and
// in.Layer fires it on that layer's scene only.
func (s *PlayoutService) FireTriggerWith(ctx context.Context, channelID, name string, in TriggerBody, opts ...RequestOption) (*FrameResult, error) {
	path, err := route("/channels/{channelID}/triggers/{name}", channelID, name)
	if err != nil {
		return nil, err
	}
	return send[FrameResult](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}

// Clock drives a clock input: start, stop, set (Ms), reset, adjust (Ms) or period (the next one, or Period by
// index). The answer is the clock's new state.
func (s *PlayoutService) Clock(ctx context.Context, channelID, name string, in ClockActionIn, opts ...RequestOption) (*ClockResult, error) {
	path, err := route("/channels/{channelID}/clocks/{name}", channelID, name)
	if err != nil {
		return nil, err
	}
	return send[ClockResult](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}
