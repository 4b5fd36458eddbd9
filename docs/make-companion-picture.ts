/**
 * Draws docs/images/companion-presets.png: the Companion module's preset page for one channel, as its buttons look
 * with the show running. The built module (companion/pkg, `npm run build:companion`) runs in the Companion stand-in
 * of the tests against a real server in this process; each preset's text has its variables filled in and its
 * feedbacks applied (the scoreboard on air: red; the lower third cued: green; the clock running: green), and
 * headless Chromium draws the buttons as 72-pixel keys in rows of eight, as a Stream Deck XL page shows them.
 *
 *   npm run build:companion && npx tsx docs/make-companion-picture.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompanionSimplePresetDefinition } from '@companion-module/base';
import { loadConfig } from '../src/config.js';
import { startServer, type ServerHandle } from '../src/main.js';
import { launchChromium } from '../test/helpers/browser.js';
import { CompanionHost } from '../test/helpers/companion-host.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'onair_sk_DocsCompanion0123456789abcdefghi';
type Json = Record<string, unknown> & { id: string };

async function call(server: ServerHandle, method: string, route: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A show mid-game: the scoreboard on air at 2–1 with its clock running, a guest strap cued, a rundown. */
async function show(server: ServerHandle): Promise<void> {
  const channel = await call(server, 'POST', '/v1/channels', { name: 'Main' });
  const ch = `/v1/channels/${channel.id}`;
  const score = await call(server, 'POST', `${ch}/scenes`, { name: 'Scoreboard', template: 'basketball-scoreboard' });
  const strap = await call(server, 'POST', `${ch}/scenes`, { name: 'Guest strap', template: 'lower-third' });
  await call(server, 'POST', `${ch}/scenes`, { name: 'Logo', template: 'logo-bug' });
  const rundown = await call(server, 'POST', `${ch}/rundowns`, { name: 'Guests' });
  for (const label of ['Anna Berg', 'Ben Carr']) {
    await call(server, 'POST', `${ch}/rundowns/${rundown.id}/items`, { sceneId: strap.id, label });
  }
  await call(server, 'PATCH', `${ch}/inputs`, { home: 'LIONS', away: 'TIGERS', scoreA: 2, scoreB: 1 });
  await call(server, 'POST', `${ch}/program`, { sceneId: score.id });
  await call(server, 'POST', `${ch}/preview`, { sceneId: strap.id });
  await call(server, 'POST', `${ch}/clocks/gameClock`, { action: 'set', ms: 431_000 });
  await call(server, 'POST', `${ch}/clocks/gameClock`, { action: 'start' });
}

const hex = (n: number) => `#${n.toString(16).padStart(6, '0')}`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Each preset of the channel's page as Companion would draw it now: text parsed, feedback styles applied. */
async function buttons(host: CompanionHost): Promise<{ text: string; color: string; bgcolor: string }[]> {
  const section = host.presetSections[0]!;
  const out = [];
  for (const id of section.definitions as string[]) {
    const preset = host.presets[id] as CompanionSimplePresetDefinition;
    let style = { ...preset.style };
    for (const fb of preset.feedbacks) {
      const placed = await host.placeFeedback(fb.feedbackId, fb.options as Record<string, string>);
      if (host.feedback(placed) === true && 'style' in fb) style = { ...style, ...fb.style };
    }
    const text = host.parseVariables(style.text).replace(/\\n/g, '\n');
    out.push({ text, color: hex(style.color), bgcolor: hex(style.bgcolor) });
  }
  return out;
}

function page(keys: { text: string; color: string; bgcolor: string }[]): string {
  const cells = keys
    .map((k) => `<div class="key" style="color:${k.color};background:${k.bgcolor}">${escape(k.text)}</div>`)
    .join('');
  return `<!doctype html><html><head><style>
    body { margin: 0; background: #1b1d21; font-family: Arial, Helvetica, sans-serif; }
    .deck { display: grid; grid-template-columns: repeat(8, 72px); gap: 10px; padding: 16px; width: max-content; }
    .key { width: 72px; height: 72px; border-radius: 8px; display: flex; align-items: center; justify-content: center;
      text-align: center; white-space: pre-line; font-size: 11px; font-weight: bold; line-height: 1.15;
      overflow: hidden; box-shadow: inset 0 0 0 1px #ffffff22; }
  </style></head><body><div class="deck">${cells}</div></body></html>`;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-docs-'));
  const server = await startServer(
    loadConfig({
      ONAIR_HOST: '127.0.0.1',
      ONAIR_PORT: '0',
      ONAIR_DATA_DIR: dataDir,
      ONAIR_BOOTSTRAP_KEY: KEY,
      ONAIR_LOG_LEVEL: 'silent',
      ONAIR_DB_SYNC: 'normal',
    }),
  );
  const host = new CompanionHost();
  const browser = await launchChromium();
  try {
    await show(server);
    await host.start({ host: '127.0.0.1', port: server.port, tls: false, channels: '' }, { apiKey: KEY });
    const deadline = Date.now() + 20_000;
    while (!host.variables['Main.rundown.Guests.next'] || host.presetSections.length === 0) {
      if (Date.now() > deadline) throw new Error('the module did not get the show');
      await new Promise((r) => setTimeout(r, 50));
    }
    const tab = await browser.newPage({ deviceScaleFactor: 2 });
    await tab.setContent(page(await buttons(host)));
    const deck = tab.locator('.deck');
    fs.writeFileSync(path.join(ROOT, 'docs/images/companion-presets.png'), await deck.screenshot());
  } finally {
    await browser.close();
    await host.stop();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
