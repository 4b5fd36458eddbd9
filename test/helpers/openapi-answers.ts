/**
 * Checks HTTP answers against an OpenAPI 3.0 document's response schemas (test/helpers/json-schema.ts does the
 * checking): the schema is the one the document gives the answer's route, method and status, `$ref`s resolved in the
 * document and in the JSON schemas given with it. The keywords OpenAPI adds for documentation (`example`,
 * `externalDocs`, `x-…`) check nothing; a `$ref`'s sibling keywords are checked too (the OGraf draft's only siblings
 * are `type: object` and `description`, which hold anyway). An answer the document lists no schema for is an error.
 */
import { schemaSet } from './json-schema.js';

export interface OpenApiAnswers {
  /** Every failure of `body` as the answer to `method path` with `status` (`path` is a request path, under the servers' base). */
  failures(method: string, path: string, status: number, body: unknown): string[];
  /** Every failure of `value` against the document's `components.schemas[name]`. */
  schemaFailures(name: string, value: unknown): string[];
}

interface Document {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>;
}

/** `document` as published at `url` (the base of its relative `$ref`s), with `schemas` (JSON schemas by `$id`). */
export function openApiAnswers(url: string, document: Document, schemas: Map<string, unknown>): OpenApiAnswers {
  const set = schemaSet(new Map([...schemas, [url, document]]));
  const templates = Object.keys(document.paths).map((template) => ({ template, pattern: patternOf(template) }));
  return {
    failures(method, path, status, body) {
      const route = templates.find((t) => t.pattern.test(path.split('?')[0]!))?.template;
      if (route === undefined) throw new Error(`the document has no route for ${path}`);
      const m = method.toLowerCase();
      const content = document.paths[route]?.[m]?.responses?.[String(status)]?.content;
      if (content?.['application/json'] === undefined)
        throw new Error(`the document gives no JSON answer to ${method} ${route} with status ${status}`);
      const pointer = ['paths', route, m, 'responses', String(status), 'content', 'application/json', 'schema'];
      return set.validate(`${url}#/${pointer.map(escapeToken).join('/')}`, body);
    },
    schemaFailures(name, value) {
      return set.validate(`${url}#/components/schemas/${escapeToken(name)}`, value);
    },
  };
}

/** A path template's `{parameter}`s each match one non-empty path segment. */
function patternOf(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

function escapeToken(token: string): string {
  return encodeURIComponent(token.replaceAll('~', '~0').replaceAll('/', '~1'));
}
