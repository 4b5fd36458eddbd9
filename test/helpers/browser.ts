/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser), with the flags that keep it
 * quiet on a closed network. Each launch gets a fresh, empty profile from Playwright.
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
