import { describe, expect, it } from 'vitest';
import type { PaintedMessage } from '@onair/protocol';
import { createPaintReporter, type Painted } from './paint-report.js';

function harness(kind: 'obs' | 'casparcg' | 'browser' = 'browser') {
  let now = 1_000;
  let open = true;
  const sent: PaintedMessage[] = [];
  const timers: { at: number; fn: () => void }[] = [];
  const reporter = createPaintReporter({
    send: (msg) => open && sent.push(msg) > 0,
    now: () => now,
    later: (fn, ms) => timers.push({ at: now + ms, fn }),
    kind,
    bus: 'program',
  });
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
  };
  const picture = (frame: number, inDone = true): Painted => ({
    frame,
    layers: [{ layer: 10, sceneId: 'sc_1', itemId: null, inDone }],
    fps: 60,
    width: 1920,
    height: 1080,
  });
  return { reporter, sent, advance, picture, close: () => (open = false), reopen: () => (open = true) };
}

describe('paint reporter', () => {
  it('reports a change of what it shows at once, then no more often than every 500 ms, with the newest picture', () => {
    const { reporter, sent, advance, picture } = harness();
    reporter.painted(picture(1, false));
    expect(sent.map((m) => m.frame)).toEqual([1]);
    advance(100);
    reporter.painted(picture(2, false));
    reporter.painted(picture(3, true));
    expect(sent).toHaveLength(1);
    advance(400);
    expect(sent.map((m) => m.frame)).toEqual([1, 3]);
    expect(sent[1]).toMatchObject({ op: 'painted', kind: 'browser', bus: 'program', layers: [{ inDone: true }] });
    expect(sent[1]).not.toHaveProperty('visible');
  });

  it('sends a new frame alone with the report it makes every 5 s while it paints, and nothing while it does not', () => {
    const { reporter, sent, advance, picture } = harness();
    reporter.painted(picture(1));
    advance(1_000);
    reporter.painted(picture(2));
    advance(2_900); // the paint that comes every 5 s may come a little early: a report is due from 4 s on
    reporter.painted(picture(3));
    expect(sent.map((m) => m.frame)).toEqual([1]);
    advance(100);
    reporter.painted(picture(3));
    expect(sent.map((m) => m.frame)).toEqual([1, 3]);
    advance(20_000);
    expect(sent).toHaveLength(2);
  });

  it('sends load failures with the next report, and again to a new connection within the minute', () => {
    const { reporter, sent, advance, picture, close, reopen } = harness();
    reporter.painted(picture(1));
    reporter.failed({ message: 'image failed to load', url: '/assets/x.png' });
    advance(500);
    expect(sent[1]!.errors).toEqual([{ message: 'image failed to load', url: '/assets/x.png' }]);
    advance(5_000);
    reporter.painted(picture(2));
    expect(sent[2]!.errors).toBeUndefined();
    close();
    advance(5_000);
    reporter.painted(picture(3));
    expect(sent).toHaveLength(3);
    reopen();
    reporter.reconnected();
    reporter.painted(picture(3));
    expect(sent[3]).toMatchObject({ frame: 3, errors: [{ url: '/assets/x.png' }] });
  });

  it('inside OBS, says whether the source is visible and active, as soon as OBS tells it', () => {
    const { reporter, sent, advance, picture } = harness('obs');
    reporter.painted(picture(1));
    expect(sent[0]).toMatchObject({ kind: 'obs', visible: null, active: null });
    advance(600);
    reporter.host({ visible: false });
    expect(sent[1]).toMatchObject({ visible: false, active: null });
  });

  it('in CasparCG says what its PLAY and STOP said; a browser never says', () => {
    const caspar = harness('casparcg');
    caspar.reporter.painted(caspar.picture(1));
    caspar.advance(600);
    caspar.reporter.host({ visible: false, active: false });
    expect(caspar.sent[1]).toMatchObject({ kind: 'casparcg', visible: false, active: false });
    const browser = harness('browser');
    browser.reporter.painted(browser.picture(1));
    expect(browser.sent[0]).not.toHaveProperty('visible');
  });
});
