package onair

import (
	"context"
	"net/http"
)

// TemplatesService lists the built-in scene templates, whose definitions a scene can start from.
type TemplatesService struct{ c *Client }

// List gives every built-in template with its complete definition.
func (s *TemplatesService) List(ctx context.Context, opts ...RequestOption) (*TemplateList, error) {
	return send[TemplateList](ctx, s.c, call{method: http.MethodGet, path: "/templates"}, opts)
}
