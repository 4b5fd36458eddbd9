package onair

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// ScenesService calls the scene routes (/v1/channels/{id}/scenes). A scene is one graphic of a channel; its
// definition (docs/scenes.md) is a SceneDefinition, or a built-in template's (Templates.List).
type ScenesService struct{ c *Client }

// DryRunSceneID is the id a dry-run create answers: no real scene ever has it.
const DryRunSceneID = "sc_dryrun"

// Create adds a scene to a channel from a definition or a template id (set exactly one). It sends an
// Idempotency-Key, so its retries never add the scene twice.
func (s *ScenesService) Create(ctx context.Context, channelID string, in SceneIn, opts ...RequestOption) (*Scene, error) {
	path, err := route("/channels/{channelID}/scenes", channelID)
	if err != nil {
		return nil, err
	}
	return send[Scene](ctx, s.c, call{method: http.MethodPost, path: path, body: in, creates: true}, opts)
}

// CreateDryRun runs every check Create runs and answers the scene as it would be saved (id DryRunSceneID, every
// default written out), saving nothing: for editors that validate as the user types. It counts against the
// reads bucket.
func (s *ScenesService) CreateDryRun(ctx context.Context, channelID string, in SceneIn, opts ...RequestOption) (*Scene, error) {
	path, err := route("/channels/{channelID}/scenes", channelID)
	if err != nil {
		return nil, err
	}
	return send[Scene](ctx, s.c, call{method: http.MethodPost, path: path, query: dryRun(), body: in}, opts)
}

// List gives one page of a channel's scenes, oldest first.
func (s *ScenesService) List(ctx context.Context, channelID string, lo ListOptions, opts ...RequestOption) (*SceneList, error) {
	path, err := route("/channels/{channelID}/scenes", channelID)
	if err != nil {
		return nil, err
	}
	return send[SceneList](ctx, s.c, call{method: http.MethodGet, path: path, query: lo.query()}, opts)
}

// ListAll walks every scene of a channel from lo.Cursor on.
func (s *ScenesService) ListAll(ctx context.Context, channelID string, lo ListOptions, opts ...RequestOption) *Iterator[Scene] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]Scene, *string, error) {
		page, err := s.List(ctx, channelID, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Get reads one scene with its complete stored definition.
func (s *ScenesService) Get(ctx context.Context, channelID, sceneID string, opts ...RequestOption) (*Scene, error) {
	path, err := route("/channels/{channelID}/scenes/{sceneID}", channelID, sceneID)
	if err != nil {
		return nil, err
	}
	return send[Scene](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Replace replaces a scene's whole definition (and its name when given). A scene on air is redrawn at the next
// frame.
func (s *ScenesService) Replace(ctx context.Context, channelID, sceneID string, in SceneUpdate, opts ...RequestOption) (*Scene, error) {
	path, err := route("/channels/{channelID}/scenes/{sceneID}", channelID, sceneID)
	if err != nil {
		return nil, err
	}
	return send[Scene](ctx, s.c, call{method: http.MethodPut, path: path, body: in}, opts)
}

// ReplaceDryRun runs every check Replace runs and answers the scene as it would be, changing nothing.
func (s *ScenesService) ReplaceDryRun(ctx context.Context, channelID, sceneID string, in SceneUpdate, opts ...RequestOption) (*Scene, error) {
	path, err := route("/channels/{channelID}/scenes/{sceneID}", channelID, sceneID)
	if err != nil {
		return nil, err
	}
	return send[Scene](ctx, s.c, call{method: http.MethodPut, path: path, query: dryRun(), body: in}, opts)
}

// Versions lists a scene's saved versions, newest first (its last 50 saves), each with who saved it. Version 1 is
// the scene as created; each Replace (and each RestoreVersion) saves one more.
func (s *ScenesService) Versions(ctx context.Context, channelID, sceneID string, opts ...RequestOption) (*SceneVersionList, error) {
	path, err := route("/channels/{channelID}/scenes/{sceneID}/versions", channelID, sceneID)
	if err != nil {
		return nil, err
	}
	return send[SceneVersionList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// RestoreVersion saves a version's name and definition again, with the checks Replace runs, as a new version, and
// answers the scene (404 not_found for a version the scene does not have). It sends an Idempotency-Key.
func (s *ScenesService) RestoreVersion(ctx context.Context, channelID, sceneID string, version int64, opts ...RequestOption) (*Scene, error) {
	path, err := route("/channels/{channelID}/scenes/{sceneID}/versions/{version}/restore", channelID, sceneID, strconv.FormatInt(version, 10))
	if err != nil {
		return nil, err
	}
	return send[Scene](ctx, s.c, call{method: http.MethodPost, path: path, creates: true}, opts)
}

// Delete deletes a scene. A scene on program or preview is refused (409 conflict): clear it first.
func (s *ScenesService) Delete(ctx context.Context, channelID, sceneID string, opts ...RequestOption) error {
	path, err := route("/channels/{channelID}/scenes/{sceneID}", channelID, sceneID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}

func dryRun() url.Values { return url.Values{"dryRun": {"1"}} }
