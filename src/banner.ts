/**
 * The human-facing start-up text on stderr (stdout carries JSON logs): where the server is, the first-run
 * key when one was just generated (shown once, never logged), and the next step.
 */
import type { ServerHandle } from './main.js';

export function printBanner(server: ServerHandle): void {
  const base = server.baseUrl;
  const lines = ['', `  onair is running at ${base}`, `  API reference:  ${base}/docs`, ''];
  const secret = server.firstRun.generatedSecret;
  if (secret) {
    lines.push(
      '  First run: an API key with every permission was created for you.',
      '  It is shown only now and stored only as a hash, so copy it somewhere safe:',
      '',
      `    export ONAIR_KEY=${secret}`,
      '',
    );
  } else {
    lines.push('  Use your API key (or ONAIR_BOOTSTRAP_KEY) as ONAIR_KEY below.', '');
  }
  lines.push(
    '  Next: create a channel and give it a scoreboard:',
    `    curl -s -X POST ${base}/v1/channels -H "Authorization: Bearer $ONAIR_KEY" \\`,
    `      -H 'Content-Type: application/json' -d '{"name":"Main"}'`,
    '  then follow "Walk-through" in README.md (scene, output URL in OBS, PATCH a score).',
    '',
  );
  process.stderr.write(`${lines.join('\n')}\n`);
}
