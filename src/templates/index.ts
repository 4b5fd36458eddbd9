import { lowerThird } from './lower-third.js';
import { scoreboard } from './scoreboard.js';
import type { Template } from './template.js';

export type { Template };

export const TEMPLATES: readonly Template[] = [scoreboard, lowerThird];

export function findTemplate(id: string): Template | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
