package onair_test

// Outgoing webhooks delivered by a real server to a local HTTPS receiver, verified with VerifyWebhook; and
// signed posts to an incoming hook.

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	onair "github.com/onair-live/onair/sdks/go"
)

type delivery struct {
	header http.Header
	body   []byte
}

// startReceiver runs an HTTPS server on 127.0.0.1 with the certificate the test server trusts, answering 204 and
// handing each request over.
func startReceiver(t *testing.T) (*httptest.Server, <-chan delivery) {
	t.Helper()
	certFile, keyFile := os.Getenv("ONAIR_TEST_TLS_CERT"), os.Getenv("ONAIR_TEST_TLS_KEY")
	if certFile == "" || keyFile == "" {
		t.Skip("webhook test skipped: set ONAIR_TEST_TLS_CERT and ONAIR_TEST_TLS_KEY (the PEM files " +
			"`npm run sdk:server` prints) to receive deliveries over HTTPS")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatalf("loading the receiver's certificate: %v", err)
	}
	deliveries := make(chan delivery, 64)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		select {
		case deliveries <- delivery{r.Header.Clone(), body}:
		default:
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener.Close()
	srv.Listener = ln
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, deliveries
}

// waitFor returns the first delivery of an event type whose body contains a string, or fails after a few seconds.
func waitFor(t *testing.T, deliveries <-chan delivery, eventType, contains string) delivery {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case d := <-deliveries:
			if d.header.Get(onair.HeaderEvent) == eventType && bytes.Contains(d.body, []byte(contains)) {
				return d
			}
		case <-timeout:
			t.Fatalf("no %s delivery within 10 s", eventType)
		}
	}
}

func wantVerifyCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	var verr *onair.VerificationError
	if !errors.As(err, &verr) || verr.Code != code {
		t.Fatalf("%s: want a VerificationError %s, got %v", what, code, err)
	}
}

