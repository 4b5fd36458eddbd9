package onair_test

// Tests against a real onair server. The root test run starts one (test/helpers/sdk-server.ts) and passes
// ONAIR_TEST_URL and ONAIR_TEST_KEY (and the TLS files for the webhook receiver); by hand, `npm run sdk:server`
// at the repository root prints them. Without them these tests skip.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	onair "github.com/onair-live/onair/sdks/go"
)

const skipMessage = "integration test skipped: set ONAIR_TEST_URL and ONAIR_TEST_KEY to run it against a real onair " +
	"server (`npm run sdk:server` at the repository root starts one and prints them)"

// integration gives a client for the test server, or skips the test.
func integration(t *testing.T, opts ...onair.Option) *onair.Client {
	t.Helper()
	url, key := os.Getenv("ONAIR_TEST_URL"), os.Getenv("ONAIR_TEST_KEY")
	if url == "" || key == "" {
		t.Skip(skipMessage)
	}
	return onair.NewClient(key, append([]onair.Option{onair.WithBaseURL(url)}, opts...)...)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// fixture is a channel with a scene made from the scoreboard template's definition, shared by the tests that only
// need a channel with inputs (creates are limited to 60 a minute per workspace).
type fixture struct {
	channel  *onair.Channel
	scene    *onair.Scene
	template onair.Template
}

var (
	fixtureOnce sync.Once
	shared      fixture
	fixtureErr  error
)

func scoreboard(t *testing.T) fixture {
	t.Helper()
	client := integration(t)
	fixtureOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		templates, err := client.Templates.List(ctx)
		if err != nil {
			fixtureErr = fmt.Errorf("listing templates: %w", err)
			return
		}
		for _, tpl := range templates.Data {
			if tpl.ID == "scoreboard" {
				shared.template = tpl
			}
		}
		if shared.template.ID == "" {
			fixtureErr = errors.New("GET /v1/templates has no scoreboard template")
			return
		}
		if shared.channel, err = client.Channels.Create(ctx, onair.ChannelIn{Name: "go-sdk scoreboard", FPS: onair.Ptr(50.0)}); err != nil {
			fixtureErr = fmt.Errorf("creating the channel: %w", err)
			return
		}
		def := shared.template.Definition
		shared.scene, fixtureErr = client.Scenes.Create(ctx, shared.channel.ID, onair.SceneIn{Name: "Score", Definition: &def})
	})
	if fixtureErr != nil {
		t.Fatalf("fixture: %v", fixtureErr)
	}
	return shared
}

func asAPIError(t *testing.T, err error, status int, code string) *onair.APIError {
	t.Helper()
	var apiErr *onair.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("want an *onair.APIError %d %s, got %T: %v", status, code, err, err)
	}
	if apiErr.Status != status || apiErr.Code != code {
		t.Fatalf("want %d %s, got %d %s (%v)", status, code, apiErr.Status, apiErr.Code, apiErr)
	}
	return apiErr
}

