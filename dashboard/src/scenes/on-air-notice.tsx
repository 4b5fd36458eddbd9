import type { SceneBuses } from './use-scene-buses.js';

/**
 * Tells the editor's user that the scene is on air or cued, and what Save will do to air: the server redraws an
 * on-air scene whose definition changed at the next frame, without a transition.
 */
export function OnAirNotice({ buses }: { buses: SceneBuses | null }) {
  if (!buses) return null;
  const onProgram = buses.program.length > 0;
  const cued = buses.preview.length > 0;
  if (!onProgram && !cued)
    return (
      <p class="hint small on-air-none" data-on-air="none">
        Not on air or cued: saving changes nothing on air.
      </p>
    );
  const layers = (list: number[]) => `layer ${list.join(', ')}`;
  return (
    <div class={`on-air-notice ${onProgram ? 'program' : 'preview'}`} data-on-air={onProgram ? 'program' : 'preview'}>
      <strong>{onProgram ? 'ON AIR' : 'CUED'}</strong>{' '}
      {onProgram
        ? `This scene is on program now (${layers(buses.program)})${cued ? ` and cued in preview (${layers(buses.preview)})` : ''}. Save changes the graphic on air at the next frame: viewers see your changes at once, without a transition.`
        : `This scene is cued in preview (${layers(buses.preview)}). Save changes the cued graphic at the next frame; it goes to air with your changes at the next Take.`}
    </div>
  );
}
