/**
 * zod issues → 400 invalid_request naming each field (errors[].path like `elements.3.fontSize`). Shared by
 * every boundary: HTTP bodies, WebSocket messages, operation inputs.
 */
import type { ZodError } from 'zod';
import { AppError } from './errors.js';

export function validationError(error: ZodError): AppError {
  const errors = error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...at, key].join('.'), message: 'unknown field' }));
    }
    return [{ path: at.join('.') || '(body)', message: issue.message }];
  });
  const first = errors[0];
  const detail = first ? `${first.path}: ${first.message}` : 'The request is not valid.';
  return new AppError('invalid_request', detail, { errors });
}
