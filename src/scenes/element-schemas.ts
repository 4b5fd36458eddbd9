/**
 * The drawing part of a scene definition as the API accepts it (docs/scenes.md, "Elements"): the seven element
 * types, colours and fills. Each schema's output is the protocol's own type (protocol/src/scene.ts), so the
 * compiler keeps the two in step; names and colours follow the protocol's rules (protocol/src/rules.ts).
 * Cross-references (placeholders, `visibleIf`, `visibleWhen`, clock names) are checked over the whole definition in
 * definition-checks.ts, where the inputs are known.
 */
import { z } from 'zod';
import {
  CLOCK_FORMATS,
  CRAWL_SPEED,
  FONT_FAMILIES,
  HEX_COLOR,
  NAME_PATTERN,
  NAME_RULE,
  RESERVED_NAME_RULE,
  RESERVED_NAMES,
  WHOLE_PLACEHOLDER,
  FONT_FAMILY_RULE,
  isFontFamily,
  imageAssetRef,
  type Fill,
  type SceneElement,
} from '@onair/protocol';

export const SCENE_LIMITS = {
  /** Elements in all, counting the children of groups. */
  elements: 500,
  /** Groups inside groups: a group's children may hold groups down to this depth. */
  groupDepth: 8,
  inputs: 200,
  triggers: 100,
  /** The periods of one clock. */
  periods: 20,
  /** The options of one select input. */
  options: 100,
  /** The columns of one list input, and the most rows one may allow. */
  listColumns: 10,
  listRows: 100,
  gradientStops: 20,
  keyframes: 50,
  durationMs: 10_000,
  /** Characters of a text, colour or source string. */
  string: 4096,
} as const;

/** The name of an input, element or trigger. */
export const InputName = z
  .string()
  .regex(NAME_PATTERN, NAME_RULE)
  .refine((n) => !RESERVED_NAMES.has(n), RESERVED_NAME_RULE);

export const Coord = z.number().min(-10_000).max(10_000);
export const Size = z.number().min(0).max(10_000);
export const Degrees = z.number().min(-360).max(360);
export const Scale = z.number().min(0).max(10);
export const Opacity = z.number().min(0).max(1);
export const DurationMs = z.number().min(0).max(SCENE_LIMITS.durationMs);

export const ColorRef = z
  .string()
  .max(200)
  .refine(
    (s) => HEX_COLOR.test(s) || WHOLE_PLACEHOLDER.test(s),
    'must be a colour (#rgb, #rgba, #rrggbb or #rrggbbaa) or {name} of a color input',
  )
  .meta({ id: 'ColorRef', example: '#101820' });

const GradientStop = z.strictObject({ at: z.number().min(0).max(1), color: ColorRef });
const Gradient = z.strictObject({
  gradient: z.strictObject({
    angle: Degrees.meta({ description: 'Degrees, as CSS: 0 paints bottom to top, 90 left to right.' }),
    stops: z.array(GradientStop).min(2).max(SCENE_LIMITS.gradientStops),
  }),
});
export const FillIn: z.ZodType<Fill> = stringOrObject(ColorRef, Gradient, 'a colour or a { gradient }').meta({
  id: 'Fill',
});

/** A value visibleWhen compares an input with. */
const Comparable = z.union([z.string().max(SCENE_LIMITS.string), z.number(), z.boolean()]);

const VisibleWhenIn = z
  .strictObject({
    input: InputName,
    equals: Comparable.optional(),
    notEquals: Comparable.optional(),
    atLeast: z.number().min(-1e15).max(1e15).optional(),
  })
  .refine(
    (w) => [w.equals, w.notEquals, w.atLeast].filter((c) => c !== undefined).length === 1,
    'give exactly one of equals, notEquals and atLeast',
  )
  .meta({
    id: 'VisibleWhen',
    description:
      'Drawn only while the input equals a value, or does not equal it, or (a number input) is at least a number.',
  });

const base = {
  name: InputName.optional().meta({ description: 'Unique within the scene; what triggers target.' }),
  x: Coord,
  y: Coord,
  width: Size,
  height: Size,
  opacity: Opacity.optional(),
  rotation: Degrees.optional(),
  scale: Scale.optional(),
  visibleIf: InputName.optional().meta({ description: 'A boolean input: drawn only while it is true.' }),
  visibleWhen: VisibleWhenIn.optional(),
  delayMs: DurationMs.optional(),
};

/**
 * A bundled family, or a WOFF2 font of the asset library by its path or URL. Whether the workspace holds that font
 * is checked when the scene is saved (operations/asset-refs.ts).
 */
export const FontFamilyIn = z
  .string()
  .max(SCENE_LIMITS.string)
  .refine(isFontFamily, FONT_FAMILY_RULE)
  .meta({
    id: 'FontFamily',
    description: `A bundled family (${FONT_FAMILIES.join(', ')}; default Inter), or a WOFF2 font of the workspace's asset library: its path (\`/assets/{sha256}.woff2\`) or URL.`,
    example: 'Inter',
  });

const textStyle = {
  fontFamily: FontFamilyIn.optional(),
  fontWeight: z.number().int().min(100).max(900).optional(),
  fontSize: z.number().min(1).max(1000),
  color: ColorRef.optional(),
  align: z.enum(['left', 'center', 'right']).optional(),
  letterSpacing: z.number().min(-100).max(100).optional(),
  uppercase: z.boolean().optional(),
  shrink: z.boolean().optional(),
  minFontSize: z
    .number()
    .min(1)
    .max(1000)
    .optional()
    .meta({ description: 'Pixels: the smallest size shrink goes down to (default 75 % of fontSize).' }),
};

