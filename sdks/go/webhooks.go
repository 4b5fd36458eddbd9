package onair

import (
	"context"
	"net/http"
)

// WebhooksService manages outgoing webhook subscriptions (/v1/webhooks): https endpoints onair POSTs every
// channel event to, signed (see VerifyWebhook).
type WebhooksService struct{ c *Client }

// Create subscribes an https endpoint. The signing Secret is in this answer only: store it now. It sends an
// Idempotency-Key, so its retries never subscribe twice.
func (s *WebhooksService) Create(ctx context.Context, in WebhookIn, opts ...RequestOption) (*WebhookCreated, error) {
	return send[WebhookCreated](ctx, s.c, call{method: http.MethodPost, path: "/webhooks", body: in, creates: true}, opts)
}

// List gives one page of subscriptions.
func (s *WebhooksService) List(ctx context.Context, lo ListOptions, opts ...RequestOption) (*WebhookList, error) {
	return send[WebhookList](ctx, s.c, call{method: http.MethodGet, path: "/webhooks", query: lo.query()}, opts)
}

// ListAll walks every subscription from lo.Cursor on.
func (s *WebhooksService) ListAll(ctx context.Context, lo ListOptions, opts ...RequestOption) *Iterator[Webhook] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]Webhook, *string, error) {
		page, err := s.List(ctx, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Get reads one subscription, with its status and last error.
func (s *WebhooksService) Get(ctx context.Context, webhookID string, opts ...RequestOption) (*Webhook, error) {
	path, err := route("/webhooks/{webhookID}", webhookID)
	if err != nil {
		return nil, err
	}
	return send[Webhook](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Delete removes a subscription; nothing more is delivered to it.
func (s *WebhooksService) Delete(ctx context.Context, webhookID string, opts ...RequestOption) error {
	path, err := route("/webhooks/{webhookID}", webhookID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}

// RollSecret gives the subscription a new signing Secret, in this answer only: store it now. The old secret keeps
// signing deliveries beside the new one for in.OverlapSeconds (nil: a day; 0: it stops at once), so receivers can
// move to the new one without missing a delivery. It sends an Idempotency-Key, so a retried call rolls once.
func (s *WebhooksService) RollSecret(ctx context.Context, webhookID string, in WebhookSecretRollIn, opts ...RequestOption) (*WebhookSecretRolled, error) {
	path, err := route("/webhooks/{webhookID}/secret", webhookID)
	if err != nil {
		return nil, err
	}
	return send[WebhookSecretRolled](ctx, s.c, call{method: http.MethodPost, path: path, body: in, creates: true}, opts)
}

// Deliveries gives one page of the subscription's delivery log (every attempt and drop, oldest first), to see
// why an endpoint missed events.
func (s *WebhooksService) Deliveries(ctx context.Context, webhookID string, lo ListOptions, opts ...RequestOption) (*WebhookAttemptList, error) {
	path, err := route("/webhooks/{webhookID}/deliveries", webhookID)
	if err != nil {
		return nil, err
	}
	return send[WebhookAttemptList](ctx, s.c, call{method: http.MethodGet, path: path, query: lo.query()}, opts)
}

// DeliveriesAll walks the whole delivery log of a subscription from lo.Cursor on.
func (s *WebhooksService) DeliveriesAll(ctx context.Context, webhookID string, lo ListOptions, opts ...RequestOption) *Iterator[WebhookAttempt] {
	return newIterator(ctx, lo.Cursor, func(ctx context.Context, cursor string) ([]WebhookAttempt, *string, error) {
		page, err := s.Deliveries(ctx, webhookID, ListOptions{Limit: lo.Limit, Cursor: cursor}, opts...)
		if err != nil {
			return nil, nil, err
		}
		return page.Data, page.NextCursor, nil
	})
}

// Ping sends a signed webhook.ping event to the subscription's URL now and answers how the endpoint replied, to
// check a receiver end to end. It sends an Idempotency-Key, so a retried call pings once.
func (s *WebhooksService) Ping(ctx context.Context, webhookID string, opts ...RequestOption) (*WebhookPing, error) {
	path, err := route("/webhooks/{webhookID}/ping", webhookID)
	if err != nil {
		return nil, err
	}
	return send[WebhookPing](ctx, s.c, call{method: http.MethodPost, path: path, creates: true}, opts)
}
