import { basketballScoreboard } from './basketball.js';
import { countdown } from './countdown.js';
import { finalScore } from './final-score.js';
import { footballScoreboard } from './football.js';
import { logoBug } from './logo-bug.js';
import { lowerThird } from './lower-third.js';
import { scoreboard } from './scoreboard.js';
import { sponsorBug } from './sponsor-bug.js';
import { standingsTable } from './standings.js';
import { ticker } from './ticker.js';
import type { Template } from './template.js';

export type { Template };

/** The built-in templates, in the order GET /v1/templates lists them (docs/scenes.md, "Templates"). */
export const TEMPLATES: readonly Template[] = [
  scoreboard,
  lowerThird,
  finalScore,
  countdown,
  logoBug,
  basketballScoreboard,
  sponsorBug,
  footballScoreboard,
  standingsTable,
  ticker,
];

export function findTemplate(id: string): Template | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
