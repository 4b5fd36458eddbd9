package onair_test

// Tests of the client against a scripted local server: URLs, headers, errors, retries and idempotency keys,
// for the cases a real server cannot be made to produce on demand.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	onair "github.com/onair-live/onair/sdks/go"
)

// recorded is one request the scripted server received.
type recorded struct {
	method, path, query string
	header              http.Header
	body                string
}

// scripted serves the answers in order (the last one repeats) and records every request.
type scripted struct {
	t       *testing.T
	mu      sync.Mutex
	answers []func(w http.ResponseWriter)
	seen    []recorded
	srv     *httptest.Server
}

func newScripted(t *testing.T, answers ...func(w http.ResponseWriter)) *scripted {
	s := &scripted{t: t, answers: answers}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.seen)
		s.seen = append(s.seen, recorded{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(body)})
		answer := s.answers[len(s.answers)-1]
		if n < len(s.answers) {
			answer = s.answers[n]
		}
		s.mu.Unlock()
		answer(w)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *scripted) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.seen...)
}

func jsonAnswer(status int, body string, headers ...string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func problem(status int, code string, headers ...string) func(w http.ResponseWriter) {
	body := fmt.Sprintf(`{"type":"https://onair.dev/errors/%s","title":"T","status":%d,"code":%q,"detail":"D"}`, code, status, code)
	return jsonAnswer(status, body, append([]string{"Content-Type", "application/problem+json"}, headers...)...)
}

const channelJSON = `{"id":"ch_1","name":"Main","fps":50,"width":1920,"height":1080,"outputUrl":"o","previewUrl":"p","createdAt":"c","updatedAt":"u"}`

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestBaseURLForms(t *testing.T) {
	s := newScripted(t, jsonAnswer(200, `{"workspace":{"id":"org_1","name":"W"},"permissions":["*"],"channelIds":null}`))
	for _, base := range []string{s.srv.URL, s.srv.URL + "/", s.srv.URL + "/v1", s.srv.URL + "/v1/"} {
		client := onair.NewClient("onair_sk_test", onair.WithBaseURL(base))
		me, err := client.Me(context.Background())
		if err != nil {
			t.Fatalf("base %q: %v", base, err)
		}
		if me.Workspace.ID != "org_1" || me.ChannelIDs != nil {
			t.Fatalf("base %q: got %+v", base, me)
		}
	}
	for i, r := range s.requests() {
		if r.path != "/v1/me" {
			t.Fatalf("request %d went to %q, want /v1/me", i, r.path)
		}
	}
	if _, err := onair.NewClient("k", onair.WithBaseURL("localhost:8080")).Me(context.Background()); err == nil ||
		!strings.Contains(err.Error(), "not an http(s) URL") {
		t.Fatalf("a base URL without a scheme should be refused clearly, got %v", err)
	}
}

func TestHeadersAndEnvKey(t *testing.T) {
	s := newScripted(t, jsonAnswer(201, channelJSON))
	t.Setenv("ONAIR_API_KEY", "onair_sk_fromenv")
	client := onair.NewClient("", onair.WithBaseURL(s.srv.URL))
	ch, err := client.Channels.Create(context.Background(), onair.ChannelIn{Name: "Main", FPS: onair.Ptr(50.0)},
		onair.WithRequestID("trace-1"))
	if err != nil {
		t.Fatal(err)
	}
	if ch.ID != "ch_1" || ch.FPS != 50 {
		t.Fatalf("channel not decoded: %+v", ch)
	}
	r := s.requests()[0]
	want := map[string]string{
		"Authorization": "Bearer onair_sk_fromenv",
		"User-Agent":    "onair-go/" + onair.Version,
		"Accept":        "application/json",
		"Content-Type":  "application/json",
		"X-Request-Id":  "trace-1",
	}
	for name, value := range want {
		if got := r.header.Get(name); got != value {
			t.Errorf("%s: got %q, want %q", name, got, value)
		}
	}
	if r.method != "POST" || r.path != "/v1/channels" || r.body != `{"fps":50,"name":"Main"}` {
		t.Errorf("got %s %s %s", r.method, r.path, r.body)
	}
	if !uuidPattern.MatchString(r.header.Get("Idempotency-Key")) {
		t.Errorf("a create must send a UUID Idempotency-Key, got %q", r.header.Get("Idempotency-Key"))
	}
}

func TestIdempotencyKeys(t *testing.T) {
	ctx := context.Background()
	s := newScripted(t, problem(429, "rate_limited", "Retry-After", "1"), jsonAnswer(201, channelJSON))
	client := onair.NewClient("k", onair.WithBaseURL(s.srv.URL))
	if _, err := client.Channels.Create(ctx, onair.ChannelIn{Name: "Main"}); err != nil {
		t.Fatal(err)
	}
	r := s.requests()
	if len(r) != 2 {
		t.Fatalf("want one retry after the 429, got %d requests", len(r))
	}
	key := r[0].header.Get("Idempotency-Key")
	if key == "" || r[1].header.Get("Idempotency-Key") != key {
		t.Fatalf("a retry must reuse the call's Idempotency-Key: %q then %q", key, r[1].header.Get("Idempotency-Key"))
	}

	// Each call has its own key; the caller may set it; calls that create nothing send none.
	s2 := newScripted(t, jsonAnswer(200, channelJSON))
	client = onair.NewClient("k", onair.WithBaseURL(s2.srv.URL))
	_, _ = client.Channels.Create(ctx, onair.ChannelIn{Name: "A"})
	_, _ = client.Channels.Create(ctx, onair.ChannelIn{Name: "A"})
	_, _ = client.Channels.Create(ctx, onair.ChannelIn{Name: "A"}, onair.WithIdempotencyKey("mine-1"))
	_, _ = client.Channels.Update(ctx, "ch_1", onair.ChannelUpdate{Name: onair.Ptr("B")}, onair.WithIdempotencyKey("ignored"))
	_, _ = client.Playout.Take(ctx, "ch_1", onair.TakeIn{})
	_, _ = client.Channels.RotateOutputToken(ctx, "ch_1")
	_, _ = client.Keys.Create(ctx, onair.KeyIn{Name: "k", Permissions: []onair.Permission{onair.PermissionChannelsRead}})
	_, _ = client.Webhooks.Create(ctx, onair.WebhookIn{URL: "https://example.com/"})
	_, _ = client.Webhooks.Ping(ctx, "wh_1")
	_, _ = client.IncomingHooks.Create(ctx, "ch_1", onair.IncomingHookIn{})
	_, _ = client.Sources.Create(ctx, "ch_1", onair.SourceIn{Type: onair.SourceTypeJsonUrl, URL: "https://example.com/feed.json"})
	_, _ = client.Scenes.Create(ctx, "ch_1", onair.SceneIn{Name: "S", Template: onair.Ptr("scoreboard")})
	_, _ = client.Scenes.CreateDryRun(ctx, "ch_1", onair.SceneIn{Name: "S", Template: onair.Ptr("scoreboard")})
	r = s2.requests()
	keys := make([]string, len(r))
	for i := range r {
		keys[i] = r[i].header.Get("Idempotency-Key")
	}
	if keys[0] == "" || keys[1] == "" || keys[0] == keys[1] {
		t.Errorf("two calls must send two different keys: %q, %q", keys[0], keys[1])
	}
	if keys[2] != "mine-1" {
		t.Errorf("WithIdempotencyKey: got %q", keys[2])
	}
	if keys[3] != "" || keys[4] != "" {
		t.Errorf("PATCH and take create nothing and must send no key: %q, %q", keys[3], keys[4])
	}
	for i := 5; i <= 11; i++ {
		if !uuidPattern.MatchString(keys[i]) {
			t.Errorf("%s %s must send an Idempotency-Key, got %q", r[i].method, r[i].path, keys[i])
		}
	}
	if keys[12] != "" || r[12].query != "dryRun=1" {
		t.Errorf("a dry run saves nothing and sends no key: key %q, query %q", keys[12], r[12].query)
	}
	if r[4].body != "{}" {
		t.Errorf("take with no layer should send {}, got %q", r[4].body)
	}
}

func TestProblemError(t *testing.T) {
	body := `{"input":"scorA","closest":"scoreA","type":"https://onair.dev/errors/unknown_input","title":"Unknown input","status":400,"code":"unknown_input","detail":"No scene declares scorA.","errors":[{"path":"scorA","message":"unknown input"}]}`
	s := newScripted(t, jsonAnswer(400, body, "Content-Type", "application/problem+json", "X-Request-Id", "req_abc"))
	_, err := onair.NewClient("k", onair.WithBaseURL(s.srv.URL)).Channels.PatchInputs(context.Background(), "ch_1", map[string]any{"scorA": 1})
	var apiErr *onair.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("want *APIError, got %T %v", err, err)
	}
	if apiErr.Status != 400 || apiErr.Code != "unknown_input" || apiErr.Title != "Unknown input" || apiErr.RequestID != "req_abc" {
		t.Fatalf("got %+v", apiErr)
	}
	if len(apiErr.Errors) != 1 || apiErr.Errors[0].Path != "scorA" || apiErr.Extra["closest"] != "scoreA" {
		t.Fatalf("errors/extra not read: %+v", apiErr)
	}
	if msg := apiErr.Error(); !strings.Contains(msg, "400 unknown_input") || !strings.Contains(msg, "req_abc") {
		t.Fatalf("message %q should name status, code and request id", msg)
	}
	if len(s.requests()) != 1 {
		t.Fatal("a 400 must not be retried")
	}
}

