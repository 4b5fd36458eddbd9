package onair

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The headers of a signed delivery (docs/webhooks.md "Delivery format").
const (
	HeaderEvent     = "X-Service-Event"
	HeaderDelivery  = "X-Service-Delivery"
	HeaderTimestamp = "X-Service-Timestamp"
	HeaderSignature = "X-Service-Signature"
)

// DefaultTolerance is how far a delivery's timestamp may be from the receiver's clock, either way, before
// VerifyWebhook refuses it as a replay.
const DefaultTolerance = 300 * time.Second

// The codes of a VerificationError, in the order VerifyWebhook checks them.
const (
	// VerifyMissingHeader: X-Service-Timestamp, X-Service-Signature or X-Service-Delivery is absent.
	VerifyMissingHeader = "missing_header"
	// VerifyInvalidTimestamp: X-Service-Timestamp is not whole Unix seconds.
	VerifyInvalidTimestamp = "invalid_timestamp"
	// VerifyTimestampOutOfTolerance: the timestamp is further from now than the tolerance (a replay, or a clock
	// that is off).
	VerifyTimestampOutOfTolerance = "timestamp_out_of_tolerance"
	// VerifySignatureMismatch: the signature is not that of this body, timestamp and secret.
	VerifySignatureMismatch = "signature_mismatch"
	// VerifyInvalidBody: the signed body is not a JSON event object.
	VerifyInvalidBody = "invalid_body"
	// VerifyDeliveryMismatch: X-Service-Delivery names another event than the body.
	VerifyDeliveryMismatch = "delivery_mismatch"
)

// VerificationError is a delivery VerifyWebhook refused. Answer it with a 4xx and do not act on the body.
type VerificationError struct {
	// Code is one of the Verify* constants.
	Code string
	// Message says what was wrong, for logs.
	Message string
}

// Error gives the code and what was wrong.
func (e *VerificationError) Error() string {
	return "onair: webhook refused: " + e.Code + ": " + e.Message
}

// VerifyOption adjusts VerifyWebhook.
type VerifyOption func(*verifyConfig)

type verifyConfig struct {
	tolerance time.Duration
	now       func() time.Time
}

// WithTolerance sets how far the timestamp may be from now (default 300 s).
func WithTolerance(d time.Duration) VerifyOption {
	return func(c *verifyConfig) { c.tolerance = d }
}

// WithNow sets the clock VerifyWebhook compares the timestamp with (default time.Now), for tests.
func WithNow(now time.Time) VerifyOption {
	return func(c *verifyConfig) { c.now = func() time.Time { return now } }
}

// VerifyWebhook checks that a delivery comes from onair and returns its event. rawBody must be the body exactly
// as received (read it with io.ReadAll before any JSON decoding); secret is the subscription's whsec_… secret.
// It checks, in order: the three headers are there, the timestamp is whole Unix seconds within the tolerance, the
// signature (compared in constant time), the body is a JSON object, and X-Service-Delivery is the body's id. A
// refusal is a *VerificationError. Deduplicate on the event's ID afterwards: a retry can bring it again.
//
// While the subscription's secret is being rolled, X-Service-Signature carries two v1= signatures separated by a
// space (the new secret's first): the delivery verifies when either is this secret's.
func VerifyWebhook(rawBody []byte, header http.Header, secret string, opts ...VerifyOption) (*WebhookDelivery, error) {
	cfg := verifyConfig{tolerance: DefaultTolerance, now: time.Now}
	for _, opt := range opts {
		opt(&cfg)
	}
	timestamp := headerValue(header, HeaderTimestamp)
	signature := headerValue(header, HeaderSignature)
	delivery := headerValue(header, HeaderDelivery)
	for _, h := range []struct{ name, value string }{
		{HeaderTimestamp, timestamp}, {HeaderSignature, signature}, {HeaderDelivery, delivery},
	} {
		if h.value == "" {
			return nil, &VerificationError{VerifyMissingHeader, "no " + h.name + " header"}
		}
	}
	seconds, ok := unixSeconds(timestamp)
	if !ok {
		return nil, &VerificationError{VerifyInvalidTimestamp, fmt.Sprintf("%s %q is not whole Unix seconds", HeaderTimestamp, timestamp)}
	}
	now := cfg.now()
	age := float64(now.UnixNano())/1e9 - float64(seconds)
	if math.Abs(age) > cfg.tolerance.Seconds() {
		return nil, &VerificationError{VerifyTimestampOutOfTolerance, fmt.Sprintf("the timestamp is %.0f s from now; at most %.0f s is accepted", age, cfg.tolerance.Seconds())}
	}
	expected := []byte(signature1(rawBody, secret, timestamp))
	// Every signature is compared, whatever matched before: the time taken says nothing about which one did.
	matched := false
	for _, given := range strings.Split(signature, " ") {
		matched = hmac.Equal([]byte(given), expected) || matched
	}
	if !matched {
		return nil, &VerificationError{VerifySignatureMismatch, "the signature does not match the body, the timestamp and the secret"}
	}
	if trimmed := bytes.TrimSpace(rawBody); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &VerificationError{VerifyInvalidBody, "the body is not a JSON object"}
	}
	var event WebhookDelivery
	if err := json.Unmarshal(rawBody, &event); err != nil {
		return nil, &VerificationError{VerifyInvalidBody, "the body is not a JSON event: " + err.Error()}
	}
	if event.ID != delivery {
		return nil, &VerificationError{VerifyDeliveryMismatch, fmt.Sprintf("%s is %q but the body's id is %q", HeaderDelivery, delivery, event.ID)}
	}
	return &event, nil
}

// SignWebhook gives the headers that sign a post to an incoming hook with requireSignature (or a delivery, in a
// test): X-Service-Timestamp (timestamp in Unix seconds; a zero time means now) and X-Service-Signature. Sign the
// exact bytes you send, and send them within 300 s.
func SignWebhook(rawBody []byte, secret string, timestamp time.Time) http.Header {
	if timestamp.IsZero() {
		timestamp = time.Now()
	}
	ts := strconv.FormatInt(timestamp.Unix(), 10)
	h := http.Header{}
	h.Set(HeaderTimestamp, ts)
	h.Set(HeaderSignature, signature1(rawBody, secret, ts))
	return h
}

// signature1 is the v1 scheme: "v1=" + lowercase hex HMAC-SHA256(secret, timestamp + "." + body).
func signature1(body []byte, secret, timestamp string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp))
	mac.Write([]byte("."))
	mac.Write(body)
	return "v1=" + hex.EncodeToString(mac.Sum(nil))
}

// headerValue reads a header whatever the case of its name, also from maps built by hand with lower-case keys.
func headerValue(header http.Header, name string) string {
	if v := header.Get(name); v != "" {
		return v
	}
	for key, values := range header {
		if strings.EqualFold(key, name) && len(values) > 0 {
			return values[0]
		}
	}
	return ""
}

// unixSeconds reads whole Unix seconds: ASCII digits only (no sign, no fraction, no spaces).
func unixSeconds(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
