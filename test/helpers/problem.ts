/**
 * Assertions on RFC 9457 problem responses (docs/api.md, "Conventions" and "Errors").
 */
import { expect } from 'vitest';
import type { ApiResponse, Problem } from './api.js';

/** Checks status, media type and the members every problem carries; returns the body. */
export function expectProblem(res: ApiResponse<unknown>, status: number, code: string): Problem {
  expect(res.status, `body: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
  const body = res.body as Problem;
  expect(body).toMatchObject({ status, code });
  for (const member of ['type', 'title', 'detail'] as const) expect(typeof body[member], member).toBe('string');
  return body;
}

/** The paths named in `errors[]`. */
export function errorPaths(problem: Problem): string[] {
  return (problem.errors ?? []).map((e) => e.path);
}
