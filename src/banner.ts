/**
 * The human-facing start-up text on stderr (stdout carries JSON logs): where the server is, the one-time
 * setup link while no owner account exists (never logged), and the next step.
 */
import type { ServerHandle } from './main.js';

export function printBanner(server: ServerHandle): void {
  const base = server.baseUrl;
  const lines = [
    '',
    `  onair is running at ${base}`,
    `  Dashboard:      ${base}/   (sign in; run a show, manage channels, keys and webhooks)`,
    `  API reference:  ${base}/docs`,
    '',
  ];
  const token = server.firstRun.setupToken;
  if (token) {
    lines.push(
      '  First run: open this one-time link to create the owner account and your first API key,',
      '  then go on to the dashboard:',
      '',
      `    ${base}/setup?token=${token}`,
      '',
      '  (Scripts and CI can instead start with ONAIR_BOOTSTRAP_KEY=onair_sk_ and at least 23 letters and digits.)',
      '',
    );
  }
  lines.push(
    '  Or, with your key in ONAIR_KEY: create a channel and give it a scoreboard:',
    `    curl -s -X POST ${base}/v1/channels -H "Authorization: Bearer $ONAIR_KEY" \\`,
    `      -H 'Content-Type: application/json' -d '{"name":"Main"}'`,
    '  then follow "Walk-through" in README.md (scene, output URL in OBS, PATCH a score).',
    '',
  );
  process.stderr.write(`${lines.join('\n')}\n`);
}