func TestIntegrationWebhookDeliveryVerified(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)
	receiver, deliveries := startReceiver(t)

	sub, err := client.Webhooks.Create(ctx, onair.WebhookIn{
		URL:         receiver.URL + "/",
		Events:      []onair.EventType{onair.EventTypeChannelBindUpdated},
		ChannelID:   onair.Ptr(f.channel.ID),
		Description: onair.Ptr("go-sdk receiver"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = client.Webhooks.Delete(ctx, sub.ID) }()
	if sub.Secret == "" || sub.Status != onair.WebhookStatusEnabled || sub.ChannelID == nil || *sub.ChannelID != f.channel.ID {
		t.Fatalf("subscription: %+v", sub)
	}

	patch, err := client.Channels.PatchInputs(ctx, f.channel.ID, map[string]any{"scoreA": 7})
	if err != nil {
		t.Fatal(err)
	}
	d := waitFor(t, deliveries, string(onair.EventTypeChannelBindUpdated), `"scoreA":7`)

	event, err := onair.VerifyWebhook(d.body, d.header, sub.Secret)
	if err != nil {
		t.Fatalf("a real delivery must verify: %v", err)
	}
	if event.Type != onair.WebhookDeliveryTypeChannelBindUpdated || event.ChannelID == nil || *event.ChannelID != f.channel.ID || event.ID != d.header.Get(onair.HeaderDelivery) {
		t.Fatalf("event: %+v", event)
	}
	if inputs, _ := event.Data["inputs"].(map[string]any); inputs["scoreA"] != 7.0 || event.Data["frame"] != float64(patch.Frame) {
		t.Fatalf("event data: %+v (patch frame %d)", event.Data, patch.Frame)
	}

	// The same delivery, altered.
	tampered := bytes.Replace(d.body, []byte(`"scoreA":7`), []byte(`"scoreA":8`), 1)
	if bytes.Equal(tampered, d.body) {
		t.Fatalf("could not tamper with %s", d.body)
	}
	_, err = onair.VerifyWebhook(tampered, d.header, sub.Secret)
	wantVerifyCode(t, "tampered body", err, onair.VerifySignatureMismatch)

	_, err = onair.VerifyWebhook(d.body, d.header, sub.Secret+"x")
	wantVerifyCode(t, "wrong secret", err, onair.VerifySignatureMismatch)

	ts, _ := strconv.ParseInt(d.header.Get(onair.HeaderTimestamp), 10, 64)
	_, err = onair.VerifyWebhook(d.body, d.header, sub.Secret, onair.WithNow(time.Unix(ts, 0).Add(301*time.Second)))
	wantVerifyCode(t, "replayed 301 s later", err, onair.VerifyTimestampOutOfTolerance)
	stale := d.header.Clone()
	for name, values := range onair.SignWebhook(d.body, sub.Secret, time.Now().Add(-10*time.Minute)) {
		stale[name] = values
	}
	_, err = onair.VerifyWebhook(d.body, stale, sub.Secret)
	wantVerifyCode(t, "stale timestamp, correctly signed", err, onair.VerifyTimestampOutOfTolerance)

	other := d.header.Clone()
	other.Set(onair.HeaderDelivery, "evt_00000000000000000000000000000000")
	_, err = onair.VerifyWebhook(d.body, other, sub.Secret)
	wantVerifyCode(t, "mismatched delivery id", err, onair.VerifyDeliveryMismatch)

	// Ping reaches the receiver, signed the same way.
	ping, err := client.Webhooks.Ping(ctx, sub.ID)
	if err != nil || !ping.OK || ping.Status == nil || *ping.Status != 204 {
		t.Fatalf("ping: %+v, %v", ping, err)
	}
	pd := waitFor(t, deliveries, string(onair.WebhookDeliveryTypeWebhookPing), sub.ID)
	pingEvent, err := onair.VerifyWebhook(pd.body, pd.header, sub.Secret)
	if err != nil || pingEvent.Type != onair.WebhookDeliveryTypeWebhookPing || pingEvent.Data["webhookId"] != sub.ID {
		t.Fatalf("ping delivery: %+v, %v", pingEvent, err)
	}

	// The subscription is listed and its log shows the successful attempt.
	got, err := client.Webhooks.Get(ctx, sub.ID)
	if err != nil || got.URL != sub.URL || got.ConsecutiveFailures != 0 {
		t.Fatalf("get: %+v, %v", got, err)
	}
	listed := false
	for it := client.Webhooks.ListAll(ctx, onair.ListOptions{}); it.Next(); {
		listed = listed || it.Value().ID == sub.ID
	}
	if !listed {
		t.Fatal("the subscription is not listed")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		attempts, err := client.Webhooks.Deliveries(ctx, sub.ID, onair.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ok := false
		for _, a := range attempts.Data {
			ok = ok || (a.EventID == event.ID && a.Outcome == onair.WebhookAttemptOutcomeSucceeded)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delivery log has no successful attempt for %s: %+v", event.ID, attempts.Data)
		}
		time.Sleep(100 * time.Millisecond)
	}

	if err := client.Webhooks.Delete(ctx, sub.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.Webhooks.Get(ctx, sub.ID)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationSignedIncomingHook(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)

	hook, err := client.IncomingHooks.Create(ctx, f.channel.ID, onair.IncomingHookIn{
		Name:             onair.Ptr("go-sdk scorekeeper"),
		Mapping:          map[string]string{"home_score": "scoreA", "game.period": "period"},
		RequireSignature: onair.Ptr(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if hook.Secret == nil || *hook.Secret == "" || hook.URL == "" || !hook.RequireSignature {
		t.Fatalf("hook: %+v", hook)
	}

	answer, err := client.Hooks.Post(ctx, hook.URL, map[string]any{"home_score": "5", "game": map[string]any{"period": 2}, "venue": "Arena"}, *hook.Secret)
	if err != nil {
		t.Fatalf("a signed post must be accepted: %v", err)
	}
	if answer.Frame == nil || answer.Applied["scoreA"] != 5.0 || answer.Applied["period"] != 2.0 || len(answer.Ignored) != 1 || answer.Ignored[0] != "venue" {
		t.Fatalf("answer: %+v", answer)
	}
	state, err := client.Channels.GetState(ctx, f.channel.ID)
	if err != nil || state.Inputs["scoreA"] != 5.0 {
		t.Fatalf("state after the post: %+v, %v", state.Inputs, err)
	}

	// The token alone works too (the client's base URL is used), and raw bytes are sent as they are.
	token := path.Base(hook.URL)
	answer, err = client.Hooks.Post(ctx, token, []byte(`{"home_score":6}`), *hook.Secret)
	if err != nil || answer.Applied["scoreA"] != 6.0 {
		t.Fatalf("post by token: %+v, %v", answer, err)
	}
	dry, err := client.Hooks.PostDryRun(ctx, token, map[string]any{"home_score": 9}, *hook.Secret)
	if err != nil || dry.DryRun == nil || !*dry.DryRun || dry.Frame != nil || dry.Applied["scoreA"] != 9.0 {
		t.Fatalf("dry run: %+v, %v", dry, err)
	}

	_, err = client.Hooks.Post(ctx, hook.URL, map[string]any{"home_score": 1}, *hook.Secret+"x")
	asAPIError(t, err, 401, "bad_signature")
	_, err = client.Hooks.Post(ctx, hook.URL, map[string]any{"home_score": 1}, "")
	asAPIError(t, err, 401, "bad_signature")

	// Manage it.
	got, err := client.IncomingHooks.Get(ctx, f.channel.ID, hook.ID)
	if err != nil || got.Mapping["home_score"] != "scoreA" {
		t.Fatalf("get: %+v, %v", got, err)
	}
	list, err := client.IncomingHooks.List(ctx, f.channel.ID)
	if err != nil || len(list.Data) == 0 {
		t.Fatalf("list: %+v, %v", list, err)
	}
	updated, err := client.IncomingHooks.Update(ctx, f.channel.ID, hook.ID, onair.IncomingHookPatch{Name: onair.Ptr("renamed")})
	if err != nil || updated.Name != "renamed" || updated.Mapping["home_score"] != "scoreA" {
		t.Fatalf("update: %+v, %v", updated, err)
	}
	log, err := client.IncomingHooks.Deliveries(ctx, f.channel.ID, hook.ID)
	if err != nil || len(log.Data) != 3 || log.Data[0].Status != 200 || !log.Data[0].DryRun {
		t.Fatalf("log (newest first, the posts past the door): %+v, %v", log, err)
	}
	refused, err := client.IncomingHooks.Refusals(ctx, f.channel.ID, hook.ID)
	if err != nil || len(refused.Data) == 0 || refused.Data[0].Status != 401 || refused.Data[0].Count < 1 {
		t.Fatalf("refusals (one line per second, the first refusal written at once): %+v, %v", refused, err)
	}
	if err := client.IncomingHooks.Delete(ctx, f.channel.ID, hook.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.Hooks.Post(ctx, hook.URL, map[string]any{"home_score": 1}, *hook.Secret)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationWebhookSecretRoll(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)
	receiver, deliveries := startReceiver(t)

	sub, err := client.Webhooks.Create(ctx, onair.WebhookIn{
		URL:       receiver.URL + "/",
		Events:    []onair.EventType{onair.EventTypeChannelBindUpdated},
		ChannelID: onair.Ptr(f.channel.ID),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = client.Webhooks.Delete(ctx, sub.ID) }()

	rolled, err := client.Webhooks.RollSecret(ctx, sub.ID, onair.WebhookSecretRollIn{OverlapSeconds: onair.Ptr(int64(600))})
	if err != nil {
		t.Fatal(err)
	}
	if rolled.Secret == "" || rolled.Secret == sub.Secret || rolled.PreviousSecretExpiresAt == nil {
		t.Fatalf("rolled: %+v", rolled)
	}

	if _, err := client.Channels.PatchInputs(ctx, f.channel.ID, map[string]any{"scoreA": 11}); err != nil {
		t.Fatal(err)
	}
	d := waitFor(t, deliveries, string(onair.EventTypeChannelBindUpdated), `"scoreA":11`)
	if n := len(strings.Split(d.header.Get(onair.HeaderSignature), " ")); n != 2 {
		t.Fatalf("want two signatures during the overlap, got %d: %q", n, d.header.Get(onair.HeaderSignature))
	}
	for name, secret := range map[string]string{"new": rolled.Secret, "old": sub.Secret} {
		if _, err := onair.VerifyWebhook(d.body, d.header, secret); err != nil {
			t.Fatalf("the %s secret must verify during the overlap: %v", name, err)
		}
	}
	_, err = onair.VerifyWebhook(d.body, d.header, "whsec_neither")
	wantVerifyCode(t, "neither secret", err, onair.VerifySignatureMismatch)
}
