package onair_test

// Data sources against a real server polling a local feed (httptest): the dry run, create, refresh, pause and
// resume, cursor moves, the fetch log, delete.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	onair "github.com/onair-live/onair/sdks/go"
)

// startFeed serves a CSV at /results.csv and, at any other path, JSON whose "home" is home's value.
func startFeed(t *testing.T, home *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/results.csv" {
			w.Header().Set("Content-Type", "text/csv")
			_, _ = w.Write([]byte("Game,Home Score\r\nSemi,3\r\nFinal,5\r\n"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"home":` + strconv.FormatInt(home.Load(), 10) + `,"venue":"Arena"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// scoreAEventually waits until the channel's scoreA is want.
func scoreAEventually(t *testing.T, ctx context.Context, client *onair.Client, channelID string, want float64) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		state, err := client.Channels.GetState(ctx, channelID)
		if err == nil && state.Inputs["scoreA"] == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("scoreA never became %v (last: %+v, %v)", want, state, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func newScoreboardChannel(t *testing.T, ctx context.Context, client *onair.Client, name string) *onair.Channel {
	t.Helper()
	channel, err := client.Channels.Create(ctx, onair.ChannelIn{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Scenes.Create(ctx, channel.ID, onair.SceneIn{Name: "Score", Template: onair.Ptr("scoreboard")}); err != nil {
		t.Fatal(err)
	}
	return channel
}

func TestIntegrationJSONSource(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	var home atomic.Int64
	home.Store(1)
	feed := startFeed(t, &home)
	channel := newScoreboardChannel(t, ctx, client, "go-sdk sources")
	in := onair.SourceIn{Type: onair.SourceTypeJsonUrl, URL: feed.URL + "/game.json", Mapping: map[string]string{"home": "scoreA"}}

	dry, err := client.Sources.Test(ctx, channel.ID, in)
	if err != nil || dry.Error != nil || dry.Values["scoreA"] != 1.0 || len(dry.Unmapped) != 1 || dry.Unmapped[0] != "venue" {
		t.Fatalf("dry run: %+v, %v", dry, err)
	}
	in.IntervalMs, in.Name = onair.Ptr(int64(3_600_000)), onair.Ptr("Feed")
	source, err := client.Sources.Create(ctx, channel.ID, in)
	if err != nil || source.Name != "Feed" || source.Status.State != onair.SourceStatusStatePending {
		t.Fatalf("create: %+v, %v", source, err)
	}
	scoreAEventually(t, ctx, client, channel.ID, 1)
	home.Store(4)
	refreshed, err := client.Sources.Refresh(ctx, channel.ID, source.ID)
	if err != nil || refreshed.Status.State != onair.SourceStatusStateOk || refreshed.Status.LastError != nil {
		t.Fatalf("refresh: %+v, %v", refreshed, err)
	}
	scoreAEventually(t, ctx, client, channel.ID, 4)
	log, err := client.Sources.Fetches(ctx, channel.ID, source.ID)
	if err != nil || len(log.Data) != 2 || !log.Data[0].Changed {
		t.Fatalf("fetches: %+v, %v", log, err)
	}

	if paused, err := client.Sources.Pause(ctx, channel.ID, source.ID); err != nil || paused.Status.State != onair.SourceStatusStatePaused {
		t.Fatalf("pause: %+v, %v", paused, err)
	}
	_, err = client.Sources.Refresh(ctx, channel.ID, source.ID)
	asAPIError(t, err, 409, "conflict")
	if resumed, err := client.Sources.Resume(ctx, channel.ID, source.ID); err != nil || resumed.Paused {
		t.Fatalf("resume: %+v, %v", resumed, err)
	}
	updated, err := client.Sources.Update(ctx, channel.ID, source.ID, onair.SourcePatch{Name: onair.Ptr("Renamed")})
	if err != nil || updated.Name != "Renamed" {
		t.Fatalf("update: %+v, %v", updated, err)
	}
	if got, err := client.Sources.Get(ctx, channel.ID, source.ID); err != nil || got.Name != "Renamed" {
		t.Fatalf("get: %+v, %v", got, err)
	}
	if list, err := client.Sources.List(ctx, channel.ID); err != nil || len(list.Data) != 1 || list.Data[0].ID != source.ID {
		t.Fatalf("list: %+v, %v", list, err)
	}
	if err := client.Sources.Delete(ctx, channel.ID, source.ID); err != nil {
		t.Fatal(err)
	}
	_, err = client.Sources.Get(ctx, channel.ID, source.ID)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationCSVSourceCursor(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	var home atomic.Int64
	feed := startFeed(t, &home)
	channel := newScoreboardChannel(t, ctx, client, "go-sdk csv")
	cursor := onair.SourceRowByCursor
	source, err := client.Sources.Create(ctx, channel.ID, onair.SourceIn{
		Type:       onair.SourceTypeCsvUrl,
		URL:        feed.URL + "/results.csv",
		IntervalMs: onair.Ptr(int64(3_600_000)),
		Row:        &onair.SourceRow{By: &cursor},
		Mapping:    map[string]string{"Home_Score": "scoreA"},
	})
	if err != nil {
		t.Fatal(err)
	}
	scoreAEventually(t, ctx, client, channel.ID, 3)
	next := onair.SourceRowMoveMoveNext
	moved, err := client.Sources.Row(ctx, channel.ID, source.ID, onair.SourceRowMove{Move: &next})
	if err != nil || moved.Status.Cursor != 2 {
		t.Fatalf("next: %+v, %v", moved, err)
	}
	scoreAEventually(t, ctx, client, channel.ID, 5)
	moved, err = client.Sources.Row(ctx, channel.ID, source.ID, onair.SourceRowMove{Number: onair.Ptr(int64(1))})
	if err != nil || moved.Status.Cursor != 1 {
		t.Fatalf("number: %+v, %v", moved, err)
	}
	_, err = client.Sources.Create(ctx, channel.ID, onair.SourceIn{Type: onair.SourceTypeJsonUrl, URL: feed.URL, IntervalMs: onair.Ptr(int64(10))})
	if apiErr := asAPIError(t, err, 400, "invalid_request"); len(apiErr.Errors) == 0 || apiErr.Errors[0].Path != "intervalMs" {
		t.Fatalf("the refusal must name intervalMs: %+v", apiErr)
	}
}
