package onair

import (
	"context"
	"net/http"
	"net/url"
)

// AssetsService manages the workspace's asset library (/v1/assets): images (PNG, JPEG, GIF, WebP, SVG) and WOFF2
// fonts, typed from their bytes and content-addressed. Set an asset input to an image's Path (or URL), and name a
// font's Path in a text's FontFamily.
type AssetsService struct{ c *Client }

// Upload stores a file's bytes under name (shown in lists). The same bytes again answer the asset that holds them,
// with Created false. It sends an Idempotency-Key.
func (s *AssetsService) Upload(ctx context.Context, data []byte, name string, opts ...RequestOption) (*AssetUploaded, error) {
	if data == nil {
		data = []byte{}
	}
	cl := call{
		method:  http.MethodPost,
		path:    "/assets",
		query:   url.Values{"name": {name}},
		rawBody: data,
		rawType: "application/octet-stream",
		creates: true,
	}
	return send[AssetUploaded](ctx, s.c, cl, opts)
}

// List gives one page of assets, oldest first.
func (s *AssetsService) List(ctx context.Context, lo ListOptions, opts ...RequestOption) (*AssetList, error) {
	return send[AssetList](ctx, s.c, call{method: http.MethodGet, path: "/assets", query: lo.query()}, opts)
}

// ListAll walks every asset from lo.Cursor on.
func (s *AssetsService) ListAll(ctx context.Context, lo ListOptions, opts ...RequestOption) *Iterator[Asset] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]Asset, *string, error) {
		page, err := s.List(ctx, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Get reads one asset.
func (s *AssetsService) Get(ctx context.Context, assetID string, opts ...RequestOption) (*Asset, error) {
	path, err := route("/assets/{assetID}", assetID)
	if err != nil {
		return nil, err
	}
	return send[Asset](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Delete deletes an asset. It is refused (409 conflict, naming the scenes) while a scene of the workspace uses it.
func (s *AssetsService) Delete(ctx context.Context, assetID string, opts ...RequestOption) error {
	path, err := route("/assets/{assetID}", assetID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}
