/**
 * The OGraf v1 graphics manifest (`*.ograf.json`, docs/ograf.md) as onair accepts it: the fields of the EBU JSON schema
 * (specification/json-schemas/graphics/schema.json), vendor fields `v_*` anywhere the schema allows them, the newer
 * optional `actionDurations`, and nothing else. The type is checked at compile time against the `ograf` package's
 * `GraphicsManifest`, so a field the typings know and this schema misses (or types otherwise) fails the build.
 */
import type { GraphicsManifest } from 'ograf';
import { z } from 'zod';

export const MANIFEST_SCHEMA_URL = 'https://ograf.ebu.io/v1/specification/json-schemas/graphics/schema.json';

const VENDOR = /^v_/;

/** An object of `shape` that also takes vendor fields (`v_*`) and refuses every other unknown field. */
function vendorObject<S extends z.ZodRawShape>(shape: S) {
  return z
    .object(shape)
    .catchall(z.unknown())
    .superRefine(
      (value, ctx) => {
        for (const key of Object.keys(value)) {
          if (key in shape || VENDOR.test(key)) continue;
          ctx.addIssue({ code: 'custom', path: [key], message: 'unknown field (vendor fields start with v_)' });
        }
      },
      // Unknown fields are reported beside the other problems of the object, not only once it is otherwise valid.
      { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
    );
}

/** The GDD types the JSON schema's `type` may take (json-schemas/gdd/object.json). */
const GDD_BASIC_TYPES = ['boolean', 'string', 'number', 'integer', 'array', 'object'] as const;

/** What the v1 schema asks of a property with a known `gddType` (its json-schemas/gdd/gdd-types.json). */
const GDD_TYPE_RULES: Record<string, { types: readonly string[]; pattern?: string; select?: true }> = {
  'single-line': { types: ['string'] },
  'multi-line': { types: ['string'] },
  'file-path': { types: ['string'] },
  'file-path/image-path': { types: ['string'] },
  select: { types: ['string', 'number', 'integer'], select: true },
  'color-rrggbb': { types: ['string'], pattern: '^#[0-9a-f]{6}$' },
  'color-rrggbbaa': { types: ['string'], pattern: '^#[0-9a-f]{8}$' },
  percentage: { types: ['number'] },
  'duration-ms': { types: ['integer'] },
};

type GddProperty = { type: (typeof GDD_BASIC_TYPES)[number]; [k: string]: unknown };

/**
 * Where a GDD schema departs from the v1 schema's rules for its known `gddType`s (a color without its exact pattern,
 * a select without labels): graphics in the wild often do, and onair plays them as they are, so these are warnings,
 * each `<field path>: <what the rule asks>`.
 */
export function gddTypeDepartures(schema: unknown, at = 'schema'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const p = schema as { type?: unknown; gddType?: unknown; gddOptions?: { labels?: unknown }; [k: string]: unknown };
  const found: string[] = [];
  const rule = typeof p.gddType === 'string' ? GDD_TYPE_RULES[p.gddType] : undefined;
  if (rule) {
    const name = String(p.gddType);
    if (!rule.types.includes(String(p.type)))
      found.push(`${at}.type: gddType ${name} asks for type ${rule.types.join(' or ')}`);
    if (rule.pattern !== undefined && p.pattern !== rule.pattern)
      found.push(`${at}.pattern: gddType ${name} asks for "pattern": "${rule.pattern}"`);
    if (rule.select && !Array.isArray(p.enum)) found.push(`${at}.enum: gddType select asks for an enum of its values`);
    const labels = p.gddOptions?.labels;
    if (rule.select && (typeof labels !== 'object' || labels === null || Array.isArray(labels)))
      found.push(`${at}.gddOptions.labels: gddType select asks for a label per value`);
  }
  if (typeof p.properties === 'object' && p.properties !== null) {
    for (const [key, child] of Object.entries(p.properties))
      found.push(...gddTypeDepartures(child, `${at}.properties.${key}`));
  }
  if (p.items !== undefined) found.push(...gddTypeDepartures(p.items, `${at}.items`));
  return found;
}

/**
 * A GDD schema (a JSON schema with `gddType` annotations). JSON schema keywords are open, so only what onair reads is
 * checked: every property (nested too) has a `type` of the GDD basic types. The rules of the known `gddType`s are
 * warnings (gddTypeDepartures).
 */
export const GddSchema: z.ZodType<GddProperty> = z.lazy(() =>
  z
    .object({
      type: z.enum(GDD_BASIC_TYPES),
      gddType: z.string().optional(),
      gddOptions: z.record(z.string(), z.unknown()).optional(),
      properties: z.record(z.string(), GddSchema).optional(),
      items: GddSchema.optional(),
    })
    .catchall(z.unknown()),
);

const NumberConstraint = vendorObject({
  max: z.number().optional(),
  min: z.number().optional(),
  exact: z.number().optional(),
  ideal: z.number().optional(),
});

const BooleanConstraint = vendorObject({ exact: z.boolean().optional(), ideal: z.boolean().optional() });

const RenderRequirement = vendorObject({
  resolution: z
    .object({ width: NumberConstraint.optional(), height: NumberConstraint.optional() })
    .catchall(z.unknown())
    .optional(),
  frameRate: NumberConstraint.optional(),
  accessToPublicInternet: BooleanConstraint.optional(),
  engine: z
    .array(
      z
        .object({ type: z.string(), version: z.object({ min: z.string() }).catchall(z.unknown()) })
        .catchall(z.unknown()),
    )
    .optional(),
});

const Thumbnail = vendorObject({
  file: z.string().min(1),
  resolution: z
    .object({ width: z.number().int().min(1), height: z.number().int().min(1) })
    .catchall(z.unknown())
    .optional(),
});

export const CustomActionIn = vendorObject({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  schema: GddSchema.nullable().optional(),
});

const shape = {
  $schema: z.literal(MANIFEST_SCHEMA_URL, { error: `must be "${MANIFEST_SCHEMA_URL}"` }),
  id: z.string().min(1),
  version: z.string().optional(),
  main: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  author: vendorObject({ name: z.string(), email: z.string().optional(), url: z.string().optional() }).optional(),
  customActions: z.array(CustomActionIn).optional(),
  supportsRealTime: z.boolean(),
  supportsNonRealTime: z.boolean(),
  stepCount: z.number().int().min(-1).optional(),
  schema: GddSchema.optional(),
  renderRequirements: z.array(RenderRequirement).optional(),
  thumbnails: z.array(Thumbnail).optional(),
  /** Newer than the published typings: how long each action takes, in milliseconds (kept as it is). */
  actionDurations: z.record(z.string(), z.unknown()).optional(),
};

export const GraphicsManifestIn = vendorObject(shape);

export type Manifest = z.output<typeof GraphicsManifestIn>;

// Compile-time agreement with the `ograf` typings: what this schema accepts is a GraphicsManifest, and every field
// the typings name is declared here (vendor fields aside).
type Assert<T extends true> = T;
export type ManifestFitsTypings = Assert<Manifest extends GraphicsManifest ? true : false>;
export type ManifestCoversTypings = Assert<
  Exclude<keyof GraphicsManifest, keyof typeof shape | `v_${string}`> extends never ? true : false
>;
