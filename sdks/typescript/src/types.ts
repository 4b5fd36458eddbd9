/**
 * Friendly names for the API's request and response bodies. They all come from the generated
 * `./generated/openapi.js` (openapi-typescript output of sdks/openapi.json): nothing is written by hand here but
 * the few input shapes the document marks stricter than the server (definitions whose defaults may be left out)
 * and the webhook envelope, which also carries `webhook.ping`.
 */
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Channel = Schemas['Channel'];
export type ChannelIn = Schemas['ChannelIn'];
export type ChannelUpdate = Schemas['ChannelUpdate'];
export type Scene = Schemas['Scene'];
export type SceneDefinition = Schemas['SceneDefinition'];
export type SceneInput = Schemas['SceneInput'];
export type SceneElement = Schemas['SceneElement'];
export type Transition = Schemas['Transition'];
export type SceneTrigger = Schemas['Trigger'];
/**
 * A definition as you send it: every field has a default (docs/scenes.md), so all may be left out. The server
 * answers the complete definition (`SceneDefinition`).
 */
export type SceneDefinitionIn = Partial<SceneDefinition>;
export type SceneIn = Omit<Schemas['SceneIn'], 'definition'> & { definition?: SceneDefinitionIn };
export type SceneUpdate = Omit<Schemas['SceneUpdate'], 'definition'> & { definition: SceneDefinitionIn };
export type SceneVersion = Schemas['SceneVersion'];
export type SceneVersionList = Schemas['SceneVersionList'];
export type InputValue = number | string | boolean | null;
export type InputsPatch = Schemas['InputsPatch'];
export type InputsResult = Schemas['InputsResult'];
export type State = Schemas['State'];
export type Output = Schemas['Output'];
export type OutputList = Schemas['OutputList'];
export type ClockState = Schemas['ClockState'];
export type SceneRef = Schemas['SceneRef'];
export type ItemValues = Schemas['ItemValues'];
export type UpdateIn = Schemas['UpdateIn'];
export type ContinueIn = Schemas['ContinueIn'];
export type TriggerBody = Schemas['TriggerBody'];
export type TakeIn = Schemas['TakeIn'];
export type ClearIn = Schemas['ClearIn'];
export type FrameResult = Schemas['FrameResult'];
export type ClockResult = Schemas['ClockResult'];
export type ClockActionIn = Schemas['ClockActionIn'];
export type ClockAction = ClockActionIn['action'];
export type Rundown = Schemas['Rundown'];
export type RundownItem = Schemas['RundownItem'];
export type RundownItemState = RundownItem['state'];
export type RundownIn = Schemas['RundownIn'];
export type RundownUpdate = Schemas['RundownUpdate'];
export type RundownList = Schemas['RundownList'];
export type ItemIn = Schemas['ItemIn'];
export type ItemUpdate = Schemas['ItemUpdate'];
export type FocusIn = Schemas['FocusIn'];
export type ItemRefIn = Schemas['ItemRefIn'];
export type Actor = Schemas['Actor'];
export type HistoryAction = Schemas['HistoryAction'];
export type HistoryList = Schemas['HistoryList'];
export type ScheduledOp = Schemas['ScheduledOp'];
export type ScheduleList = Schemas['ScheduleList'];
/** What `schedule.create` sends: `at` may also be a Date. */
export type ScheduleIn = Omit<Schemas['ScheduleIn'], 'at'> & { at: string | Date };
export type ScheduledAction = Schemas['ScheduleIn']['op'];
export type Template = Schemas['Template'];
export type Event = Schemas['Event'];
export type AsRunInterval = Schemas['AsRunInterval'];
export type EventType = Event['type'];
export type Key = Schemas['Key'];
export type KeyCreated = Schemas['KeyCreated'];
export type KeyIn = Schemas['KeyIn'];
export type Permission = KeyIn['permissions'][number];
export type Asset = Schemas['Asset'];
export type AssetUploaded = Schemas['AssetUploaded'];
export type Graphic = Schemas['Graphic'];
export type GraphicsUploaded = Schemas['GraphicsUploaded'];
export type Webhook = Schemas['Webhook'];
export type WebhookCreated = Schemas['WebhookCreated'];
export type WebhookIn = Schemas['WebhookIn'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookPing = Schemas['WebhookPing'];
export type WebhookSecretRollIn = Schemas['WebhookSecretRollIn'];
export type WebhookSecretRolled = Schemas['WebhookSecretRolled'];
export type IncomingHook = Schemas['IncomingHook'];
export type IncomingHookCreated = Schemas['IncomingHookCreated'];
export type IncomingHookIn = Schemas['IncomingHookIn'];
export type IncomingHookPatch = Schemas['IncomingHookPatch'];
export type IncomingHookDelivery = Schemas['IncomingHookDelivery'];
export type IncomingHookRefusal = Schemas['IncomingHookRefusal'];
export type IncomingHookAnswer = Schemas['IncomingHookAnswer'];
export type Source = Schemas['Source'];
export type SourceIn = Schemas['SourceIn'];
export type SourcePatch = Schemas['SourcePatch'];
export type SourceRowMove = Schemas['SourceRowMove'];
export type SourceDryRun = Schemas['SourceDryRun'];
export type SourceFetch = Schemas['SourceFetch'];
export type Me = Schemas['Me'];
export type Problem = Schemas['Problem'];

/**
 * What a webhook delivery's body holds: the event envelope of `GET /v1/events`, plus `webhook.ping` (sent by
 * `webhooks.ping`, with `data: { webhookId }` and the subscription's `channelId`, or null).
 */
export type WebhookEvent = Schemas['WebhookDelivery'];

/** One page of a list: `nextCursor` is the cursor of the next page, or null on the last one. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** Paging of the list routes: `limit` 1–100 (default 50), `cursor` the `nextCursor` of the previous page. */
export interface PageParams {
  limit?: number;
  cursor?: string;
}

/** `GET …/as-run`: `limit` 1–1000 (default 100); `from` and `to` (ISO 8601, or Dates) bound the time range. */
export interface AsRunListParams extends Omit<PageParams, 'limit'> {
  limit?: number;
  from?: string | Date;
  to?: string | Date;
}

/** `GET /v1/events` filters. `since` (ISO 8601, or a Date) may not be combined with `cursor`. */
export interface EventListParams extends PageParams {
  channelId?: string;
  type?: EventType;
  since?: string | Date;
}
