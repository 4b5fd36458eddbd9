/** Request ids: the client's own when it is sane, else a fresh one. Used by HTTP, upgrades and logs. */
import { randomBase62 } from '../ids.js';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A random prefix per process plus a counter: unique, cheap (no CSPRNG call per request), not a secret. */
const PREFIX = `req_${randomBase62(10)}`;
let counter = 0;

export function requestIdFrom(sent: string | null | undefined): string {
  return sent && CLIENT_ID.test(sent) ? sent : `${PREFIX}${(++counter).toString(36)}`;
}
