package onair

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// APIError is an answer of the API that refused a call: its problem document (RFC 9457). Match on Code, which is
// stable (not_found, invalid_request, rate_limited, conflict…; docs/api.md "Errors"), with errors.As:
//
//	var apiErr *onair.APIError
//	if errors.As(err, &apiErr) && apiErr.Code == "not_found" { … }
type APIError struct {
	// Status is the HTTP status.
	Status int
	// Code is the error code; http_<status> when the answer was not a problem document (a proxy's error page).
	Code string
	// Title is the code's fixed title.
	Title string
	// Detail says what went wrong in this case, for people.
	Detail string
	// Type is the problem type URI (https://onair.dev/errors/<code>).
	Type string
	// Errors lists each field at fault (validation errors), with its dot-separated path.
	Errors []FieldError
	// RequestID is the answer's X-Request-Id: quote it to find the request in the server's log.
	RequestID string
	// RetryAfter is the answer's Retry-After (429 and 503), zero when absent.
	RetryAfter time.Duration
	// Extra holds the problem's other members, such as permission (forbidden), input and closest
	// (unknown_input), trigger (unknown_trigger), bucket (rate_limited), reason (endpoint_refused), assets
	// (unknown_asset), or current and version (version_conflict). Member decodes one into a type of yours.
	Extra map[string]any
	// Body is the raw answer body.
	Body []byte
}

// Error describes the refusal in one line: status, code, detail and request id.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "onair: %d %s", e.Status, e.Code)
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	} else if e.Title != "" {
		b.WriteString(": " + e.Title)
	}
	if e.RequestID != "" {
		b.WriteString(" (request " + e.RequestID + ")")
	}
	return b.String()
}

// Member decodes the problem member name (one of Extra) into out, a pointer. found is false when the problem has
// no such member.
func (e *APIError) Member(name string, out any) (found bool, err error) {
	v, ok := e.Extra[name]
	if !ok {
		return false, nil
	}
	data, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(data, out)
	}
	if err != nil {
		return true, fmt.Errorf("onair: reading the problem's %q: %w", name, err)
	}
	return true, nil
}

// Current decodes, on a 409 version_conflict (an edit that sent a stale version), the record as it is now into
// out: a *RundownItem or *Rundown, with its current Version. found is false on other errors.
//
//	var item onair.RundownItem
//	if found, _ := apiErr.Current(&item); found { … }
func (e *APIError) Current(out any) (found bool, err error) {
	return e.Member("current", out)
}

// newAPIError reads a refusal: a problem document when there is one, otherwise the status and a start of the body.
func newAPIError(resp *http.Response, body []byte) *APIError {
	e := &APIError{
		Status:     resp.StatusCode,
		RequestID:  resp.Header.Get("X-Request-Id"),
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()),
		Body:       body,
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) == nil {
		var problem Problem
		if json.Unmarshal(body, &problem) == nil && problem.Code != "" {
			e.Code, e.Title, e.Detail, e.Type, e.Errors = problem.Code, problem.Title, problem.Detail, problem.Type, problem.Errors
			for name, raw := range members {
				switch name {
				case "type", "title", "status", "code", "detail", "errors":
					continue
				}
				var v any
				if json.Unmarshal(raw, &v) == nil {
					if e.Extra == nil {
						e.Extra = map[string]any{}
					}
					e.Extra[name] = v
				}
			}
			return e
		}
	}
	e.Code = "http_" + strconv.Itoa(resp.StatusCode)
	e.Title = http.StatusText(resp.StatusCode)
	e.Detail = snippet(body)
	return e
}

// snippet gives the start of a non-JSON body as one readable line.
func snippet(body []byte) string {
	s := strings.Join(strings.Fields(string(body)), " ")
	if len(s) > 200 {
		s = s[:200]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

// TransportError is a call that got no answer: the connection failed, the attempt timed out, or the context
// ended. The call may or may not have reached the server; creates carry an Idempotency-Key, so repeating one with
// WithIdempotencyKey is safe.
type TransportError struct {
	// Method and URL name the call.
	Method string
	URL    string
	// Err is the cause (a *net.OpError, context.DeadlineExceeded, context.Canceled…).
	Err error
}

// Error names the call and the cause.
func (e *TransportError) Error() string {
	return fmt.Sprintf("onair: %s %s: %v", e.Method, e.URL, e.Err)
}

// Unwrap gives the cause, for errors.Is(err, context.DeadlineExceeded) and errors.As.
func (e *TransportError) Unwrap() error { return e.Err }

// Timeout says whether the call failed because a time limit passed (WithTimeout, the context's deadline, or the
// network's).
func (e *TransportError) Timeout() bool {
	if errors.Is(e.Err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(e.Err, &ne) && ne.Timeout()
}
