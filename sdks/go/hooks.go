package onair

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// HooksService posts to incoming webhook URLs (POST /v1/hooks/{token}) the way a scorekeeping system does. The
// URL's token is the credential: the client's API key is never sent with these posts.
type HooksService struct{ c *Client }

// Post sends body to an incoming hook and answers what it applied. urlOrToken is the hook's full URL (as
// IncomingHooks.Create gave it) or just its token (then the client's base URL is used). body is a JSON object:
// []byte and json.RawMessage are sent as they are, anything else is marshalled. With a secret (a hook with
// requireSignature), each attempt is signed with X-Service-Timestamp and X-Service-Signature; pass "" for an
// unsigned hook.
func (s *HooksService) Post(ctx context.Context, urlOrToken string, body any, secret string, opts ...RequestOption) (*IncomingHookAnswer, error) {
	return s.post(ctx, urlOrToken, body, secret, nil, opts)
}

// PostDryRun answers what Post would apply (DryRun true, Frame nil), changing nothing: to check a mapping.
func (s *HooksService) PostDryRun(ctx context.Context, urlOrToken string, body any, secret string, opts ...RequestOption) (*IncomingHookAnswer, error) {
	return s.post(ctx, urlOrToken, body, secret, dryRun(), opts)
}

func (s *HooksService) post(ctx context.Context, urlOrToken string, body any, secret string, query url.Values, opts []RequestOption) (*IncomingHookAnswer, error) {
	cl := call{method: http.MethodPost, query: query, anonymous: true}
	if strings.Contains(urlOrToken, "://") {
		u, err := url.Parse(urlOrToken)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("onair: %q is not an incoming hook URL", urlOrToken)
		}
		cl.target = urlOrToken
	} else {
		path, err := route("/hooks/{token}", urlOrToken)
		if err != nil {
			return nil, err
		}
		cl.path = path
	}
	switch raw := body.(type) {
	case []byte:
		cl.rawBody = raw
	case json.RawMessage:
		cl.rawBody = raw
	default:
		data, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("onair: encoding the hook body: %w", err)
		}
		cl.rawBody = data
	}
	if cl.rawBody == nil {
		cl.rawBody = []byte{}
	}
	if secret != "" {
		cl.sign = func(body []byte) http.Header { return SignWebhook(body, secret, time.Now()) }
	}
	return send[IncomingHookAnswer](ctx, s.c, cl, opts)
}