func TestIntegrationSceneFromTemplateInputsAndState(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)

	if f.scene.ChannelID != f.channel.ID || f.scene.Layer != 10 || len(f.scene.Triggers) != 2 {
		t.Fatalf("scene: %+v", f.scene)
	}
	// The definition went through the generated types and back: the server stored the template's definition.
	var want, got any
	a, _ := json.Marshal(f.template.Definition)
	b, _ := json.Marshal(f.scene.Definition)
	_ = json.Unmarshal(a, &want)
	_ = json.Unmarshal(b, &got)
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("stored definition differs from the template's:\n%s\n%s", a, b)
	}

	result, err := client.Channels.PatchInputs(ctx, f.channel.ID, map[string]any{"scoreA": 3, "home": "LEEDS"})
	if err != nil {
		t.Fatal(err)
	}
	if result.ChannelID != f.channel.ID || result.Frame <= 0 || result.Inputs["scoreA"] != 3.0 {
		t.Fatalf("patch result: %+v", result)
	}
	state, err := client.Channels.GetState(ctx, f.channel.ID)
	if err != nil {
		t.Fatal(err)
	}
	if state.Inputs["scoreA"] != 3.0 || state.Inputs["home"] != "LEEDS" || state.Frame < result.Frame || state.FPS != 50 {
		t.Fatalf("state: %+v", state)
	}
	// No output page has connected: none listed, none refused.
	outputs, err := client.Channels.ListOutputs(ctx, f.channel.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(outputs.Data) != 0 || outputs.Refused != nil {
		t.Fatalf("outputs: %+v", outputs)
	}
	// The template's game clock is in the state (its value depends on whether the playout test drove it yet).
	if clock, ok := state.Clocks["gameClock"]; !ok || clock.Ms < 0 || clock.Ms > 720000 {
		t.Fatalf("clocks: %+v", state.Clocks)
	}
	// null returns an input to its scene default.
	result, err = client.Channels.PatchInputs(ctx, f.channel.ID, map[string]any{"home": nil})
	if err != nil || result.Inputs["home"] != "HOME" {
		t.Fatalf("reset to default: %+v, %v", result, err)
	}
}

