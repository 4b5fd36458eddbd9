/** A ready-to-run curl for a new incoming hook, built from its mapping (and signed when the hook requires it). */
import { useState } from 'preact/hooks';
import type { InputChoice } from './mapping-editor.js';

const SAMPLES: Record<string, unknown> = {
  number: 1,
  boolean: true,
  text: 'Home',
  color: '#ff0000',
  image: 'https://example.com/logo.png',
  clock: true,
};

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
    at[names[names.length - 1]!] = SAMPLES[typeOf.get(input) ?? ''] ?? 'value';
  }
  return body;
}

export function curlExample(url: string, body: Record<string, unknown>, secret: string | null): string {
  const json = JSON.stringify(body);
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
        Add <code>?dryRun=1</code> to the URL to see what a post would apply without changing anything.
      </p>
    </div>
  );
}
