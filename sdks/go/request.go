package onair

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxResponseBytes bounds how much of an answer is read, so a misbehaving proxy cannot exhaust memory.
const maxResponseBytes = 32 << 20

// call describes one API call; do turns it into HTTP attempts.
type call struct {
	method string
	path   string // under /v1, already escaped, e.g. "/channels/ch_…"
	query  url.Values
	body   any // marshalled to JSON; nil sends no body
	// rawBody is sent as is (with a JSON content type) instead of body, when the exact bytes matter.
	rawBody []byte
	// rawType is the Content-Type of rawBody; empty: application/json.
	rawType string
	// creates marks a POST that creates something: it carries an Idempotency-Key.
	creates bool
	// target, when set, is the absolute URL to call instead of the base URL + path (incoming-hook posts).
	target string
	// anonymous calls send no API key (incoming-hook posts carry their own credential).
	anonymous bool
	// sign, when set, gives extra headers for each attempt's body (incoming-hook signatures).
	sign func(body []byte) http.Header
}

// do runs a call, retrying rate-limited answers, and decodes a success into out (when out is not nil; a *[]byte
// gets the answer's body as it is).
func (c *Client) do(ctx context.Context, cl call, out any, opts []RequestOption) error {
	if ctx == nil {
		return errors.New("onair: nil context")
	}
	var rc requestConfig
	for _, opt := range opts {
		opt(&rc)
	}
	target, err := c.url(cl)
	if err != nil {
		return err
	}
	body := cl.rawBody
	if body == nil && cl.body != nil {
		if body, err = json.Marshal(cl.body); err != nil {
			return fmt.Errorf("onair: encoding the %s %s body: %w", cl.method, cl.path, err)
		}
	}
	idempotencyKey := ""
	if cl.creates {
		idempotencyKey = rc.idempotencyKey
		if idempotencyKey == "" {
			if idempotencyKey, err = newUUID(); err != nil {
				return err
			}
		}
	}

	for attempt := 0; ; attempt++ {
		resp, data, err := c.attempt(ctx, cl, target, body, idempotencyKey, &rc)
		if err != nil {
			return err
		}
		if rc.responseHeader != nil {
			*rc.responseHeader = resp.Header.Clone()
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			if raw, ok := out.(*[]byte); ok {
				// A text answer (CSV), as it came.
				*raw = data
				return nil
			}
			if out == nil || len(bytes.TrimSpace(data)) == 0 {
				return nil
			}
			if err := json.Unmarshal(data, out); err != nil {
				return fmt.Errorf("onair: reading the answer of %s %s (status %d): %w", cl.method, target, resp.StatusCode, err)
			}
			return nil
		}
		apiErr := newAPIError(resp, data)
		wait, retry := c.retryWait(resp.StatusCode, apiErr.RetryAfter, attempt)
		if !retry {
			return apiErr
		}
		if err := sleep(ctx, wait); err != nil {
			return &TransportError{Method: cl.method, URL: target, Err: err}
		}
	}
}

// attempt sends one HTTP request and reads the whole answer within the per-attempt timeout.
func (c *Client) attempt(ctx context.Context, cl call, target string, body []byte, idempotencyKey string, rc *requestConfig) (*http.Response, []byte, error) {
	if c.cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.timeout)
		defer cancel()
	}
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, target, reader)
	if err != nil {
		return nil, nil, fmt.Errorf("onair: building %s %s: %w", cl.method, target, err)
	}
	req.Header.Set("User-Agent", "onair-go/"+Version)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		contentType := "application/json"
		if cl.rawType != "" {
			contentType = cl.rawType
		}
		req.Header.Set("Content-Type", contentType)
	}
	if !cl.anonymous && c.cfg.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.apiKey)
	}
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
	}
	if rc.requestID != "" {
		req.Header.Set("X-Request-Id", rc.requestID)
	}
	if cl.sign != nil {
		for name, values := range cl.sign(body) {
			req.Header[name] = values
		}
	}
	resp, err := c.cfg.httpClient.Do(req)
	if err != nil {
		return nil, nil, &TransportError{Method: cl.method, URL: target, Err: unwrapURLError(err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, nil, &TransportError{Method: cl.method, URL: target, Err: err}
	}
	return resp, data, nil
}

// url gives the absolute URL of a call: the base URL's origin and prefix, /v1, the path and the query.
func (c *Client) url(cl call) (string, error) {
	target := cl.target
	if target == "" {
		base := strings.TrimRight(c.cfg.baseURL, "/")
		base = strings.TrimSuffix(base, "/v1")
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("onair: the base URL %q is not an http(s) URL", c.cfg.baseURL)
		}
		target = base + "/v1" + cl.path
	}
	if len(cl.query) > 0 {
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		target += sep + cl.query.Encode()
	}
	return target, nil
}

// unwrapURLError drops net/http's *url.Error wrapper: TransportError already names the method and URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// pathEscape escapes one path segment (an id or a name), so a value with a slash cannot reach another route.
func pathEscape(segment string) string {
	return url.PathEscape(segment)
}
