/**
 * `PATCH /v1/channels/:id/inputs` without the Fetch/Hono machinery: the hottest route, answered by the transport
 * directly through this function. It is made of the same steps as a request through the Hono app, the same
 * functions in the same order: authentication (middleware/authenticate.ts, CSRF included), the JSON body
 * (middleware/json-body.ts), the patchInputs operation through the runner (guard, then the input), the error answer
 * (problem.ts), and the access log and metrics (middleware/request-context.ts).
 */
import { callerOf, patchInputs } from '../../operations/index.js';
import type { ApiDeps, RequestObserver } from '../env.js';
import { principalOf } from '../middleware/authenticate.js';
import { parseJsonBody } from '../middleware/json-body.js';
import { recordRequest } from '../middleware/request-context.js';
import { errorAnswer } from '../problem.js';

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

function requestLog(deps: FastPatchDeps, req: FastRequest) {
  return deps.logger.child({ reqId: req.requestId });
}

export function createFastPatch(deps: FastPatchDeps) {
  return async (req: FastRequest): Promise<FastResponse> => {
    const started = performance.now();
    let answer: FastResponse;
    try {
      const principal = await principalOf(deps.auth, req, 'PATCH');
      // No body means {}, as for every route that takes one (docs/api.md, "Conventions").
      const body = req.body.length === 0 ? {} : parseJsonBody(req.body, req.header('content-type'));
      const call = { channelId: req.channelId, input: body };
      const outcome = await deps.runner.run(patchInputs, callerOf(principal), call);
      const headers = { 'X-Request-Id': req.requestId, ...outcome.headers, 'Content-Type': 'application/json' };
      answer = { status: 200, headers, body: JSON.stringify(outcome.body) };
    } catch (err) {
      answer = errorAnswer(requestLog(deps, req), err, req.requestId);
    }
    const path = `/v1/channels/${req.channelId}/inputs`;
    const entry = { route: FAST_PATCH_ROUTE, method: 'PATCH', path, status: answer.status, started };
    // A child logger only when a line is written: most answers of this route log nothing.
    recordRequest(deps.logger.isLevelEnabled('info') ? requestLog(deps, req) : deps.logger, deps.observeRequest, entry);
    return answer;
  };
}
