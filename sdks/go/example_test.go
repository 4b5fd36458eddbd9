package onair_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"

	onair "github.com/onair-live/onair/sdks/go"
)

func Example() {
	ctx := context.Background()
	client := onair.NewClient(os.Getenv("ONAIR_API_KEY"), onair.WithBaseURL("http://localhost:8080"))

	channel, err := client.Channels.Create(ctx, onair.ChannelIn{Name: "Main", FPS: onair.Ptr(50.0)})
	if err != nil {
		log.Fatal(err)
	}
	scene, err := client.Scenes.Create(ctx, channel.ID, onair.SceneIn{Name: "Score", Template: onair.Ptr("scoreboard")})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Channels.PatchInputs(ctx, channel.ID, map[string]any{"home": "LEEDS", "scoreA": 3}); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Playout.Preview(ctx, channel.ID, onair.SceneRef{SceneID: &scene.ID}); err != nil {
		log.Fatal(err)
	}
	state, err := client.Playout.Take(ctx, channel.ID, onair.TakeIn{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("on air:", state.Program[0].SceneID, "— open", channel.OutputURL, "in OBS")
}

func ExampleAPIError() {
	client := onair.NewClient("")
	_, err := client.Channels.Get(context.Background(), "ch_missing")
	var apiErr *onair.APIError
	var transportErr *onair.TransportError
	switch {
	case errors.As(err, &apiErr) && apiErr.Code == "not_found":
		fmt.Println("no such channel (request", apiErr.RequestID+")")
	case errors.As(err, &apiErr):
		fmt.Println("refused:", apiErr.Status, apiErr.Code, apiErr.Detail, apiErr.Errors)
	case errors.As(err, &transportErr):
		fmt.Println("no answer from the server:", transportErr.Err)
	}
}

func ExampleChannelsService_ListAll() {
	client := onair.NewClient("")
	it := client.Channels.ListAll(context.Background(), onair.ListOptions{Limit: 100})
	for it.Next() {
		fmt.Println(it.Value().ID, it.Value().Name)
	}
	if err := it.Err(); err != nil {
		log.Fatal(err)
	}
}

func ExampleVerifyWebhook() {
	secret := os.Getenv("ONAIR_WEBHOOK_SECRET") // whsec_…, from Webhooks.Create
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20)) // the raw bytes: never re-encode the JSON
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		event, err := onair.VerifyWebhook(body, r.Header, secret)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		// Deduplicate on event.ID: a retry may bring an event again.
		log.Printf("%s (%s): %v", event.Type, event.ID, event.Data)
		w.WriteHeader(http.StatusNoContent)
	})
	http.Handle("/onair", handler)
}

func ExampleSignWebhook() {
	body := []byte(`{"home_score":3}`)
	header := onair.SignWebhook(body, "whsec_example", time.Unix(1764150000, 0))
	fmt.Println(header.Get("X-Service-Timestamp"))
	fmt.Println(header.Get("X-Service-Signature"))
	// Output:
	// 1764150000
	// v1=b692a6cabf42edab604913614cbe52f8fbf7c46ebec01bc9c39251a948dbd60f
}

func ExampleHooksService_Post() {
	client := onair.NewClient("") // posting to a hook needs no API key: its URL is the credential
	hookURL := os.Getenv("HOOK_URL")
	answer, err := client.Hooks.Post(context.Background(), hookURL, map[string]any{"home_score": 3}, os.Getenv("HOOK_SECRET"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("applied", answer.Applied, "ignored", answer.Ignored)
}
