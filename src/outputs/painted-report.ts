/**
 * Reading an output page's `painted` report (docs/outputs.md, "What a page reports"). What is too long is clipped
 * first (a string to its limit, a list to its first entries), then zod checks the shape: a page that sends too much
 * is cut down and counted, not refused. An error's URL never keeps an output token, and only OBS and CasparCG
 * say whether a source is visible or active (HOST_FLAG_KINDS).
 */
import { z } from 'zod';
import {
  HOST_FLAG_KINDS,
  OUTPUT_KINDS,
  REPORT_LIMITS,
  withoutToken,
  type OutputBus,
  type OutputKind,
  type PaintedError,
  type PaintedLayer,
} from '@onair/protocol';

/** A report as the server keeps it: every field filled in. */
export interface PaintedReport {
  frame: number;
  layers: PaintedLayer[];
  fps: number;
  width: number;
  height: number;
  kind: OutputKind;
  bus: OutputBus;
  visible: boolean | null;
  active: boolean | null;
  errors: PaintedError[];
}

export type ReadReport = { ok: true; report: PaintedReport; clipped: boolean } | { ok: false };

const Id = z.string().min(1);
const Flag = z.boolean().nullable().optional();

const Report = z.object({
  frame: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  layers: z.array(z.object({ layer: z.number().int(), sceneId: Id, itemId: Id.nullable(), inDone: z.boolean() })),
  fps: z.number().nonnegative().max(1_000),
  width: z.number().int().nonnegative().max(100_000),
  height: z.number().int().nonnegative().max(100_000),
  kind: z.enum(OUTPUT_KINDS).optional(),
  bus: z.enum(['program', 'preview']).optional(),
  visible: Flag,
  active: Flag,
  errors: z.array(z.object({ message: z.string(), url: z.string().nullable() })).optional(),
});

/** The report, or `ok: false` for what is not one; `clipped` says something was cut to the limits. */
export function readPaintedReport(raw: unknown): ReadReport {
  const clipping = { clipped: false };
  const parsed = Report.safeParse(clip(raw, clipping));
  if (!parsed.success) return { ok: false };
  const r = parsed.data;
  const kind = r.kind ?? 'browser';
  const flagged = HOST_FLAG_KINDS.includes(kind);
  return {
    ok: true,
    clipped: clipping.clipped,
    report: {
      frame: r.frame,
      layers: r.layers,
      fps: Math.round(r.fps),
      width: r.width,
      height: r.height,
      kind,
      bus: r.bus ?? 'program',
      visible: flagged ? (r.visible ?? null) : null,
      active: flagged ? (r.active ?? null) : null,
      errors: r.errors ?? [],
    },
  };
}

type Clipping = { clipped: boolean };

function clip(raw: unknown, c: Clipping): unknown {
  if (!isRecord(raw)) return raw;
  const out: Record<string, unknown> = { ...raw };
  if (Array.isArray(raw.layers)) out.layers = list(raw.layers, REPORT_LIMITS.layers, c).map((l) => clipLayer(l, c));
  if (Array.isArray(raw.errors)) out.errors = list(raw.errors, REPORT_LIMITS.errors, c).map((e) => clipError(e, c));
  return out;
}

function clipLayer(layer: unknown, c: Clipping): unknown {
  if (!isRecord(layer)) return layer;
  return {
    ...layer,
    sceneId: text(layer.sceneId, REPORT_LIMITS.id, c),
    itemId: text(layer.itemId, REPORT_LIMITS.id, c),
  };
}

function clipError(error: unknown, c: Clipping): unknown {
  if (!isRecord(error)) return error;
  const url = typeof error.url === 'string' ? withoutToken(text(withoutToken(error.url), REPORT_LIMITS.url, c)) : null;
  return { message: text(error.message, REPORT_LIMITS.message, c), url: url === '' ? null : url };
}

function list(items: unknown[], max: number, c: Clipping): unknown[] {
  if (items.length <= max) return items;
  c.clipped = true;
  return items.slice(0, max);
}

/** A string cut to `max` characters; anything else as it is (zod judges it). */
function text<T>(value: T, max: number, c: Clipping): T | string {
  if (typeof value !== 'string' || value.length <= max) return value;
  c.clipped = true;
  return value.slice(0, max);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