export const TextElementIn = z
  .strictObject({
    type: z.literal('text'),
    ...base,
    ...textStyle,
    text: z.string().max(SCENE_LIMITS.string),
    minWidth: Size.optional().meta({ description: 'The box fits its text, between minWidth and width.' }),
  })
  .meta({ id: 'TextElement' });

export const BoxElementIn = z
  .strictObject({
    type: z.literal('box'),
    ...base,
    fill: FillIn.optional(),
    border: z.strictObject({ width: z.number().min(0).max(1000), color: ColorRef }).optional(),
    radius: Size.optional(),
    shadow: z
      .strictObject({
        x: z.number().min(-1000).max(1000),
        y: z.number().min(-1000).max(1000),
        blur: z.number().min(0).max(1000),
        color: ColorRef,
      })
      .optional(),
    followWidth: InputName.optional().meta({
      description: 'A text element with minWidth at the same level: the box follows its width.',
    }),
  })
  .meta({ id: 'BoxElement' });

export const ImageSrc = z
  .string()
  .max(SCENE_LIMITS.string)
  .refine(
    (s) => WHOLE_PLACEHOLDER.test(s) || isHttpUrl(s) || imageAssetRef(s) !== null,
    "must be an http(s) URL, an image's path in the asset library, or {name} of an image or asset input",
  );

export const ImageElementIn = z
  .strictObject({
    type: z.literal('image'),
    ...base,
    src: ImageSrc,
    fit: z.enum(['contain', 'cover', 'fill']).optional(),
  })
  .meta({ id: 'ImageElement' });

export const ClockElementIn = z
  .strictObject({
    type: z.literal('clock'),
    ...base,
    ...textStyle,
    clock: InputName,
    format: z.enum(CLOCK_FORMATS).optional(),
  })
  .meta({ id: 'ClockElement' });

export const GroupElementIn = z
  .strictObject({
    type: z.literal('group'),
    ...base,
    // A getter: the group holds elements, groups among them (the OpenAPI document refers back by name).
    get children(): z.ZodArray<z.ZodType<SceneElement>> {
      return z.array(SceneElementIn);
    },
  })
  .meta({ id: 'GroupElement' });

export const RowsElementIn = z
  .strictObject({
    type: z.literal('rows'),
    ...base,
    list: InputName.meta({ description: 'A list input: the children are drawn once per row.' }),
    rowHeight: z.number().min(1).max(4096).meta({ description: "Pixels from one row's top to the next's." }),
    get children(): z.ZodArray<z.ZodType<SceneElement>> {
      return z.array(SceneElementIn);
    },
  })
  .meta({ id: 'RowsElement' });

/** A crawl never shrinks, cuts or aligns its line: it moves. It takes the rest of the text styling. */
const { fontFamily, fontWeight, fontSize, color, letterSpacing, uppercase } = textStyle;

export const CrawlElementIn = z
  .strictObject({
    type: z.literal('crawl'),
    ...base,
    fontFamily,
    fontWeight,
    fontSize,
    color,
    letterSpacing,
    uppercase,
    list: InputName.meta({ description: 'A list input: each row is one item of the crawl.' }),
    text: z.string().max(SCENE_LIMITS.string).meta({ description: "One item; {column} shows the row's cell." }),
    separator: z.string().max(200).optional().meta({ description: 'Drawn between items, as written (default " • ").' }),
    speed: z
      .number()
      .min(CRAWL_SPEED.min)
      .max(CRAWL_SPEED.max)
      .optional()
      .meta({ description: `Stage pixels a second (default ${CRAWL_SPEED.default}).` }),
  })
  .meta({ id: 'CrawlElement' });

export const SceneElementIn: z.ZodType<SceneElement> = z
  .discriminatedUnion('type', [
    TextElementIn,
    BoxElementIn,
    ImageElementIn,
    ClockElementIn,
    GroupElementIn,
    RowsElementIn,
    CrawlElementIn,
  ])
  .meta({ id: 'SceneElement' });

/**
 * A union of a string and an object schema that reads the value with the one its JSON type picks. zod's own
 * union, when every option fails, reports a bare "Invalid input" at the union; this reports the chosen
 * option's problems at their own paths (`fill.gradient.stops.3.color`). The document shows the plain union.
 */
export function stringOrObject<S extends z.ZodType, O extends z.ZodType>(str: S, obj: O, what: string) {
  const pick = (value: unknown, ctx: z.core.$RefinementCtx): unknown => {
    const option = typeof value === 'string' ? str : typeof value === 'object' && value !== null ? obj : undefined;
    const result = option?.safeParse(value);
    for (const issue of result?.error?.issues ?? []) ctx.addIssue({ ...issue, input: value } as never);
    return value;
  };
  return z.preprocess(pick, z.union([str, obj], { error: `must be ${what}` }));
}

function isHttpUrl(s: string): boolean {
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Refuses groups nested past the limit before the recursive schema reads them: zod walks nesting by recursion,
 * and a 64 KiB body can nest groups thousands deep, enough to overflow the stack. Iterative, on the raw JSON.
 */
export function guardGroupDepth(value: unknown, ctx: z.core.$RefinementCtx): unknown {
  const stack: { node: unknown; path: (string | number)[]; depth: number }[] = [{ node: value, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (!Array.isArray(node)) continue;
    node.forEach((el: unknown, i) => {
      if (typeof el !== 'object' || el === null || !('children' in el)) return;
      if (depth + 1 > SCENE_LIMITS.groupDepth) {
        ctx.addIssue({
          code: 'custom',
          path: [...path, i],
          message: `groups nest at most ${SCENE_LIMITS.groupDepth} deep`,
          input: el,
        });
        return;
      }
      stack.push({ node: el.children, path: [...path, i, 'children'], depth: depth + 1 });
    });
  }
  return value;
}
