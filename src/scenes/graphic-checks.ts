/**
 * The rules of a scene drawn by an OGraf graphic (docs/ograf.md, "A scene from a graphic"), beside the scene format's
 * own (./definition-checks.ts): the graphic draws it, so it has no elements; each place its data goes names one of its
 * inputs; a trigger either animates (native scenes) or runs a custom action of the graphic, never both.
 */
import type { GraphicRef, SceneElement, TriggerDef } from '@onair/protocol';

type Report = (path: (string | number)[], message: string) => void;

export function checkGraphic(
  def: {
    graphic?: Pick<GraphicRef, 'data'> | undefined;
    elements: SceneElement[];
    triggers: TriggerDef[];
    inputs: { name: string }[];
  },
  report: Report,
): void {
  const { graphic } = def;
  def.triggers.forEach((t, i) => {
    if (t.customAction !== undefined && graphic === undefined) {
      report(['triggers', i, 'customAction'], 'only a scene made from a graphic runs custom actions');
    }
    if (t.customAction !== undefined && t.animation !== undefined) {
      report(['triggers', i, 'animation'], 'a custom action trigger has no animation: the graphic plays it');
    }
    if (t.customAction === undefined && t.animation === undefined) {
      report(['triggers', i, 'animation'], 'required (or customAction, on a scene made from a graphic)');
    }
  });
  if (graphic === undefined) return;
  if (def.elements.length > 0)
    report(['elements'], 'a scene made from a graphic has no elements: the graphic draws it');
  const inputs = new Set(def.inputs.map((i) => i.name));
  graphic.data.forEach((d, j) => {
    if (!inputs.has(d.input)) report(['graphic', 'data', j, 'input'], `"${d.input}" is not an input of this scene`);
  });
}
