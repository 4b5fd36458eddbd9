/** The orders outputs are listed in (docs/outputs.md). */
import type { OutputView } from '@onair/protocol';

const HEALTH_ORDER = { error: 0, lagging: 1, ok: 2 } as const;

/** Least healthy first (a stable sort keeps the order within a health). */
export const byHealth = (a: OutputView, b: OutputView): number => HEALTH_ORDER[a.health] - HEALTH_ORDER[b.health];

/** In connection order (ids sort by creation). */
export const byId = (a: OutputView, b: OutputView): number => (a.id < b.id ? -1 : 1);