func TestNonJSONError(t *testing.T) {
	s := newScripted(t, func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(502)
		_, _ = io.WriteString(w, "<html><body>Bad gateway</body></html>")
	})
	_, err := onair.NewClient("k", onair.WithBaseURL(s.srv.URL)).Channels.Get(context.Background(), "ch_1")
	var apiErr *onair.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "http_502" || apiErr.Status != 502 || !strings.Contains(apiErr.Detail, "Bad gateway") {
		t.Fatalf("want an APIError http_502, got %#v", err)
	}
}

func TestRetryRules(t *testing.T) {
	ctx := context.Background()
	t.Run("a wait longer than maxRetryWait is not slept", func(t *testing.T) {
		s := newScripted(t, problem(429, "rate_limited", "Retry-After", "120"))
		client := onair.NewClient("k", onair.WithBaseURL(s.srv.URL), onair.WithMaxRetryWait(5*time.Second))
		start := time.Now()
		_, err := client.Channels.PatchInputs(ctx, "ch_1", map[string]any{"a": 1})
		var apiErr *onair.APIError
		if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.RetryAfter != 120*time.Second {
			t.Fatalf("want the 429 with RetryAfter 120s, got %v", err)
		}
		if time.Since(start) > 500*time.Millisecond || len(s.requests()) != 1 {
			t.Fatalf("should fail at once with one request; took %v, %d requests", time.Since(start), len(s.requests()))
		}
	})
	t.Run("at most maxRetries retries", func(t *testing.T) {
		s := newScripted(t, problem(429, "rate_limited", "Retry-After", "1"))
		client := onair.NewClient("k", onair.WithBaseURL(s.srv.URL), onair.WithMaxRetries(1))
		start := time.Now()
		_, err := client.Channels.PatchInputs(ctx, "ch_1", map[string]any{"a": 1})
		var apiErr *onair.APIError
		if !errors.As(err, &apiErr) || apiErr.Code != "rate_limited" {
			t.Fatalf("want rate_limited after the retries, got %v", err)
		}
		if n := len(s.requests()); n != 2 {
			t.Fatalf("want 2 requests (1 retry), got %d", n)
		}
		if time.Since(start) < time.Second {
			t.Fatal("the retry came before Retry-After")
		}
	})
	t.Run("503 with Retry-After is retried, without is not, 500 never", func(t *testing.T) {
		s := newScripted(t, problem(503, "unavailable", "Retry-After", "1"), jsonAnswer(200, channelJSON))
		client := onair.NewClient("k", onair.WithBaseURL(s.srv.URL))
		if _, err := client.Channels.Get(ctx, "ch_1"); err != nil || len(s.requests()) != 2 {
			t.Fatalf("503 + Retry-After should be retried once: %v, %d requests", err, len(s.requests()))
		}
		for _, answer := range []func(http.ResponseWriter){problem(503, "unavailable"), problem(500, "internal")} {
			s := newScripted(t, answer, jsonAnswer(200, channelJSON))
			_, err := onair.NewClient("k", onair.WithBaseURL(s.srv.URL)).Channels.Get(ctx, "ch_1")
			if err == nil || len(s.requests()) != 1 {
				t.Fatalf("must not be retried: %v, %d requests", err, len(s.requests()))
			}
		}
	})
	t.Run("the context ends the wait", func(t *testing.T) {
		s := newScripted(t, problem(429, "rate_limited", "Retry-After", "10"))
		ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err := onair.NewClient("k", onair.WithBaseURL(s.srv.URL)).Channels.Get(ctx, "ch_1")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("want the context's error, got %v", err)
		}
	})
}

func TestTransportErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	_, err = onair.NewClient("k", onair.WithBaseURL(closed)).Me(context.Background())
	var terr *onair.TransportError
	if !errors.As(err, &terr) || terr.Method != "GET" || !strings.HasSuffix(terr.URL, "/v1/me") {
		t.Fatalf("want a *TransportError for a closed port, got %T %v", err, err)
	}
	if terr.Timeout() {
		t.Fatal("a refused connection is not a timeout")
	}

	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	start := time.Now()
	_, err = onair.NewClient("k", onair.WithBaseURL(slow.URL), onair.WithTimeout(100*time.Millisecond)).Me(context.Background())
	if !errors.As(err, &terr) || !terr.Timeout() || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a timed-out *TransportError, got %T %v", err, err)
	}
	if time.Since(start) > time.Second {
		t.Fatalf("the timeout took %v", time.Since(start))
	}
}

func TestEmptyIDsAreRefused(t *testing.T) {
	client := onair.NewClient("k", onair.WithBaseURL("http://127.0.0.1:1"))
	_, err := client.Scenes.Get(context.Background(), "ch_1", "")
	if err == nil || !strings.Contains(err.Error(), "sceneID must not be empty") {
		t.Fatalf("got %v", err)
	}
}

func TestIterator(t *testing.T) {
	pages := map[string]string{
		"":     `{"data":[{"id":"ch_1"},{"id":"ch_2"}],"nextCursor":"ch_2"}`,
		"ch_2": `{"data":[],"nextCursor":"ch_3"}`,
		"ch_3": `{"data":[{"id":"ch_4"}],"nextCursor":null}`,
	}
	var mu sync.Mutex
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		mu.Unlock()
		_, _ = io.WriteString(w, pages[r.URL.Query().Get("cursor")])
	}))
	defer srv.Close()
	client := onair.NewClient("k", onair.WithBaseURL(srv.URL))
	it := client.Channels.ListAll(context.Background(), onair.ListOptions{Limit: 2})
	var ids []string
	for it.Next() {
		ids = append(ids, it.Value().ID)
	}
	if it.Err() != nil || strings.Join(ids, ",") != "ch_1,ch_2,ch_4" {
		t.Fatalf("got %v, %v", ids, it.Err())
	}
	if strings.Join(queries, " ") != "limit=2 cursor=ch_2&limit=2 cursor=ch_3&limit=2" {
		t.Fatalf("queries: %v", queries)
	}

	// A server that keeps answering the same cursor stops the iterator with an error, after that page.
	loop := newScripted(t, jsonAnswer(200, `{"data":[{"id":"ch_9"}],"nextCursor":"ch_9"}`))
	it = onair.NewClient("k", onair.WithBaseURL(loop.srv.URL)).Channels.ListAll(context.Background(), onair.ListOptions{})
	n := 0
	for it.Next() {
		n++
	}
	if it.Err() == nil || n != 2 {
		t.Fatalf("want 2 items then an error, got %d, %v", n, it.Err())
	}
}

