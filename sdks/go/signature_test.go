package onair_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	onair "github.com/onair-live/onair/sdks/go"
)

// vectors is sdks/webhook-signature-vectors.json, shared by the server and every SDK.
type vectors struct {
	Verify struct {
		Cases []struct {
			Name      string            `json:"name"`
			Secret    string            `json:"secret"`
			Body      string            `json:"body"`
			Headers   map[string]string `json:"headers"`
			Now       int64             `json:"now"`
			Tolerance *int64            `json:"tolerance"`
			Expect    struct {
				OK    bool   `json:"ok"`
				ID    string `json:"id"`
				Type  string `json:"type"`
				Error string `json:"error"`
			} `json:"expect"`
		} `json:"cases"`
	} `json:"verify"`
	Sign struct {
		Cases []struct {
			Name      string            `json:"name"`
			Secret    string            `json:"secret"`
			Body      string            `json:"body"`
			Timestamp int64             `json:"timestamp"`
			Expect    map[string]string `json:"expect"`
		} `json:"cases"`
	} `json:"sign"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "webhook-signature-vectors.json"))
	if err != nil {
		t.Fatalf("reading the shared test vectors: %v", err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("parsing the shared test vectors: %v", err)
	}
	if len(v.Verify.Cases) == 0 || len(v.Sign.Cases) == 0 {
		t.Fatal("the shared test vectors have no cases")
	}
	return v
}

func TestVerifyVectors(t *testing.T) {
	for _, c := range loadVectors(t).Verify.Cases {
		c := c
		t.Run(c.Name, func(t *testing.T) {
			// The header map is built as a receiver gets it, keys exactly as in the vector (case included).
			header := http.Header{}
			for name, value := range c.Headers {
				header[name] = []string{value}
			}
			opts := []onair.VerifyOption{onair.WithNow(time.Unix(c.Now, 0))}
			if c.Tolerance != nil {
				opts = append(opts, onair.WithTolerance(time.Duration(*c.Tolerance)*time.Second))
			}
			event, err := onair.VerifyWebhook([]byte(c.Body), header, c.Secret, opts...)
			if c.Expect.OK {
				if err != nil {
					t.Fatalf("expected the delivery to verify, got %v", err)
				}
				if event.ID != c.Expect.ID || string(event.Type) != c.Expect.Type {
					t.Fatalf("got event %s %s, want %s %s", event.ID, event.Type, c.Expect.ID, c.Expect.Type)
				}
				return
			}
			var verr *onair.VerificationError
			if !errors.As(err, &verr) {
				t.Fatalf("expected a *VerificationError %s, got event %v, error %v", c.Expect.Error, event, err)
			}
			if verr.Code != c.Expect.Error {
				t.Fatalf("got code %s (%v), want %s", verr.Code, verr, c.Expect.Error)
			}
			if event != nil {
				t.Fatal("a refused delivery must not return an event")
			}
		})
	}
}

func TestSignVectors(t *testing.T) {
	for _, c := range loadVectors(t).Sign.Cases {
		c := c
		t.Run(c.Name, func(t *testing.T) {
			got := onair.SignWebhook([]byte(c.Body), c.Secret, time.Unix(c.Timestamp, 0))
			if len(got) != len(c.Expect) {
				t.Fatalf("got headers %v, want %v", got, c.Expect)
			}
			for name, want := range c.Expect {
				if got.Get(name) != want {
					t.Fatalf("%s: got %q, want %q", name, got.Get(name), want)
				}
			}
		})
	}
}

func TestSignThenVerify(t *testing.T) {
	body := []byte(`{"id":"evt_1","type":"channel.cleared","orgId":"org_1","channelId":"ch_1","createdAt":"2026-01-01T00:00:00.000Z","data":{"source":"api"}}`)
	now := time.Unix(1764150000, 0)
	header := onair.SignWebhook(body, "whsec_x", now)
	header.Set(onair.HeaderDelivery, "evt_1")
	event, err := onair.VerifyWebhook(body, header, "whsec_x", onair.WithNow(now.Add(299*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	if event.Data["source"] != "api" || event.ChannelID == nil || *event.ChannelID != "ch_1" {
		t.Fatalf("event not decoded: %+v", event)
	}
	// A smaller tolerance refuses the same delivery.
	_, err = onair.VerifyWebhook(body, header, "whsec_x", onair.WithNow(now.Add(61*time.Second)), onair.WithTolerance(time.Minute))
	var verr *onair.VerificationError
	if !errors.As(err, &verr) || verr.Code != onair.VerifyTimestampOutOfTolerance {
		t.Fatalf("want timestamp_out_of_tolerance, got %v", err)
	}
	// A zero timestamp signs with the current time.
	if ts := onair.SignWebhook(body, "whsec_x", time.Time{}).Get(onair.HeaderTimestamp); ts == "" || ts == "-62135596800" {
		t.Fatalf("zero time should sign now, got %q", ts)
	}
}
