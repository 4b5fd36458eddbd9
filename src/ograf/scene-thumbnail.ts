/**
 * A thumbnail of a scene drawn without a browser: its elements' boxes in their colours (a box's fill, a text's
 * colour, images in grey) on a dark ground, at the stage's proportions. A sketch for a controller's list, not the
 * picture the scene draws.
 */
import { HEX_COLOR, WHOLE_PLACEHOLDER, type SceneDefinition, type SceneElement } from '@onair/protocol';
import { encodePng } from './png.js';

const WIDTH = 480;
const GROUND: Rgb = [32, 34, 40];
const IMAGE: Rgb = [128, 128, 128];
type Rgb = [number, number, number];

interface Canvas {
  width: number;
  height: number;
  scale: number;
  rgb: Uint8Array;
}

export function sceneThumbnail(definition: SceneDefinition, stage: { width: number; height: number }) {
  const scale = WIDTH / stage.width;
  const height = Math.max(1, Math.round(stage.height * scale));
  const canvas: Canvas = { width: WIDTH, height, scale, rgb: new Uint8Array(WIDTH * height * 3) };
  fill(canvas, { x: 0, y: 0, width: stage.width, height: stage.height }, [...GROUND, 1]);
  const defaults = new Map(definition.inputs.map((i) => [i.name, i.default]));
  draw(canvas, definition.elements, 0, 0, (ref) => colourOf(ref, defaults));
  return { png: encodePng(WIDTH, height, canvas.rgb), width: WIDTH, height };
}

type Colour = (ref: unknown) => [number, number, number, number] | null;

function draw(canvas: Canvas, elements: readonly SceneElement[], dx: number, dy: number, colour: Colour): void {
  for (const el of elements) {
    const box = { x: el.x + dx, y: el.y + dy, width: el.width, height: el.height };
    const rgba = elementColour(el, colour);
    if (rgba) fill(canvas, el.type === 'text' || el.type === 'clock' ? textBand(box) : box, rgba);
    if (el.type === 'group' || el.type === 'rows') draw(canvas, el.children, box.x, box.y, colour);
  }
}

function elementColour(el: SceneElement, colour: Colour): [number, number, number, number] | null {
  if (el.type === 'box') return colour(typeof el.fill === 'object' ? el.fill.gradient.stops[0]?.color : el.fill);
  if (el.type === 'text' || el.type === 'clock' || el.type === 'crawl') return colour(el.color ?? '#ffffff');
  if (el.type === 'image') return [...IMAGE, 1];
  return null;
}

/** Text as a bar across the middle of its box: where the letters would be. */
function textBand(box: { x: number; y: number; width: number; height: number }) {
  return { x: box.x, y: box.y + box.height * 0.3, width: box.width, height: box.height * 0.4 };
}

function colourOf(ref: unknown, defaults: Map<string, unknown>): [number, number, number, number] | null {
  if (typeof ref !== 'string') return null;
  const input = WHOLE_PLACEHOLDER.exec(ref)?.[1];
  const value = input === undefined ? ref : defaults.get(input);
  if (typeof value !== 'string' || !HEX_COLOR.test(value)) return null;
  const hex = value.slice(1);
  const full = hex.length <= 4 ? [...hex].map((ch) => ch + ch).join('') : hex;
  const part = (i: number) => parseInt(full.slice(i * 2, i * 2 + 2), 16);
  return [part(0), part(1), part(2), full.length === 8 ? part(3) / 255 : 1];
}

function fill(canvas: Canvas, box: { x: number; y: number; width: number; height: number }, rgba: number[]): void {
  const [r = 0, g = 0, b = 0, a = 1] = rgba;
  const x0 = Math.max(0, Math.round(box.x * canvas.scale));
  const y0 = Math.max(0, Math.round(box.y * canvas.scale));
  const x1 = Math.min(canvas.width, Math.round((box.x + box.width) * canvas.scale));
  const y1 = Math.min(canvas.height, Math.round((box.y + box.height) * canvas.scale));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * canvas.width + x) * 3;
      canvas.rgb[i] = Math.round(r * a + (canvas.rgb[i] ?? 0) * (1 - a));
      canvas.rgb[i + 1] = Math.round(g * a + (canvas.rgb[i + 1] ?? 0) * (1 - a));
      canvas.rgb[i + 2] = Math.round(b * a + (canvas.rgb[i + 2] ?? 0) * (1 - a));
    }
  }
}