func TestEventsIteratorSince(t *testing.T) {
	s := newScripted(t,
		jsonAnswer(200, `{"data":[{"id":"evt_1","type":"channel.played"}],"nextCursor":"evt_1"}`),
		jsonAnswer(200, `{"data":[],"nextCursor":null}`))
	client := onair.NewClient("k", onair.WithBaseURL(s.srv.URL))
	since := time.Date(2026, 11, 23, 18, 27, 14, 661e6, time.FixedZone("CET", 3600))
	it := client.Events.ListAll(context.Background(), onair.EventListOptions{ChannelID: "ch_1", Type: onair.EventTypeChannelPlayed, Since: since})
	for it.Next() {
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	r := s.requests()
	if r[0].query != "channelId=ch_1&since=2026-11-23T17%3A27%3A14.661Z&type=channel.played" {
		t.Fatalf("first page query: %s", r[0].query)
	}
	if r[1].query != "channelId=ch_1&cursor=evt_1&type=channel.played" {
		t.Fatalf("since and cursor may not go together; second page query: %s", r[1].query)
	}
}

func TestHookPostIsSignedAndAnonymous(t *testing.T) {
	s := newScripted(t, jsonAnswer(200, `{"frame":12,"applied":{"scoreA":3},"ignored":[]}`))
	client := onair.NewClient("onair_sk_secretkey", onair.WithBaseURL(s.srv.URL))
	body := []byte(`{"home_score":3}`)
	answer, err := client.Hooks.Post(context.Background(), s.srv.URL+"/v1/hooks/tok123", body, "whsec_s")
	if err != nil {
		t.Fatal(err)
	}
	if answer.Frame == nil || *answer.Frame != 12 || answer.Applied["scoreA"] != 3.0 {
		t.Fatalf("answer not decoded: %+v", answer)
	}
	if _, err := client.Hooks.PostDryRun(context.Background(), "tok123", map[string]any{"home_score": 3}, ""); err != nil {
		t.Fatal(err)
	}
	r := s.requests()
	if r[0].path != "/v1/hooks/tok123" || r[0].body != string(body) || r[0].header.Get("Authorization") != "" {
		t.Fatalf("first post: %+v", r[0])
	}
	ts := r[0].header.Get(onair.HeaderTimestamp)
	if want := onair.SignWebhook(body, "whsec_s", time.Now()); ts == "" ||
		r[0].header.Get(onair.HeaderSignature) != onair.SignWebhook(body, "whsec_s", timeFromUnix(t, ts)).Get(onair.HeaderSignature) ||
		want.Get(onair.HeaderSignature) == "" {
		t.Fatalf("post not signed correctly: %v", r[0].header)
	}
	if r[1].path != "/v1/hooks/tok123" || r[1].query != "dryRun=1" || r[1].header.Get(onair.HeaderSignature) != "" || r[1].header.Get("Authorization") != "" {
		t.Fatalf("dry run by token: %+v", r[1])
	}
}

func timeFromUnix(t *testing.T, s string) time.Time {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return time.Unix(n, 0)
}

func TestAsRunQueryAndCSV(t *testing.T) {
	s := newScripted(t,
		jsonAnswer(200, `{"data":[{"id":"asr_1"}],"nextCursor":null}`),
		jsonAnswer(200, "id,layer\r\nasr_1,20\r\n", "Content-Type", "text/csv; charset=utf-8"))
	client := onair.NewClient("k", onair.WithBaseURL(s.srv.URL))
	from := time.Date(2026, 11, 23, 18, 0, 0, 0, time.FixedZone("CET", 3600))
	page, err := client.AsRun.List(context.Background(), "ch_1", onair.AsRunListOptions{From: from, Limit: 500})
	if err != nil || len(page.Data) != 1 || page.Data[0].ID != "asr_1" {
		t.Fatalf("page %+v, %v", page, err)
	}
	csv, err := client.AsRun.CSV(context.Background(), "ch_1", onair.AsRunListOptions{Cursor: "asr_0"})
	if err != nil || string(csv) != "id,layer\r\nasr_1,20\r\n" {
		t.Fatalf("csv %q, %v", csv, err)
	}
	r := s.requests()
	if r[0].path != "/v1/channels/ch_1/as-run" || r[0].query != "from=2026-11-23T17%3A00%3A00.000Z&limit=500" {
		t.Fatalf("list request: %s?%s", r[0].path, r[0].query)
	}
	if r[1].query != "cursor=asr_0&format=csv" {
		t.Fatalf("csv query: %s", r[1].query)
	}
}
