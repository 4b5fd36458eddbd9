/** What the OGraf Server API answers about a channel as a renderer and its layers as render targets. Pure. */
import type { ChannelState } from '../../engine/index.js';
import type { ChannelView } from '../../operations/index.js';
import type { SceneView } from '../../scenes/scene-view.js';
import { entryOfInstance, graphicIdOf, instanceId, RENDER_TARGET_SCHEMA, sceneGraphicId } from './render-targets.js';

type Scenes = readonly SceneView[];

function graphicOf(sceneId: string, scenes: Scenes) {
  const scene = scenes.find((s) => s.id === sceneId);
  return scene ? { id: graphicIdOf(scene), name: scene.name } : { id: sceneGraphicId(sceneId), name: sceneId };
}

/** A layer: what is playing on it (program) and loaded (preview), each instance once. */
export function targetInfo(layer: number, state: ChannelState, scenes: Scenes) {
  const onLayer = (e: { layer: number }) => e.layer === layer;
  const instances = new Map<string, string>();
  for (const e of state.program.filter(onLayer)) instances.set(instanceId(e), e.sceneId);
  for (const e of state.preview.filter(onLayer)) instances.set(instanceId(e, 'preview', state.program), e.sceneId);
  return {
    renderTarget: { layer },
    name: `Layer ${layer}`,
    graphicInstances: [...instances].map(([graphicInstanceId, sceneId]) => ({
      graphicInstanceId,
      graphic: graphicOf(sceneId, scenes),
    })),
  };
}

/** What the renderer's status reads of an output page (GET …/outputs). */
export interface OutputSummary {
  bus: string;
  health: string;
  errors: readonly { message: string }[];
}

/**
 * The renderer's status from the output pages showing its program (docs/outputs.md): ERROR when one reports a failure,
 * WARNING when one lags or when none shows the program (what plays is drawn nowhere), OK otherwise.
 */
export function rendererStatus(state: ChannelState, outputs: readonly OutputSummary[]) {
  const program = outputs.filter((o) => o.bus === 'program');
  const failing = program.filter((o) => o.health === 'error');
  const lagging = program.filter((o) => o.health === 'lagging');
  const of = (n: number) => `${n} of ${program.length} program output(s)`;
  if (program.length === 0)
    return { status: 'WARNING' as const, message: 'No output page shows the program: what plays is drawn nowhere.' };
  if (failing.length > 0) {
    const last = failing[0]!.errors.at(-1)?.message;
    return { status: 'ERROR' as const, message: `${of(failing.length)} failing${last ? `: ${last}` : ''}` };
  }
  if (lagging.length > 0) return { status: 'WARNING' as const, message: `${of(lagging.length)} lagging` };
  return { status: 'OK' as const, message: `${state.program.length} layer(s) on air, on ${program.length} output(s)` };
}

export function rendererInfo(
  channel: ChannelView,
  state: ChannelState,
  scenes: Scenes,
  outputs: readonly OutputSummary[],
) {
  const layers = [...new Set([...state.program, ...state.preview].map((e) => e.layer))].sort((a, b) => a - b);
  return {
    id: channel.id,
    name: channel.name,
    customActions: [],
    renderCharacteristics: {
      resolution: { width: channel.width, height: channel.height },
      frameRate: channel.fps,
    },
    renderTargetSchema: RENDER_TARGET_SCHEMA,
    status: rendererStatus(state, outputs),
    renderTargets: layers.map((layer) => targetInfo(layer, state, scenes)),
  };
}

/** The instance `id` on `layer`: its scene, whether it plays (program), and the values it carries. */
export function findInstance(state: ChannelState, scenes: Scenes, layer: number, id: string) {
  const onLayer = (e: { layer: number }) => e.layer === layer;
  const found = entryOfInstance(id, state.program.filter(onLayer), state.preview.filter(onLayer));
  const scene = found && scenes.find((s) => s.id === found.entry.sceneId);
  if (!found || !scene) return null;
  const { entry, onProgram } = found;
  return { layer, scene, onProgram, values: entry.values, step: onProgram ? (entry.step ?? 0) : 0 };
}
