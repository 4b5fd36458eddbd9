package onair

import (
	"context"
	"net/http"
)

// SourcesService manages a channel's data sources (/v1/channels/{id}/sources): JSON feeds and CSVs (published
// Google Sheets) the server polls, mapping what changed onto the channel's inputs.
type SourcesService struct{ c *Client }

// Create adds a data source; the server fetches it at once, then every IntervalMs. It sends an Idempotency-Key, so
// its retries never add two sources.
func (s *SourcesService) Create(ctx context.Context, channelID string, in SourceIn, opts ...RequestOption) (*Source, error) {
	path, err := route("/channels/{channelID}/sources", channelID)
	if err != nil {
		return nil, err
	}
	return send[Source](ctx, s.c, call{method: http.MethodPost, path: path, body: in, creates: true}, opts)
}

// List gives every source of a channel, with its status.
func (s *SourcesService) List(ctx context.Context, channelID string, opts ...RequestOption) (*SourceList, error) {
	path, err := route("/channels/{channelID}/sources", channelID)
	if err != nil {
		return nil, err
	}
	return send[SourceList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Get reads one source and its status.
func (s *SourcesService) Get(ctx context.Context, channelID, sourceID string, opts ...RequestOption) (*Source, error) {
	path, err := route("/channels/{channelID}/sources/{sourceID}", channelID, sourceID)
	if err != nil {
		return nil, err
	}
	return send[Source](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Update changes any of a source's fields; an edited source is fetched at once.
func (s *SourcesService) Update(ctx context.Context, channelID, sourceID string, in SourcePatch, opts ...RequestOption) (*Source, error) {
	path, err := route("/channels/{channelID}/sources/{sourceID}", channelID, sourceID)
	if err != nil {
		return nil, err
	}
	return send[Source](ctx, s.c, call{method: http.MethodPatch, path: path, body: in}, opts)
}

// Pause stops polling a source; the values it set stay on air.
func (s *SourcesService) Pause(ctx context.Context, channelID, sourceID string, opts ...RequestOption) (*Source, error) {
	return s.Update(ctx, channelID, sourceID, SourcePatch{Paused: Ptr(true)}, opts...)
}

// Resume polls a paused source again, fetching it at once.
func (s *SourcesService) Resume(ctx context.Context, channelID, sourceID string, opts ...RequestOption) (*Source, error) {
	return s.Update(ctx, channelID, sourceID, SourcePatch{Paused: Ptr(false)}, opts...)
}

// Delete removes a source; polling stops.
func (s *SourcesService) Delete(ctx context.Context, channelID, sourceID string, opts ...RequestOption) error {
	path, err := route("/channels/{channelID}/sources/{sourceID}", channelID, sourceID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}

// Test is a dry run: the server fetches and maps the source once and answers what it would apply, changing
// nothing. Error says why the source would fail now, if it would.
func (s *SourcesService) Test(ctx context.Context, channelID string, in SourceIn, opts ...RequestOption) (*SourceDryRun, error) {
	path, err := route("/channels/{channelID}/sources/test", channelID)
	if err != nil {
		return nil, err
	}
	return send[SourceDryRun](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}

// Refresh fetches a source now and applies what changed; the answer's Status says how the fetch went.
func (s *SourcesService) Refresh(ctx context.Context, channelID, sourceID string, opts ...RequestOption) (*Source, error) {
	path, err := route("/channels/{channelID}/sources/{sourceID}/refresh", channelID, sourceID)
	if err != nil {
		return nil, err
	}
	return send[Source](ctx, s.c, call{method: http.MethodPost, path: path}, opts)
}

// Row moves a CSV source's cursor (Move: next, previous, first; or Number) and applies the row it lands on.
func (s *SourcesService) Row(ctx context.Context, channelID, sourceID string, in SourceRowMove, opts ...RequestOption) (*Source, error) {
	path, err := route("/channels/{channelID}/sources/{sourceID}/row", channelID, sourceID)
	if err != nil {
		return nil, err
	}
	return send[Source](ctx, s.c, call{method: http.MethodPost, path: path, body: in}, opts)
}

// Fetches gives the source's last 50 fetches, newest first.
func (s *SourcesService) Fetches(ctx context.Context, channelID, sourceID string, opts ...RequestOption) (*SourceFetchList, error) {
	path, err := route("/channels/{channelID}/sources/{sourceID}/fetches", channelID, sourceID)
	if err != nil {
		return nil, err
	}
	return send[SourceFetchList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}
