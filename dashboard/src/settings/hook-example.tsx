/**
 * A ready-to-run curl for a new incoming hook, built from its mapping (and signed when the hook requires it). It is a
 * dry run: trying it answers what would be applied and changes nothing on air.
 */
import { useState } from 'preact/hooks';
import type { InputChoice } from './mapping-editor.js';

const SAMPLES: Record<string, unknown> = {
  number: 1,
  boolean: true,
  text: 'Home',
  color: '#ff0000',
  image: 'https://example.com/logo.png',
};
/** A clock takes a time in milliseconds (set) or a boolean (start, stop): the field's name tells which it carries. */
const CLOCK_TIME_FIELD = /ms|milli|time|remain|sec/i;

function sample(type: string | undefined, field: string): unknown {
  if (type === 'clock') return CLOCK_TIME_FIELD.test(field.split('.').pop()!) ? 300_000 : true;
  return SAMPLES[type ?? ''] ?? 'value';
}

/** A body the hook accepts: each mapped field (nested along its dotted path), or the inputs' own names. */
export function exampleBody(mapping: Record<string, string>, inputs: InputChoice[]): Record<string, unknown> {
  const typeOf = new Map(inputs.map((i) => [i.name, i.type]));
  const pairs = Object.entries(mapping);
  const fields = pairs.length > 0 ? pairs : inputs.slice(0, 2).map((i) => [i.name, i.name] as [string, string]);
  const body: Record<string, unknown> = {};
  for (const [field, input] of fields) {
    const names = field.split('.');
    let at = body;
    for (const name of names.slice(0, -1)) {
      const next = at[name];
      at = (at[name] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
    }
    at[names[names.length - 1]!] = sample(typeOf.get(input), field);
  }
  return body;
}

export function curlExample(hookUrl: string, body: Record<string, unknown>, secret: string | null): string {
  const json = JSON.stringify(body);
  const url = `${hookUrl}?dryRun=1`;
  if (!secret) return `curl -s -X POST '${url}' -H 'Content-Type: application/json' \\\n  -d '${json}'`;
  return [
    `SECRET='${secret}'; BODY='${json}'; TS=$(date +%s)`,
    `SIG=$(printf '%s.%s' "$TS" "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')`,
    `curl -s -X POST '${url}' -H 'Content-Type: application/json' \\`,
    `  -H "X-Service-Timestamp: $TS" -H "X-Service-Signature: v1=$SIG" -d "$BODY"`,
  ].join('\n');
}

/** The example with a copy button; it holds the URL (and secret), so it too is shown only this once. */
export function CurlExample({ command }: { command: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="curl-example">
      <div class="row">
        <h3>Try it with curl</h3>
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard.writeText(command).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? 'Copied' : 'Copy curl'}
        </button>
      </div>
      <pre class="mono" tabIndex={0}>
        {command}
      </pre>
      <p class="hint">
        It is a dry run (<code>?dryRun=1</code>): the answer says what a post would apply, and nothing changes on air.
        Leave <code>?dryRun=1</code> out to post for real.
      </p>
    </div>
  );
}
