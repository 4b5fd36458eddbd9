package onair

import (
	"context"
	"net/http"
)

// ChannelsService calls the channel routes (/v1/channels). A channel is one graphics output: a stage rendered at
// a frame rate, with scenes, input values, and a program and a preview bus.
type ChannelsService struct{ c *Client }

// Create makes a channel (201). It sends an Idempotency-Key, so its retries never make two channels.
func (s *ChannelsService) Create(ctx context.Context, in ChannelIn, opts ...RequestOption) (*Channel, error) {
	return send[Channel](ctx, s.c, call{method: http.MethodPost, path: "/channels", body: in, creates: true}, opts)
}

// List gives one page of the workspace's channels (only its own for a channel-locked key), oldest first.
func (s *ChannelsService) List(ctx context.Context, lo ListOptions, opts ...RequestOption) (*ChannelList, error) {
	return send[ChannelList](ctx, s.c, call{method: http.MethodGet, path: "/channels", query: lo.query()}, opts)
}

// ListAll walks every channel from lo.Cursor on, lo.Limit per request.
func (s *ChannelsService) ListAll(ctx context.Context, lo ListOptions, opts ...RequestOption) *Iterator[Channel] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]Channel, *string, error) {
		page, err := s.List(ctx, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Get reads one channel.
func (s *ChannelsService) Get(ctx context.Context, channelID string, opts ...RequestOption) (*Channel, error) {
	path, err := route("/channels/{channelID}", channelID)
	if err != nil {
		return nil, err
	}
	return send[Channel](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Update changes a channel's name or frame rate; fields left nil keep their value.
func (s *ChannelsService) Update(ctx context.Context, channelID string, in ChannelUpdate, opts ...RequestOption) (*Channel, error) {
	path, err := route("/channels/{channelID}", channelID)
	if err != nil {
		return nil, err
	}
	return send[Channel](ctx, s.c, call{method: http.MethodPatch, path: path, body: in}, opts)
}

// Delete deletes a channel with its scenes and state.
func (s *ChannelsService) Delete(ctx context.Context, channelID string, opts ...RequestOption) error {
	path, err := route("/channels/{channelID}", channelID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}

// RotateOutputToken gives the channel a new output token, so a leaked output URL stops working, and answers the
// channel with its new outputUrl and previewUrl. Renderers on the old URL are disconnected.
func (s *ChannelsService) RotateOutputToken(ctx context.Context, channelID string, opts ...RequestOption) (*Channel, error) {
	path, err := route("/channels/{channelID}/output-token", channelID)
	if err != nil {
		return nil, err
	}
	return send[Channel](ctx, s.c, call{method: http.MethodPost, path: path, creates: true}, opts)
}

// PatchInputs sets input values (name → number, string, bool, or nil for the scene default), all or nothing, at
// the channel's next frame. The answer names the frame that first shows them.
func (s *ChannelsService) PatchInputs(ctx context.Context, channelID string, inputs InputsPatch, opts ...RequestOption) (*InputsResult, error) {
	path, err := route("/channels/{channelID}/inputs", channelID)
	if err != nil {
		return nil, err
	}
	if inputs == nil {
		inputs = InputsPatch{}
	}
	return send[InputsResult](ctx, s.c, call{method: http.MethodPatch, path: path, body: inputs}, opts)
}

// GetState reads what is on air and cued, every input value and every clock.
func (s *ChannelsService) GetState(ctx context.Context, channelID string, opts ...RequestOption) (*State, error) {
	path, err := route("/channels/{channelID}/state", channelID)
	if err != nil {
		return nil, err
	}
	return send[State](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// ListOutputs reads the output pages connected to the server answering: what each painted, its lag, load errors and
// health (docs/outputs.md), and Refused: the pages refused for their token.
func (s *ChannelsService) ListOutputs(ctx context.Context, channelID string, opts ...RequestOption) (*OutputList, error) {
	path, err := route("/channels/{channelID}/outputs", channelID)
	if err != nil {
		return nil, err
	}
	return send[OutputList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}