func TestIntegrationChannelLifecycle(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	ch, err := client.Channels.Create(ctx, onair.ChannelIn{Name: "go-sdk lifecycle", Width: onair.Ptr(int64(1280)), Height: onair.Ptr(int64(720))})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Width != 1280 || ch.Height != 720 || ch.FPS != 60 || ch.OutputURL == "" {
		t.Fatalf("created: %+v", ch)
	}
	got, err := client.Channels.Get(ctx, ch.ID)
	if err != nil || got.ID != ch.ID || got.Name != ch.Name {
		t.Fatalf("get: %+v, %v", got, err)
	}
	updated, err := client.Channels.Update(ctx, ch.ID, onair.ChannelUpdate{Name: onair.Ptr("go-sdk renamed"), FPS: onair.Ptr(59.94)})
	if err != nil || updated.Name != "go-sdk renamed" || updated.FPS != 59.94 {
		t.Fatalf("update: %+v, %v", updated, err)
	}
	rotated, err := client.Channels.RotateOutputToken(ctx, ch.ID)
	if err != nil || rotated.OutputURL == ch.OutputURL || rotated.PreviewURL == ch.PreviewURL {
		t.Fatalf("rotate: %+v, %v", rotated, err)
	}
	if err := client.Channels.Delete(ctx, ch.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.Channels.Get(ctx, ch.ID)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationPagination(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	created := map[string]bool{}
	for i := 0; i < 3; i++ {
		ch, err := client.Channels.Create(ctx, onair.ChannelIn{Name: fmt.Sprintf("go-sdk page %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		created[ch.ID] = true
	}
	first, err := client.Channels.List(ctx, onair.ListOptions{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Data) != 2 || first.NextCursor == nil || *first.NextCursor != first.Data[1].ID {
		t.Fatalf("first page of 2: %d items, cursor %v", len(first.Data), first.NextCursor)
	}
	second, err := client.Channels.List(ctx, onair.ListOptions{Limit: 2, Cursor: *first.NextCursor})
	if err != nil || len(second.Data) == 0 || second.Data[0].ID <= first.Data[1].ID {
		t.Fatalf("second page must follow the first: %+v, %v", second, err)
	}

	it := client.Channels.ListAll(ctx, onair.ListOptions{Limit: 2})
	seen := map[string]bool{}
	previous := ""
	for it.Next() {
		id := it.Value().ID
		if seen[id] || id <= previous {
			t.Fatalf("iterator repeated or reordered %s", id)
		}
		seen[id], previous = true, id
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	for id := range created {
		if !seen[id] {
			t.Fatalf("iterator missed %s (saw %d channels)", id, len(seen))
		}
	}
	if len(seen) < 3 {
		t.Fatalf("iterator saw %d channels", len(seen))
	}
}

func TestIntegrationPlayout(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)
	ch, sc := f.channel.ID, f.scene.ID

	state, err := client.Playout.Preview(ctx, ch, onair.SceneRef{SceneID: &sc})
	if err != nil {
		t.Fatal(err)
	}
	if len(state.Preview) != 1 || state.Preview[0].SceneID != sc || state.Preview[0].Layer != 10 {
		t.Fatalf("preview: %+v", state.Preview)
	}
	state, err = client.Playout.Take(ctx, ch, onair.TakeIn{})
	if err != nil {
		t.Fatal(err)
	}
	if len(state.Program) != 1 || state.Program[0].SceneID != sc || len(state.Preview) != 0 {
		t.Fatalf("after take: program %+v, preview %+v", state.Program, state.Preview)
	}
	read, err := client.Channels.GetState(ctx, ch)
	if err != nil || len(read.Program) != 1 || read.Program[0].SceneID != sc || read.Program[0].Since == "" {
		t.Fatalf("state shows program: %+v, %v", read, err)
	}
	_, err = client.Playout.Take(ctx, ch, onair.TakeIn{})
	asAPIError(t, err, 409, "preview_empty")

	fired, err := client.Playout.FireTrigger(ctx, ch, "flashScoreA")
	if err != nil || fired.Frame <= 0 {
		t.Fatalf("trigger: %+v, %v", fired, err)
	}
	_, err = client.Playout.FireTrigger(ctx, ch, "flashScoreZ")
	asAPIError(t, err, 404, "unknown_trigger")
	onLayer, err := client.Playout.FireTriggerWith(ctx, ch, "flashScoreA", onair.TriggerBody{Layer: onair.Ptr(read.Program[0].Layer), Payload: map[string]int{"n": 1}})
	if err != nil || onLayer.Frame <= 0 {
		t.Fatalf("trigger on its layer: %+v, %v", onLayer, err)
	}
	_, err = client.Playout.FireTriggerWith(ctx, ch, "flashScoreA", onair.TriggerBody{Layer: onair.Ptr(read.Program[0].Layer + 1)})
	asAPIError(t, err, 404, "unknown_trigger")

	clock, err := client.Playout.Clock(ctx, ch, "gameClock", onair.ClockActionIn{Action: onair.ClockActionSet, Ms: onair.Ptr(int64(300000))})
	if err != nil || clock.Clock.Ms != 300000 || clock.Clock.Running {
		t.Fatalf("clock set: %+v, %v", clock, err)
	}
	clock, err = client.Playout.Clock(ctx, ch, "gameClock", onair.ClockActionIn{Action: onair.ClockActionStart})
	if err != nil || !clock.Clock.Running {
		t.Fatalf("clock start: %+v, %v", clock, err)
	}

	state, err = client.Playout.Clear(ctx, ch, onair.ClearIn{Layer: onair.Ptr(int64(10))})
	if err != nil || len(state.Program) != 0 {
		t.Fatalf("clear: %+v, %v", state, err)
	}
	state, err = client.Playout.Program(ctx, ch, onair.SceneRef{SceneID: &sc})
	if err != nil || len(state.Program) != 1 || state.Program[0].SceneID != sc {
		t.Fatalf("program (cut): %+v, %v", state, err)
	}
	if _, err := client.Playout.Clear(ctx, ch, onair.ClearIn{}); err != nil {
		t.Fatal(err)
	}
}

func TestIntegrationScenes(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)
	ch := f.channel.ID

	dry, err := client.Scenes.CreateDryRun(ctx, ch, onair.SceneIn{Name: "Lower third", Template: onair.Ptr("lower-third")})
	if err != nil || dry.ID != onair.DryRunSceneID || dry.Layer != 20 {
		t.Fatalf("dry run: %+v, %v", dry, err)
	}
	scene, err := client.Scenes.Create(ctx, ch, onair.SceneIn{Name: "Lower third", Template: onair.Ptr("lower-third")})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for it := client.Scenes.ListAll(ctx, ch, onair.ListOptions{Limit: 1}); it.Next(); {
		ids[it.Value().ID] = true
	}
	if !ids[scene.ID] || !ids[f.scene.ID] || ids[onair.DryRunSceneID] {
		t.Fatalf("scenes listed: %v", ids)
	}
	got, err := client.Scenes.Get(ctx, ch, scene.ID)
	if err != nil || got.Name != "Lower third" {
		t.Fatalf("get: %+v, %v", got, err)
	}
	update := onair.SceneUpdate{Name: onair.Ptr("Strap"), Definition: got.Definition}
	if checked, err := client.Scenes.ReplaceDryRun(ctx, ch, scene.ID, update); err != nil || checked.Name != "Strap" {
		t.Fatalf("replace dry run: %+v, %v", checked, err)
	}
	replaced, err := client.Scenes.Replace(ctx, ch, scene.ID, update)
	if err != nil || replaced.Name != "Strap" || replaced.ID != scene.ID {
		t.Fatalf("replace: %+v, %v", replaced, err)
	}
	if err := client.Scenes.Delete(ctx, ch, scene.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.Scenes.Get(ctx, ch, scene.ID)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationProblemErrors(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)

	_, err := client.Channels.Get(ctx, "ch_00000000000000000000000000000000")
	notFound := asAPIError(t, err, 404, "not_found")
	if notFound.RequestID == "" || notFound.Detail == "" {
		t.Fatalf("a problem carries a request id and a detail: %+v", notFound)
	}

	_, err = client.Channels.Create(ctx, onair.ChannelIn{Name: "", Width: onair.Ptr(int64(1))})
	invalid := asAPIError(t, err, 400, "invalid_request")
	paths := map[string]bool{}
	for _, fe := range invalid.Errors {
		paths[fe.Path] = fe.Message != ""
	}
	if !paths["name"] || !paths["width"] {
		t.Fatalf("errors should name name and width: %+v", invalid.Errors)
	}

	_, err = client.Channels.PatchInputs(ctx, f.channel.ID, map[string]any{"scorA": 1})
	unknown := asAPIError(t, err, 400, "unknown_input")
	if unknown.Extra["closest"] != "scoreA" {
		t.Fatalf("unknown_input should suggest scoreA: %+v", unknown.Extra)
	}

	// A wrong key is a 401, not a transport error.
	_, err = onair.NewClient("onair_sk_wrongwrongwrongwrongwrongwrong", onair.WithBaseURL(os.Getenv("ONAIR_TEST_URL"))).Me(ctx)
	asAPIError(t, err, 401, "unauthorized")
}

// countingTransport counts answers by status, to see the client wait out 429s.
type countingTransport struct {
	base      http.RoundTripper
	limited   int64
	succeeded int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if err == nil {
		switch {
		case resp.StatusCode == http.StatusTooManyRequests:
			atomic.AddInt64(&c.limited, 1)
		case resp.StatusCode < 300:
			atomic.AddInt64(&c.succeeded, 1)
		}
	}
	return resp, err
}

func TestIntegrationRateLimitIsWaitedOut(t *testing.T) {
	counter := &countingTransport{base: http.DefaultTransport}
	client := integration(t, onair.WithHTTPClient(&http.Client{Transport: counter}))
	ctx := testContext(t)
	ch, err := client.Channels.Create(ctx, onair.ChannelIn{Name: "go-sdk rate limit"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Scenes.Create(ctx, ch.ID, onair.SceneIn{Name: "Score", Template: onair.Ptr("scoreboard")}); err != nil {
		t.Fatal(err)
	}

	// The updates bucket admits 30 a second per channel: 40 at once must hit it.
	const patches = 40
	var wg sync.WaitGroup
	errs := make(chan error, patches)
	start := time.Now()
	for i := 0; i < patches; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := client.Channels.PatchInputs(ctx, ch.ID, map[string]any{"scoreA": i}); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a patch failed instead of waiting: %v", err)
	}
	limited := atomic.LoadInt64(&counter.limited)
	if limited == 0 {
		t.Fatalf("no patch was rate limited: %d patches in %v never reached the bucket", patches, time.Since(start))
	}
	if time.Since(start) < time.Second {
		t.Fatalf("%d patches were limited but all finished in %v: nothing waited", limited, time.Since(start))
	}
	t.Logf("%d answers were 429; all %d patches succeeded in %v", limited, patches, time.Since(start))
}

func TestIntegrationIdempotentCreate(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	key := fmt.Sprintf("go-sdk-idem-%d", time.Now().UnixNano())
	name := "go-sdk idempotent " + key

	var h1, h2 http.Header
	first, err := client.Channels.Create(ctx, onair.ChannelIn{Name: name}, onair.WithIdempotencyKey(key), onair.WithResponseHeader(&h1))
	if err != nil {
		t.Fatal(err)
	}
	second, err := client.Channels.Create(ctx, onair.ChannelIn{Name: name}, onair.WithIdempotencyKey(key), onair.WithResponseHeader(&h2))
	if err != nil {
		t.Fatal(err)
	}
	if second.ID != first.ID {
		t.Errorf("the same Idempotency-Key and body made two channels: %s and %s", first.ID, second.ID)
	}
	if h1.Get("Idempotent-Replayed") == "true" || h2.Get("Idempotent-Replayed") != "true" {
		t.Errorf("Idempotent-Replayed: first %q, second %q; want absent then true",
			h1.Get("Idempotent-Replayed"), h2.Get("Idempotent-Replayed"))
	}
	count := 0
	for it := client.Channels.ListAll(ctx, onair.ListOptions{Limit: 100}); it.Next(); {
		if it.Value().Name == name {
			count++
		}
	}
	if count != 1 {
		t.Errorf("want one channel named %q, found %d", name, count)
	}

	_, err = client.Channels.Create(ctx, onair.ChannelIn{Name: name + " other"}, onair.WithIdempotencyKey(key))
	var apiErr *onair.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 409 || apiErr.Code != "conflict" {
		t.Errorf("the same key with another body must be 409 conflict, got %v", err)
	}
}

func TestIntegrationKeys(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	created, err := client.Keys.Create(ctx, onair.KeyIn{Name: "go-sdk reader", Permissions: []onair.Permission{onair.PermissionChannelsRead}})
	if err != nil {
		t.Fatal(err)
	}
	if len(created.Secret) < 20 || created.Prefix == "" || created.ChannelIDs != nil || created.RevokedAt != nil {
		t.Fatalf("created key: %+v", created)
	}
	reader := onair.NewClient(created.Secret, onair.WithBaseURL(os.Getenv("ONAIR_TEST_URL")))
	me, err := reader.Me(ctx)
	if err != nil || me.Key == nil || me.Key.ID != created.ID || len(me.Permissions) != 1 || me.Permissions[0] != "channels:read" {
		t.Fatalf("me with the new key: %+v, %v", me, err)
	}
	_, err = reader.Channels.Create(ctx, onair.ChannelIn{Name: "not allowed"})
	forbidden := asAPIError(t, err, 403, "forbidden")
	if forbidden.Extra["permission"] != "channels:write" {
		t.Fatalf("forbidden should name the permission: %+v", forbidden.Extra)
	}

	got, err := client.Keys.Get(ctx, created.ID)
	if err != nil || got.Name != "go-sdk reader" {
		t.Fatalf("get: %+v, %v", got, err)
	}
	found := false
	for it := client.Keys.ListAll(ctx, onair.ListOptions{Limit: 1}); it.Next(); {
		found = found || it.Value().ID == created.ID
	}
	if !found {
		t.Fatal("the key is not listed")
	}
	if err := client.Keys.Revoke(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	_, err = reader.Me(ctx)
	asAPIError(t, err, 401, "unauthorized")
}

func TestIntegrationAssets(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	// The smallest GIF: typed from its bytes, whatever its name says.
	gif := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	asset, err := client.Assets.Upload(ctx, gif, "dot.gif")
	if err != nil {
		t.Fatal(err)
	}
	if !asset.Created || asset.Type != "image/gif" || asset.Width == nil || *asset.Width != 1 || asset.Path != "/assets/"+asset.Sha256+".gif" {
		t.Fatalf("uploaded: %+v", asset)
	}
	again, err := client.Assets.Upload(ctx, gif, "again.gif")
	if err != nil || again.ID != asset.ID || again.Created {
		t.Fatalf("the same bytes again: %+v, %v", again, err)
	}
	found := false
	for it := client.Assets.ListAll(ctx, onair.ListOptions{Limit: 1}); it.Next(); {
		found = found || it.Value().ID == asset.ID
	}
	if !found {
		t.Fatal("the asset is not listed")
	}
	if got, err := client.Assets.Get(ctx, asset.ID); err != nil || got.Sha256 != asset.Sha256 {
		t.Fatalf("get: %+v, %v", got, err)
	}
	if err := client.Assets.Delete(ctx, asset.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.Assets.Get(ctx, asset.ID)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationGraphics(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	files := map[string]string{
		"sdk.ograf.json": `{"$schema":"https://ograf.ebu.io/v1/specification/json-schemas/graphics/schema.json",` +
			`"id":"com.example.sdk","version":"1","name":"SDK graphic","main":"graphic.mjs","supportsRealTime":true,` +
			`"supportsNonRealTime":false,"schema":{"type":"object","properties":{"name":{"type":"string"}}}}`,
		"graphic.mjs": "export default class extends HTMLElement {}",
	}
	for name, content := range files {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	uploaded, err := client.Graphics.Upload(ctx, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(uploaded.Data) != 1 || uploaded.Data[0].GraphicID != "com.example.sdk" || !uploaded.Data[0].Created {
		t.Fatalf("uploaded: %+v", uploaded)
	}
	// One create only: the suite shares the workspace's 60 creates a minute (the graphic stays).
	id := uploaded.Data[0].ID
	found := false
	for it := client.Graphics.ListAll(ctx, onair.ListOptions{Limit: 1}); it.Next(); {
		found = found || it.Value().ID == id
	}
	if !found {
		t.Fatal("the graphic is not listed")
	}
	if got, err := client.Graphics.Get(ctx, id); err != nil || got.Name != "SDK graphic" || len(got.Inputs) != 1 {
		t.Fatalf("get: %+v, %v", got, err)
	}
	_, err = client.Graphics.Get(ctx, "gr_00000000000000000000000000000000")
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationEventsAndMe(t *testing.T) {
	f := scoreboard(t)
	client, ctx := integration(t), testContext(t)
	me, err := client.Me(ctx)
	if err != nil || me.Workspace.ID == "" || me.Key == nil || len(me.Permissions) == 0 {
		t.Fatalf("me: %+v, %v", me, err)
	}
	before := time.Now().Add(-time.Second)
	if _, err := client.Channels.PatchInputs(ctx, f.channel.ID, map[string]any{"scoreB": 4}); err != nil {
		t.Fatal(err)
	}
	found := false
	it := client.Events.ListAll(ctx, onair.EventListOptions{ChannelID: f.channel.ID, Type: onair.EventTypeChannelBindUpdated, Since: before, Limit: 1})
	for it.Next() {
		e := it.Value()
		if e.Type != onair.EventTypeChannelBindUpdated || e.ChannelID != f.channel.ID {
			t.Fatalf("filter not applied: %+v", e)
		}
		if inputs, ok := e.Data["inputs"].(map[string]any); ok && inputs["scoreB"] == 4.0 {
			found = true
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatal("the patch's channel.bind_updated event is not in the log")
	}
}
