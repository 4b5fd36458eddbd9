package onair

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryWait says whether an answer is retried and after how long. Only rate limits are retried: a 429, or a 503
// that says when to come back (Retry-After); anything else could repeat a change, so it is returned. The wait is
// Retry-After (whole seconds, at least 1); a wait longer than maxRetryWait is not slept: the error is returned at
// once.
func (c *Client) retryWait(status int, retryAfter time.Duration, attempt int) (time.Duration, bool) {
	if attempt >= c.cfg.maxRetries {
		return 0, false
	}
	switch {
	case status == http.StatusTooManyRequests:
	case status == http.StatusServiceUnavailable && retryAfter > 0:
	default:
		return 0, false
	}
	wait := retryAfter
	if wait < time.Second {
		wait = time.Second
	}
	if wait > c.cfg.maxRetryWait {
		return 0, false
	}
	return wait, true
}

// parseRetryAfter reads a Retry-After header: whole seconds, or an HTTP date. Zero when absent or unreadable.
func parseRetryAfter(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(value, 10, 64); err == nil {
		if secs < 0 {
			return 0
		}
		if secs > int64(24*time.Hour/time.Second) {
			secs = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(secs) * time.Second
	}
	if at, err := http.ParseTime(value); err == nil {
		if d := at.Sub(now); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

// sleep waits d, or less if the context ends first (then it returns the context's error).
func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
