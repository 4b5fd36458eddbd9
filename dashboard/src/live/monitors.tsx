import type { OutputsMessage } from '@onair/protocol';
import type { Channel } from '../channels-api.js';
import { OutputChips } from './output-chips.js';

/**
 * Preview and program side by side: the real output page in iframes (the same URLs OBS uses), so what the
 * operator sees is what goes to air. The page scales its stage to the frame. The channel's outputs show beside the
 * program's tally.
 */
export function Monitors({
  channel,
  outputs,
  onProgram,
}: {
  channel: Channel;
  outputs: OutputsMessage | null;
  onProgram: boolean;
}) {
  return (
    <div class="monitors">
      <figure class="monitor preview">
        <figcaption>
          <span class="tally cued">PREVIEW</span>
        </figcaption>
        <iframe
          title="Preview monitor"
          src={`${channel.previewUrl}&clean=1&monitor=1`}
          style={{ aspectRatio: `${channel.width} / ${channel.height}` }}
        />
      </figure>
      <figure class="monitor program">
        <figcaption>
          <span class="tally on">PROGRAM</span>
          <OutputChips outputs={outputs} onProgram={onProgram} />
        </figcaption>
        <iframe
          title="Program monitor"
          src={`${channel.outputUrl}&monitor=1`}
          style={{ aspectRatio: `${channel.width} / ${channel.height}` }}
        />
      </figure>
    </div>
  );
}
