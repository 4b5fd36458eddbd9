/**
 * The program and preview buses: one entry per layer, sorted by layer. Bus arrays are never changed in
 * place, only replaced, so a live state can share them (and a store can share one empty bus among
 * thousands of idle channels).
 */
import type { PreviewEntry, ProgramEntry } from '@onair/protocol';

type Entry = ProgramEntry | PreviewEntry;

/** The empty bus, shared; frozen so that changing it in place fails loudly. */
export const EMPTY_BUS: never[] = Object.freeze([]) as unknown as never[];

export function entryAt<E extends Entry>(bus: readonly E[], layer: number): E | undefined {
  return bus.find((e) => e.layer === layer);
}

/** The bus with `entry` on its layer, replacing whatever was there. */
export function withEntry<E extends Entry>(bus: readonly E[], entry: E): E[] {
  return [...bus.filter((e) => e.layer !== entry.layer), entry].sort((a, b) => a.layer - b.layer);
}

/** The bus without the entries `drop` selects. */
export function without<E extends Entry>(bus: readonly E[], drop: (e: E) => boolean): E[] {
  const kept = bus.filter((e) => !drop(e));
  return kept.length === 0 ? EMPTY_BUS : kept;
}

/** Where a scene is: each bus and layer it occupies. */
export interface SceneOnBus {
  bus: 'program' | 'preview';
  layer: number;
}

export function busesOf(
  sceneId: string,
  program: readonly ProgramEntry[],
  preview: readonly PreviewEntry[],
): SceneOnBus[] {
  return [
    ...program.filter((e) => e.sceneId === sceneId).map((e) => ({ bus: 'program' as const, layer: e.layer })),
    ...preview.filter((e) => e.sceneId === sceneId).map((e) => ({ bus: 'preview' as const, layer: e.layer })),
  ];
}

/** Scenes on program or preview, each once: program first, then preview, by layer. */
export function scenesOnBuses(program: readonly ProgramEntry[], preview: readonly PreviewEntry[]): string[] {
  return [...new Set([...program.map((e) => e.sceneId), ...preview.map((e) => e.sceneId)])];
}
