/**
 * The answers of the OGraf Server API draft 1.0.0, checked against the draft's own OpenAPI document
 * (test/fixtures/ograf-server-api, the EBU's file): `answer` checks a body against the response schema the draft gives
 * its route, method and status, and types it with the `ograf` package's typings of that document.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServerApi } from 'ograf';
import { schemasIn } from './json-schema.js';
import { openApiAnswers } from './openapi-answers.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
/** Where the EBU publishes the document: its `../json-schemas/…` refs resolve to the OGraf schemas' `$id`s from here. */
const DOCUMENT_URL = 'https://ograf.ebu.io/v1/specification/open-api/server-api.yaml';
/** The base of every route in the draft (its `servers`). */
const BASE = '/ograf/v1';

export const draftAnswers = openApiAnswers(
  DOCUMENT_URL,
  JSON.parse(fs.readFileSync(path.join(fixtures, 'ograf-server-api/server-api.json'), 'utf8')) as Parameters<
    typeof openApiAnswers
  >[1],
  new Map([
    ...schemasIn(path.join(fixtures, 'ograf-schema')),
    ...schemasIn(path.join(fixtures, 'ograf-server-api/superflytv-gdd')),
  ]),
);

/** `body`, the answer to `method path` (a path under /ograf/v1) with `status`: throws, naming each failure, unless the draft's schema for it passes. */
export function answer<T>(method: string, requestPath: string, status: number, body: unknown): T {
  if (!requestPath.startsWith(BASE)) throw new Error(`${requestPath} is not under ${BASE}`);
  const failures = draftAnswers.failures(method, requestPath.slice(BASE.length) || '/', status, body);
  if (failures.length > 0)
    throw new Error(
      `${method} ${requestPath} ${status} does not match the draft:\n${failures.join('\n')}\n${JSON.stringify(body)}`,
    );
  return body as T;
}

/** `value`, checked against the draft's `components.schemas[name]` (for an answer whose status the draft does not list). */
export function component<T>(name: keyof ServerApi.components['schemas'], value: unknown): T {
  const failures = draftAnswers.schemaFailures(name, value);
  if (failures.length > 0) throw new Error(`not a ${name} of the draft:\n${failures.join('\n')}`);
  return value as T;
}

type Paths = ServerApi.paths;
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Ok<P extends keyof Paths, M extends keyof Paths[P]> = Paths[P][M] extends { responses: { 200: infer R } }
  ? Json<R>
  : never;
type Schemas = ServerApi.components['schemas'];

export type ErrorResponse = Schemas['ErrorResponse'];
export type ServerInfo = Ok<'/', 'get'>;
export type RendererList = Ok<'/renderers', 'get'>;
export type RendererInfoAnswer = Ok<'/renderers/{rendererId}', 'get'>;
export type RenderTargetInfo = Ok<'/renderers/{rendererId}/target', 'get'>;
export type ClearGraphicsResponse = Ok<'/renderers/{rendererId}/target/graphicInstance/clear', 'put'>;
export type ActionAnswer = Ok<'/renderers/{rendererId}/target/graphicInstance/load', 'post'>;
export type PlayActionAnswer = Ok<'/renderers/{rendererId}/target/graphicInstance/playAction', 'post'>;
export type GraphicList = Ok<'/graphics', 'get'>;
export type GraphicInfo = Ok<'/graphics/{graphicId}', 'get'>;
export type Empty = Ok<'/graphics/{graphicId}', 'delete'>;
