/**
 * An HTTP route is a thin declaration over an operation (../operations): where it lives, how its OpenAPI entry reads,
 * how the request becomes the operation's input and how the output becomes the answer. The runner does the rest, in
 * the documented order (docs/api.md, "The order of checks"), so a route cannot check things its own way. The
 * OpenAPI entry carries the operation's permission and bucket (`x-onair-permission`, `x-onair-rate-limit`).
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { AppError } from '../errors.js';
import { callerOf, type Operation, type Runner } from '../operations/index.js';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address.js';
import type { ApiEnv } from './env.js';
import { idempotent } from './middleware/idempotency.js';
import { httpDocs, isDryRun, type HttpDocs } from './route-docs.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface HttpBinding<O> extends HttpDocs {
  method: Method;
  /** The OpenAPI path, `{name}` for parameters: `/channels/{id}/scenes/{sceneId}`. `{id}` names the channel. */
  path: `/${string}`;
  /** The success status (default 200; 204 answers no body). */
  status?: 200 | 201 | 204;
  /** The operation's input from the request; default: the body with the other path and query parameters. */
  input?: (req: RequestParts) => unknown;
  /** The answer's body (a Response: sent as it is), or a promise of it; default: the operation's output. */
  answer?: (out: O, c: Context<ApiEnv>) => unknown;
  /** A check of the request after the guard, before the input's (an upload that could not be read). */
  check?: (req: RequestParts) => void;
  /** The status for this output, when it depends on it (a dry run answers 200 where the real call says 201). */
  statusOf?: (out: O, c: Context<ApiEnv>) => 200 | 201;
}

export interface RequestParts {
  /** The parsed JSON body; `{}` without one. */
  body: unknown;
  /** Path parameters other than the channel's `id`. */
  params: Record<string, string>;
  query: Record<string, string>;
}

/** Declares `op` at `http.path` on `app`: the OpenAPI entry, and the handler that runs it. */
export function bindOperation<I, O>(
  app: OpenAPIHono<ApiEnv>,
  runner: Runner,
  op: Operation<I, O>,
  http: HttpBinding<O>,
): void {
  app.openAPIRegistry.registerPath(httpDocs(op, http));
  const takesBody = http.request?.body !== undefined;
  const check = (c: Context<ApiEnv>) => {
    runner.authorizeNow(op, c.get('principal'), c.req.param('id'));
  };
  const handler = async (c: Context<ApiEnv>) => {
    const parts = requestParts(c);
    const outcome = await runner.run(op, callerOf(c.get('principal'), c.req.header(CLIENT_ADDRESS_HEADER)), {
      channelId: c.req.param('id'),
      input: http.input ? http.input(parts) : defaultInput(parts),
      dryRun: isDryRun(parts.query.dryRun),
      check: () => {
        if (op.dryRunBucket !== undefined) assertDryRunFlag(parts.query.dryRun);
        if (!takesBody && http.method !== 'get') assertNoBody(parts.body);
        http.check?.(parts);
      },
    });
    for (const [name, value] of Object.entries(outcome.headers)) c.header(name, value);
    const status = http.statusOf?.(outcome.body, c) ?? http.status ?? 200;
    if (status === 204) return c.body(null, 204);
    const answer: unknown = http.answer ? await http.answer(outcome.body, c) : outcome.body;
    // An answer that is not JSON (CSV) comes whole.
    return answer instanceof Response ? answer : c.json(answer, status);
  };
  app.on(http.method.toUpperCase(), honoPath(http.path), idempotent(check), handler);
}

/** `bindOperation` on one app and runner. */
export function operationBinder(app: OpenAPIHono<ApiEnv>, runner: Runner) {
  return <I, O>(op: Operation<I, O>, http: HttpBinding<O>) => bindOperation(app, runner, op, http);
}

function requestParts(c: Context<ApiEnv>): RequestParts {
  const params: Record<string, string> = { ...c.req.param() };
  delete params.id;
  const body: unknown = c.get('body');
  return { body: body === undefined ? {} : body, params, query: c.req.query() };
}

/** The body, with the other path parameters and the query beside its fields (a body that is no object: as sent). */
function defaultInput({ body, params, query }: RequestParts): unknown {
  const extra: Record<string, string> = { ...params, ...query };
  delete extra.dryRun;
  if (Object.keys(extra).length === 0) return body;
  return isPlainObject(body) ? { ...body, ...extra } : body;
}

/**
 * A route that declares no body accepts none, an empty one or `{}` (docs/api.md, "Conventions"); anything else is
 * refused rather than ignored, so a misdirected request cannot act as if it had been understood.
 */
function assertNoBody(body: unknown): void {
  if (isPlainObject(body) && Object.keys(body).length === 0) return;
  throw new AppError('invalid_request', 'This endpoint takes no body: send none, or {}.', {
    errors: [{ path: '(body)', message: 'must be empty' }],
  });
}

/** `?dryRun=` is `1`, `true`, `0` or `false`, or absent. */
function assertDryRunFlag(value: string | undefined): void {
  if (value === undefined || ['0', '1', 'true', 'false'].includes(value)) return;
  throw new AppError('invalid_request', 'dryRun: must be 1, true, 0 or false', {
    errors: [{ path: 'dryRun', message: 'must be 1, true, 0 or false' }],
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function honoPath(path: string): string {
  return path.replaceAll(/\{([^}]+)\}/g, ':$1');
}
