/**
 * Hash routes (`#/channels/ch_…/live`): the server serves one page at `/`, and every view has a URL an
 * operator can bookmark or share with a colleague.
 */
import { signal } from '@preact/signals';

export const route = signal(readRoute());

function readRoute(): string[] {
  const hash = location.hash.replace(/^#\/?/, '');
  return hash === '' ? [] : hash.split('/').map((part) => decodeURIComponent(part));
}

addEventListener('hashchange', () => {
  route.value = readRoute();
});

export function href(...parts: string[]): string {
  return '#/' + parts.map((part) => encodeURIComponent(part)).join('/');
}

export function navigate(...parts: string[]): void {
  location.hash = href(...parts);
}
