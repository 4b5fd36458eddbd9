/**
 * The channel's outputs at a glance, beside the program monitor (docs/dashboard.md, "Outputs"): one chip per output
 * with its kind, bus, health in colour and in words, and lag; opened, the details. Says so in amber when something is
 * on program and no program output draws it, and when a page with a wrong or old token tried to connect.
 */
import type { OutputsMessage, OutputView } from '@onair/protocol';
import { healthLabel, kindLabel } from './output-labels.js';

export function OutputChips({ outputs, onProgram }: { outputs: OutputsMessage | null; onProgram: boolean }) {
  const list = outputs?.outputs ?? [];
  const noProgram = onProgram && !list.some((o) => o.bus === 'program');
  const refused = outputs?.refused;
  return (
    <div class="outputs" role="group" aria-label="Outputs">
      {list.map((o) => (
        <OutputChip key={o.id} output={o} />
      ))}
      {list.length === 0 && !noProgram && <span class="hint small">No outputs</span>}
      {outputs && outputs.total > list.length && <span class="hint small">+{outputs.total - list.length} more</span>}
      {noProgram && <span class="output-warn">No output connected</span>}
      {refused && (
        <span class="output-warn" title={`${refused.count} refused since the server started`}>
          An output with a wrong or old token tried to connect at {new Date(refused.lastAt).toLocaleTimeString()} from{' '}
          {refused.lastAddress}
        </span>
      )}
    </div>
  );
}

function OutputChip({ output: o }: { output: OutputView }) {
  const lag = o.lagFrames > 0 ? ` · ${o.lagFrames} f behind` : '';
  return (
    <details class={`output-chip ${o.health}`} data-output={o.id} data-health={o.health}>
      <summary>
        {kindLabel(o.kind)} · {o.bus} · <strong>{healthLabel(o.health)}</strong>
        {lag}
        {o.visible !== null && <> · {o.visible ? 'visible' : 'hidden'}</>}
        {o.active !== null && <> · {o.active ? 'active' : 'inactive'}</>}
      </summary>
      <dl class="output-details">
        <dt>Address</dt>
        <dd>{o.address}</dd>
        <dt>Connected since</dt>
        <dd>{new Date(o.connectedAt).toLocaleTimeString()}</dd>
        <dt>Painted frame</dt>
        <dd>{o.paintedFrame}</dd>
        <dt>Lag</dt>
        <dd>{o.lagFrames} frames</dd>
        <dt>Frame rate</dt>
        <dd>{Math.round(o.fps)} fps</dd>
        <dt>Size</dt>
        <dd>
          {o.size.width}×{o.size.height}
        </dd>
        {o.errors.length > 0 && (
          <>
            <dt>Load errors</dt>
            <dd>
              <ul>
                {o.errors.map((e, i) => (
                  <li key={i}>
                    {e.url ?? '(no URL)'}: {e.message}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
    </details>
  );
}
