/**
 * Tells whoever opens the output page in an ordinary browser that its link is refused for good (token rotated,
 * channel deleted), instead of leaving them a blank page. The server says so with a close code when it drops an
 * open socket; a refused upgrade reaches the page only as a socket that never opened, so the page then asks the
 * server whether its token still opens the channel. Not used inside OBS or CasparCG (main.ts): nothing may go on air.
 */
import { CloseCode } from '@onair/protocol';
import type { LinkNotice } from './link-notice.js';

export interface LinkCheck {
  /** A socket closed with `code`; `opened` says whether it ever opened. */
  closed(code: number, opened: boolean): void;
  /** A snapshot arrived: the link works (again). */
  connected(): void;
}

export interface LinkCheckDeps {
  notice: LinkNotice;
  /** The HTTP status of the server's answer to "does my token open this channel?"; rejects when unreachable. */
  askAccess: () => Promise<number>;
}

/** Close codes that mean this link will not open the channel again. */
const REFUSED = new Set<number>([CloseCode.unauthorized, CloseCode.tokenRotated, CloseCode.channelDeleted]);

export function createLinkCheck({ notice, askAccess }: LinkCheckDeps): LinkCheck {
  // Bumped by every snapshot: an answer to a question asked before the line came back is stale.
  let generation = 0;
  let asking = false;
  const ask = () => {
    const askedAt = generation;
    asking = true;
    askAccess()
      .then(
        (status) => {
          if (askedAt === generation && (status === 401 || status === 404)) notice.show();
        },
        // Unreachable: the server is down or restarting, not refusing; the socket keeps retrying.
        () => undefined,
      )
      .finally(() => (asking = false));
  };
  return {
    closed(code, opened) {
      if (REFUSED.has(code)) notice.show();
      else if (!opened && !asking) ask();
    },
    connected() {
      generation += 1;
      notice.hide();
    },
  };
}
