/**
 * The API's request and response bodies, as the TypeScript SDK's types generated from the server's OpenAPI document
 * (sdks/typescript/src/generated/openapi.ts, written by `npm run sdk:generate`). Each module names the records it
 * deals with from these, so a change to a route's schema is a type error here, not a page reading a field that is
 * gone.
 */
import type { components } from '../../sdks/typescript/src/generated/openapi.js';

export type ApiSchemas = components['schemas'];
