/** Request ids: the client's own when it is sane, else a fresh one. Used by HTTP, upgrades and logs. */
import { randomBase62 } from './ids.js';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(sent: string | null | undefined): string {
  return sent && CLIENT_ID.test(sent) ? sent : `req_${randomBase62(20)}`;
}
