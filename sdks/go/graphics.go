package onair

import (
	"context"
	"net/http"
)

// GraphicsService manages the workspace's imported OGraf graphics (/v1/graphics). Make a scene of one with
// Scenes.Create and a SceneIn whose Graphic is the graphic's ID.
type GraphicsService struct{ c *Client }

// Upload imports a zipped OGraf package: one graphic per *.ograf.json in it. The same id and version again answer the
// graphic held, with Created false. It sends an Idempotency-Key.
func (s *GraphicsService) Upload(ctx context.Context, zip []byte, opts ...RequestOption) (*GraphicsUploaded, error) {
	if zip == nil {
		zip = []byte{}
	}
	cl := call{method: http.MethodPost, path: "/graphics", rawBody: zip, rawType: "application/zip", creates: true}
	return send[GraphicsUploaded](ctx, s.c, cl, opts)
}

// List gives one page of graphics, oldest first.
func (s *GraphicsService) List(ctx context.Context, lo ListOptions, opts ...RequestOption) (*GraphicList, error) {
	return send[GraphicList](ctx, s.c, call{method: http.MethodGet, path: "/graphics", query: lo.query()}, opts)
}

// ListAll walks every graphic from lo.Cursor on.
func (s *GraphicsService) ListAll(ctx context.Context, lo ListOptions, opts ...RequestOption) *Iterator[Graphic] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]Graphic, *string, error) {
		page, err := s.List(ctx, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Get reads one graphic.
func (s *GraphicsService) Get(ctx context.Context, graphicID string, opts ...RequestOption) (*Graphic, error) {
	path, err := route("/graphics/{graphicID}", graphicID)
	if err != nil {
		return nil, err
	}
	return send[Graphic](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Delete deletes a graphic and its files. It is refused (409 conflict, naming the scenes) while a scene uses it.
func (s *GraphicsService) Delete(ctx context.Context, graphicID string, opts ...RequestOption) error {
	path, err := route("/graphics/{graphicID}", graphicID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}
