package onair

import (
	"context"
	"net/http"
)

// PlayoutService drives a channel's buses: preview (cued) and program (on air), one scene per layer on each, plus
// triggers and clocks. Each operation is applied at the channel's next frame and answers once it is stored.
type PlayoutService struct{ c *Client }

// Preview cues a scene on preview, on its layer. Program does not change.
func (s *PlayoutService) Preview(ctx context.Context, channelID string, in SceneRef, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "preview", in, opts)
}

// Program cuts a scene straight to air on its layer, with no transition. Preview does not change.
func (s *PlayoutService) Program(ctx context.Context, channelID string, in SceneRef, opts ...RequestOption) (*State, error) {
	return s.op(ctx, channelID, "program", in, opts)
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

// Clock drives a clock input: start, stop, set (Ms), reset or adjust (Ms). The answer is the clock's new state.
func (s *PlayoutService) Clock(ctx context.Context, channelID, name string, in ClockActionIn, opts ...RequestOption) (*ClockResult, error) {
	path, err := route("/channels/{channelID}/clocks/{name}", channelID, name)
	if err != nil {
		return nil, err
	}
	return send[ClockResult](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}
