package onair

import "net/http"

// RequestOption adjusts one call, for what differs between calls rather than between clients.
type RequestOption func(*requestConfig)

type requestConfig struct {
	idempotencyKey string
	requestID      string
	responseHeader *http.Header
}

// WithIdempotencyKey sets the Idempotency-Key of a create call instead of a fresh random one, so the caller can
// retry the call itself (after a crash, say) and still create the thing once: the server answers a repeated key
// and body with the first answer (Idempotent-Replayed: true), and a repeated key with another body with a 409
// conflict. Calls that create nothing ignore it.
func WithIdempotencyKey(key string) RequestOption {
	return func(rc *requestConfig) { rc.idempotencyKey = key }
}

// WithRequestID sends an X-Request-Id (1–128 characters of A-Z a-z 0-9 . _ : -), which the server uses for the
// request instead of its own, so one id follows the call through the caller's and the server's logs.
func WithRequestID(id string) RequestOption {
	return func(rc *requestConfig) { rc.requestID = id }
}

// WithResponseHeader stores the headers of the call's last answer in *h, for what the typed result leaves out:
// Idempotent-Replayed, RateLimit-Remaining, X-Request-Id of a success.
func WithResponseHeader(h *http.Header) RequestOption {
	return func(rc *requestConfig) { rc.responseHeader = h }
}
