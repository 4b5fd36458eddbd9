package onair

import (
	"context"
	"fmt"
	"strings"
)

// route fills the {placeholders} of an API path, in order, with escaped values. An empty value is refused here,
// with its name, rather than sent as a path the server would answer with a puzzling 404.
func route(pattern string, values ...string) (string, error) {
	var b strings.Builder
	rest := pattern
	for _, value := range values {
		open := strings.IndexByte(rest, '{')
		end := strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			panic("onair: route " + pattern + " has fewer placeholders than values")
		}
		if value == "" {
			return "", fmt.Errorf("onair: %s must not be empty", rest[open+1:end])
		}
		b.WriteString(rest[:open])
		b.WriteString(pathEscape(value))
		rest = rest[end+1:]
	}
	b.WriteString(rest)
	return b.String(), nil
}

// send runs a call and decodes its answer into a new T.
func send[T any](ctx context.Context, c *Client, cl call, opts []RequestOption) (*T, error) {
	out := new(T)
	if err := c.do(ctx, cl, out, opts); err != nil {
		return nil, err
	}
	return out, nil
}

// Ptr returns a pointer to v, for the optional fields of the request types:
// onair.ChannelIn{Name: "Main", FPS: onair.Ptr(50.0)}.
func Ptr[T any](v T) *T { return &v }
