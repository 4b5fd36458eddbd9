/**
 * @onair/sdk: the official TypeScript SDK for onair. Works in Node 20+ (install `ws` on Node 20 for the live
 * client) and in browsers.
 */
export { OnairClient, type OnairClientOptions } from './client.js';
export {
  OnairApiError,
  OnairTransportError,
  WebhookVerificationError,
  type FieldError,
  type OnairApiErrorInit,
  type ProblemDocument,
  type TransportErrorCode,
  type WebhookVerificationErrorCode,
} from './errors.js';
export { USER_AGENT, type FetchLike, type RequestOptions } from './http.js';
export { paginate } from './pagination.js';
export {
  signWebhook,
  verifyWebhook,
  type HeaderBag,
  type SignatureHeaders,
  type VerifyWebhookOptions,
} from './webhooks.js';
export { LiveChannel } from './live/channel.js';
export { LiveOps } from './live/ops.js';
export { LiveRundowns } from './live/rundowns.js';
export type {
  LiveAck,
  LiveChannelOptions,
  LiveCloseInfo,
  LiveEvents,
  LiveItemAck,
  LiveOpOptions,
  LiveRundownAck,
  LiveStatus,
} from './live/types.js';
export type { ReconnectOptions } from './live/reconnect.js';
export type { WebSocketConstructor, WebSocketLike } from './live/socket.js';
export type {
  AckMessage,
  ErrorMessage,
  FiredTrigger,
  FrameMessage,
  HeartbeatMessage,
  PreviewEntry,
  ProgramEntry,
  LiveState,
  SceneView,
  ServerMessage,
  SnapshotMessage,
} from './generated/protocol.js';
export type { SceneWriteOptions } from './resources/scenes.js';
export type { HookPostOptions } from './resources/hooks.js';
export { Channels } from './resources/channels.js';
export { Scenes } from './resources/scenes.js';
export { Playout } from './resources/playout.js';
export { Rundowns } from './resources/rundowns.js';
export { Schedule } from './resources/schedule.js';
export { History } from './resources/history.js';
export { Templates } from './resources/templates.js';
export { Events } from './resources/events.js';
export { AsRun } from './resources/as-run.js';
export { Keys } from './resources/keys.js';
export { Webhooks } from './resources/webhooks.js';
export { Assets } from './resources/assets.js';
export { Graphics } from './resources/graphics.js';
export { IncomingHooks } from './resources/incoming-hooks.js';
export { Sources } from './resources/sources.js';
export { Hooks } from './resources/hooks.js';
export * from './types.js';
export type { components, paths } from './generated/openapi.js';
export { VERSION } from './version.js';
