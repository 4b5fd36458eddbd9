// Package onair is the official Go client of onair, the live broadcast graphics engine: channels, scenes,
// inputs, playout, rundowns, the schedule, undo, events, API keys, outgoing webhooks (with signature
// verification) and incoming hooks (with signing).
//
// Create a client once and share it; it is safe for concurrent use:
//
//	client := onair.NewClient("onair_sk_…", onair.WithBaseURL("https://onair.example.com"))
//	result, err := client.Channels.PatchInputs(ctx, channelID, map[string]any{"scoreA": 3})
//
// Every call takes a context.Context first. A refusal by the API is an *APIError; a network failure or timeout a
// *TransportError. Rate-limited calls are waited out and retried (see WithMaxRetries).
package onair

import (
	"net/http"
	"os"
	"time"
)

// Version is this SDK's version, sent in the User-Agent header so server logs tell SDK versions apart.
const Version = "0.1.0"

// Defaults of the client options; they match the other onair SDKs.
const (
	DefaultBaseURL      = "http://localhost:8080"
	DefaultTimeout      = 10 * time.Second
	DefaultMaxRetries   = 3
	DefaultMaxRetryWait = 30 * time.Second
)

// Client calls the onair API. Its services group the calls by resource, as the API reference does.
type Client struct {
	// Channels creates, reads, changes and deletes channels, and sets their inputs.
	Channels *ChannelsService
	// Scenes manages the scenes of a channel.
	Scenes *ScenesService
	// Playout cues, takes, cuts, clears and updates what is on air, fires triggers, drives clocks, and undoes.
	Playout *PlayoutService
	// Rundowns manages a channel's rundowns and their items, and plays them.
	Rundowns *RundownsService
	// Schedule sets operations at a time.
	Schedule *ScheduleService
	// History reads the on-air actions undo and redo walk, with who did each.
	History *HistoryService
	// Templates lists the built-in scene templates.
	Templates *TemplatesService
	// Events reads the event log.
	Events *EventsService
	// AsRun reads a channel's as-run log: what was on program, when, for how long, and who took it.
	AsRun *AsRunService
	// Keys manages API keys.
	Keys *KeysService
	// Assets manages the workspace's asset library (images and fonts).
	Assets *AssetsService
	// Graphics manages the workspace's imported OGraf graphics.
	Graphics *GraphicsService
	// Webhooks manages outgoing webhook subscriptions.
	Webhooks *WebhooksService
	// IncomingHooks manages a channel's incoming webhooks.
	IncomingHooks *IncomingHooksService
	// Sources manages a channel's data sources: feeds and sheets the server polls.
	Sources *SourcesService
	// Hooks posts to incoming webhook URLs, as a scorekeeping system would.
	Hooks *HooksService

	cfg config
}

type config struct {
	apiKey       string
	baseURL      string
	httpClient   *http.Client
	timeout      time.Duration
	maxRetries   int
	maxRetryWait time.Duration
}

// Option configures a Client in NewClient.
type Option func(*config)

// WithBaseURL sets the server's address (default http://localhost:8080). A trailing slash and a trailing /v1
// are accepted, so the address can be pasted from anywhere.
func WithBaseURL(baseURL string) Option {
	return func(c *config) { c.baseURL = baseURL }
}

// WithHTTPClient sets the *http.Client the calls go through, for proxies, custom TLS or instrumentation.
// The client's own Timeout still applies, on top of WithTimeout.
func WithHTTPClient(httpClient *http.Client) Option {
	return func(c *config) {
		if httpClient != nil {
			c.httpClient = httpClient
		}
	}
}

// WithTimeout bounds each HTTP attempt (default 10 s), so a hung connection cannot stall a broadcast control
// loop. Zero or less means no limit beyond the call's context.
func WithTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// WithMaxRetries sets how many times a rate-limited call (429, or 503 with Retry-After) is retried after waiting
// (default 3). Zero turns retries off.
func WithMaxRetries(n int) Option {
	return func(c *config) {
		if n < 0 {
			n = 0
		}
		c.maxRetries = n
	}
}

// WithMaxRetryWait sets the longest Retry-After the client will wait out (default 30 s). A longer one is returned
// at once as the *APIError, without sleeping, so a caller on air never blocks for minutes.
func WithMaxRetryWait(d time.Duration) Option {
	return func(c *config) { c.maxRetryWait = d }
}

// NewClient makes a client authenticated with an API key (onair_sk_…). An empty key falls back to the
// ONAIR_API_KEY environment variable, so keys stay out of code.
func NewClient(apiKey string, opts ...Option) *Client {
	if apiKey == "" {
		apiKey = os.Getenv("ONAIR_API_KEY")
	}
	cfg := config{
		apiKey:       apiKey,
		baseURL:      DefaultBaseURL,
		httpClient:   http.DefaultClient,
		timeout:      DefaultTimeout,
		maxRetries:   DefaultMaxRetries,
		maxRetryWait: DefaultMaxRetryWait,
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	c := &Client{cfg: cfg}
	c.Channels = &ChannelsService{c}
	c.Scenes = &ScenesService{c}
	c.Playout = &PlayoutService{c}
	c.Rundowns = &RundownsService{c}
	c.Schedule = &ScheduleService{c}
	c.History = &HistoryService{c}
	c.Templates = &TemplatesService{c}
	c.Events = &EventsService{c}
	c.AsRun = &AsRunService{c}
	c.Keys = &KeysService{c}
	c.Assets = &AssetsService{c}
	c.Graphics = &GraphicsService{c}
	c.Webhooks = &WebhooksService{c}
	c.IncomingHooks = &IncomingHooksService{c}
	c.Sources = &SourcesService{c}
	c.Hooks = &HooksService{c}
	return c
}
