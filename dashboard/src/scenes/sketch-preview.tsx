/**
 * The live preview: the real output page in sketch mode (`/render/<channelId>?sketch=1`) in a frame of the
 * channel's shape, fed by postMessage with a snapshot of the scene being edited. It opens no socket and nothing
 * it draws is on air; the page scales its stage to the frame.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { SceneView } from '@onair/protocol';
import { SKETCH_MESSAGE_TYPE, SKETCH_READY_TYPE } from '../../../renderer/src/sketch-feed.js';
import { buildSketchSnapshot, type LiveValues, type SketchChannel } from './sketch-snapshot.js';

export function SketchPreview({
  channel,
  scene,
  live,
}: {
  channel: SketchChannel;
  /** The last version that passed the dry run; null draws nothing. */
  scene: SceneView | null;
  live: LiveValues | null;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const latest = useRef({ channel, scene, live });
  latest.current = { channel, scene, live };

  const post = () => {
    const target = frame.current?.contentWindow;
    const { scene: current } = latest.current;
    if (!target || !current) return;
    const snapshot = buildSketchSnapshot(latest.current.channel, current, latest.current.live);
    target.postMessage({ type: SKETCH_MESSAGE_TYPE, snapshot }, location.origin);
  };

  useEffect(post, [scene, live]);

  // The page says when it listens (its script may run after this frame's load event).
  useEffect(() => {
    const ready = (event: MessageEvent<unknown>) => {
      const data = event.data as { type?: unknown } | null;
      if (event.origin !== location.origin || event.source !== frame.current?.contentWindow) return;
      if (data?.type === SKETCH_READY_TYPE) post();
    };
    addEventListener('message', ready);
    return () => removeEventListener('message', ready);
  }, []);

  return (
    <figure class="sketch-preview">
      <figcaption>
        Preview <span class="hint small">(drawn by the output page; not on air, nothing saved)</span>
      </figcaption>
      <iframe
        ref={frame}
        title="Scene preview"
        src={`/render/${encodeURIComponent(channel.id)}?sketch=1`}
        style={{ aspectRatio: `${channel.width} / ${channel.height}` }}
        onLoad={post}
      />
    </figure>
  );
}
