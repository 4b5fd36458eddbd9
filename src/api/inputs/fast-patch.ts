/**
 * `PATCH /v1/channels/:id/inputs` without the Fetch/Hono machinery: the hottest route, answered by the
 * transport directly through this function. It runs the same steps as the Hono route, with the same
 * functions: authentication, the CSRF check, the JSON body checks, then the patchInputs operation (shape,
 * permission, updates bucket, the patch).
 */
import { callerOf, patchInputs } from '../../operations/index.js';
import type { ApiDeps, RequestObserver } from '../env.js';
import { assertSameOrigin } from '../../http/same-origin.js';
import { parseJsonBody } from '../middleware/json-body.js';
import { asAppError, problemParts } from '../problem.js';

export interface FastRequest {
  channelId: string;
  requestId: string;
  header(name: string): string | undefined;
  body: string;
}

export interface FastResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The template of the Hono route this function stands in for: metrics count both under one label. */
export const FAST_PATCH_ROUTE = '/v1/channels/:id/inputs';

export interface FastPatchDeps extends Pick<ApiDeps, 'runner' | 'auth' | 'logger'> {
  /** Told of every answer, as the Hono app's requests are (metrics). */
  observeRequest?: RequestObserver | undefined;
}

export function createFastPatch(deps: FastPatchDeps) {
  return async (req: FastRequest): Promise<FastResponse> => {
    const started = performance.now();
    const base = { 'X-Request-Id': req.requestId };
    let limitHeaders: Record<string, string> = {};
    let answer: FastResponse;
    try {
      const authorization = req.header('authorization');
      const principal =
        deps.auth.cachedBearer(authorization) ??
        (await deps.auth.fromRequest({
          authorization,
          cookie: req.header('cookie'),
          workspace: req.header('x-workspace'),
        }));
      if (principal.kind === 'user') {
        assertSameOrigin(req.header('origin'), req.header('sec-fetch-site'), req.header('host'));
      }
      // No body means {}, as for every route that takes one (docs/api.md, "Conventions").
      const body = req.body.length === 0 ? {} : parseJsonBody(req.body, req.header('content-type'));
      const outcome = await deps.runner.run(patchInputs, callerOf(principal), {
        channelId: req.channelId,
        input: body,
      });
      limitHeaders = outcome.headers;
      const result = outcome.body;
      answer = {
        status: 200,
        headers: { ...base, ...limitHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify(result),
      };
    } catch (err) {
      const appError = asAppError(err);
      if (appError.code === 'internal') deps.logger.error({ err, reqId: req.requestId }, 'unhandled error');
      answer = problemParts(appError, req.requestId);
    }
    const elapsed = performance.now() - started;
    deps.observeRequest?.(FAST_PATCH_ROUTE, 'PATCH', answer.status, elapsed / 1000);
    if (!deps.logger.isLevelEnabled('info')) return answer;
    const ms = Math.round(elapsed * 100) / 100;
    const path = `/v1/channels/${req.channelId}/inputs`;
    deps.logger.info(
      { reqId: req.requestId, method: 'PATCH', path, status: answer.status, ms, channelId: req.channelId },
      'request',
    );
    return answer;
  };
}
