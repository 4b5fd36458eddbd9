/**
 * The rows of the channel's cursor sources (a CSV data source with `row: { by: "cursor" }`): for each, the row it is
 * on and First / ‹ Previous / Next ›, each a row move (POST …/sources/{id}/row, inputs:write) that puts the row it
 * lands on on air in one frame; listed in "Your actions" like any action. The sources are read every 5 s while the
 * page is visible (every 30 s while the channel has none), so a move made elsewhere shows here too. Nothing is
 * drawn for a channel without cursor sources.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { moveRow, listSources, picksByCursor, type RowMove, type Source } from '../settings/sources-api.js';
import '../settings/sources.css';
import type { LiveChannel } from './live-socket.js';

const POLL_MS = 5000;
const IDLE_POLL_MS = 30_000;

export function SourceCursors({
  channelId,
  live,
  enabled,
}: {
  channelId: string;
  live: LiveChannel;
  enabled: boolean;
}) {
  const sources = useCursorSources(channelId);
  if (sources.list.length === 0) return null;
  const move = async (source: Source, how: RowMove) => {
    const label = `${MOVE_LABEL[how]} row of ${source.name}`;
    const moved = await live.track(label, () => moveRow(source, how)).catch(() => null);
    if (moved) sources.put(moved);
  };
  return (
    <section class="panel source-cursors" aria-labelledby="cursors-title">
      <h2 id="cursors-title">Sheet rows</h2>
      {sources.list.map((s) => (
        <CursorLine key={s.id} source={s} enabled={enabled} onMove={(how) => void move(s, how)} />
      ))}
    </section>
  );
}

const MOVE_LABEL: Record<RowMove, string> = { first: 'First', previous: 'Previous', next: 'Next' };

function CursorLine({ source, enabled, onMove }: { source: Source; enabled: boolean; onMove: (m: RowMove) => void }) {
  const { cursor, state, lastError } = source.status;
  const usable = enabled && !source.paused;
  return (
    <div class="source-cursor" role="group" aria-label={`Rows of ${source.name}`} data-source={source.id}>
      <span class="cursor-name">
        {source.name}
        {source.paused && <span class="hint"> (paused)</span>}
      </span>
      {enabled && (
        <>
          <button type="button" disabled={!usable || cursor === 1} onClick={() => onMove('first')}>
            First
          </button>
          <button type="button" disabled={!usable || cursor === 1} onClick={() => onMove('previous')}>
            ‹ Previous
          </button>
        </>
      )}
      <span class="cursor-row" aria-live="polite" data-row={cursor}>
        row {cursor}
      </span>
      {enabled && (
        <button type="button" disabled={!usable} onClick={() => onMove('next')}>
          Next ›
        </button>
      )}
      {state === 'failing' && lastError && <span class="field-error">{lastError}</span>}
    </div>
  );
}

/**
 * The channel's cursor sources, read again while the page is visible; `put` takes a move's answer at once, and a
 * read begun before a move is dropped (it could put an older row back).
 */
function useCursorSources(channelId: string): { list: Source[]; put: (s: Source) => void } {
  const [list, setList] = useState<Source[]>([]);
  const moves = useRef(0);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let found = 0;
    const poll = async () => {
      if (document.visibilityState === 'visible') {
        try {
          const before = moves.current;
          const cursors = (await listSources(channelId)).filter(picksByCursor);
          found = cursors.length;
          if (!stopped && before === moves.current) setList(cursors);
        } catch {
          // Kept as they were; the next read may work (the actions log says why a move failed).
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), found > 0 ? POLL_MS : IDLE_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [channelId]);
  const put = (s: Source) => {
    moves.current += 1;
    setList((old) => old.map((o) => (o.id === s.id ? s : o)));
  };
  return { list, put };
}
