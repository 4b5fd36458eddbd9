/**
 * WebSocket close codes (docs/api.md, "Close codes"). 1000–1999 are the standard ones; 4000–4099 mean "do not
 * reconnect with the same credentials" (a renderer keeps retrying slowly, since an operator may fix the URL's
 * channel); 4100–4199 mean "reconnect soon".
 */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  unauthorized: 4001,
  forbidden: 4003,
  notFound: 4004,
  tokenRotated: 4009,
  channelDeleted: 4010,
  /** Too many error replies in 10 s: the client keeps sending what cannot be done (429 as a close code). */
  tooManyErrors: 4029,
  /** More unsent data than the server keeps for a connection: reconnect and start from a fresh snapshot. */
  slowConsumer: 4100,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** True when a close code tells the client its credentials or channel are no longer valid. */
export function isTerminalClose(code: number): boolean {
  return code >= 4000 && code < 4100;
}
