package onair

import (
	"context"
	"net/http"
	"time"
)

// ScheduleService calls the schedule routes (/v1/channels/{id}/schedule, docs/rundowns.md "Take at a time"): an
// operation at a wall-clock time, which the server applies in the frame that holds it, whoever is connected, and
// keeps across a restart.
type ScheduleService struct{ c *Client }

// FormatTime writes a time as the API does (RFC 3339 in UTC, with milliseconds), for ScheduleIn.At:
// onair.ScheduleIn{At: onair.FormatTime(kickOff), Op: …}.
func FormatTime(t time.Time) string {
	return t.UTC().Format(apiTime)
}

const apiTime = "2006-01-02T15:04:05.000Z07:00"

// Create schedules in.Op at in.At (201): a take (Kind take, Layer), a clear (Kind clear, Layer or SceneID), or a
// cue or program (Kind cue or program) of a scene (SceneID, Values) or of a rundown item (RundownID and ItemID).
// A time in the past is a 400 invalid_request. It sends an Idempotency-Key.
func (s *ScheduleService) Create(ctx context.Context, channelID string, in ScheduleIn, opts ...RequestOption) (*ScheduledOp, error) {
	path, err := route("/channels/{channelID}/schedule", channelID)
	if err != nil {
		return nil, err
	}
	return send[ScheduledOp](ctx, s.c, call{method: http.MethodPost, path: path, body: in, creates: true}, opts)
}

// List gives what is scheduled on the channel, soonest first.
func (s *ScheduleService) List(ctx context.Context, channelID string, opts ...RequestOption) (*ScheduleList, error) {
	path, err := route("/channels/{channelID}/schedule", channelID)
	if err != nil {
		return nil, err
	}
	return send[ScheduleList](ctx, s.c, call{method: http.MethodGet, path: path}, opts)
}

// Cancel cancels a scheduled operation (404 not_found once it has run or been cancelled).
func (s *ScheduleService) Cancel(ctx context.Context, channelID, scheduleID string, opts ...RequestOption) error {
	path, err := route("/channels/{channelID}/schedule/{scheduleID}", channelID, scheduleID)
	if err != nil {
		return err
	}
	return s.c.do(ctx, call{method: http.MethodDelete, path: path}, nil, opts)
}
