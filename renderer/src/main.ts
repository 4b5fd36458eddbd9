/**
 * The output page: reads what the URL asks for, keeps the channel state from the render socket (or, in sketch
 * mode, from the snapshots its parent posts), and draws it on the stage on the display's frames. Composition
 * only; each part lives in its own module.
 */
import type { FrameMessage, HeartbeatMessage, InputValue, SnapshotMessage } from '@onair/protocol';
import { applyMessage, initialState, markDisconnected, type ChannelState } from './channel-state.js';
import { createConnection, type Connection, type ConnectionStatus } from './connection.js';
import { mergeEffects, noEffects, type Effects } from './effects.js';
import { FONT_FILES } from './font-files.js';
import { createFontLoader } from './font-loader.js';
import { createFrameLoop } from './frame-loop.js';
import { hostKind, inBroadcastHost, installHostHooks } from './host-hooks.js';
import { createLinkCheck, type LinkCheck } from './link-check.js';
import { createLinkNotice } from './link-notice.js';
import { reportLoadErrorsTo } from './load-errors.js';
import { createPaintReporter, type PaintReporter } from './paint-report.js';
import { createPaintWatch, type PaintWatch } from './paint-watch.js';
import { accessUrl, parsePageParams, socketUrl, type PageParams } from './page-params.js';
import { configureAssetAccess } from './asset-urls.js';
import { createSketchFeed } from './sketch-feed.js';
import { createStage } from './stage.js';
import { mergeOverrides } from './template-data.js';

/** Read by the headless-browser tests. */
interface TestHandle {
  state(): ChannelState;
  status(): ConnectionStatus;
  /** Number of frame messages applied since the page loaded (snapshots not counted). */
  frames(): number;
  /** The scene each layer of the bus draws. */
  drawn(): { layer: number; sceneId: string | null }[];
}

declare global {
  interface Window {
    __onair?: TestHandle;
  }
}

function start(): void {
  const params = parsePageParams(location.pathname, location.search);
  configureAssetAccess(location.origin, params.channelId, params.token);
  let state = initialState();
  let pending: Effects = noEffects();
  let dirty = false;
  let overrides: Readonly<Record<string, InputValue>> = {};
  let frames = 0;
  /** The frame whose state the stage last drew; null until it drew one. */
  let drawnFrame: number | null = null;

  const redraw = () => {
    dirty = true;
    loop.request();
  };
  // Decided before installHostHooks adds CasparCG-style globals of its own to the window.
  const kind = hostKind(window);
  const linkCheck = params.sketch || inBroadcastHost(window) ? null : browserLinkCheck(params);
  // A sketch draws what its parent posts, a monitor is the operator's own view: neither is an output.
  const reporter: PaintReporter | null = params.monitor
    ? null
    : createPaintReporter({
        send: (msg) => connection.send(msg),
        now: () => Date.now(),
        later: (fn, ms) => void setTimeout(fn, ms),
        kind,
        bus: params.bus,
      });
  reportLoadErrorsTo(reporter && ((error) => reporter.failed(error)));
  const watch: PaintWatch | null =
    reporter &&
    createPaintWatch(window, () => {
      if (drawnFrame === null) return;
      const size = { width: window.innerWidth, height: window.innerHeight };
      reporter.painted({ frame: drawnFrame, layers: stage.painted(state), fps: watch?.fps() ?? 0, ...size });
    });
  const fonts = createFontLoader(document, FONT_FILES, redraw);
  const stage = createStage({ win: window, params, fonts, now: () => Date.now(), onEntered: () => watch?.drew() });
  const loop = createFrameLoop(window, (time) => {
    watch?.frame(time);
    if (dirty) {
      dirty = false;
      const effects = pending;
      pending = noEffects();
      if (stage.render(state, effects, overrides)) drawnFrame = state.frame;
      watch?.drew();
    }
    return stage.tick(state, overrides);
  });

  const onMessage = (msg: SnapshotMessage | FrameMessage | HeartbeatMessage, receivedAt: number) => {
    if (msg.type === 'snapshot') {
      linkCheck?.connected();
      reporter?.reconnected();
    }
    const result = applyMessage(state, msg, receivedAt);
    state = result.state;
    if (result.outcome === 'applied') {
      if (msg.type === 'frame') frames += 1;
      pending = mergeEffects(pending, result.effects);
      redraw();
    }
    return result.outcome === 'gap' ? 'resync' : 'ok';
  };
  // Sketch mode: each posted snapshot goes through the same reducer as the socket's.
  const connection: Connection = params.sketch
    ? createSketchFeed(window, onMessage)
    : createConnection({
        url: socketUrl(location.protocol, location.host, params),
        onMessage,
        onDisconnect(code, opened) {
          state = markDisconnected(state);
          linkCheck?.closed(code, opened);
        },
      });

  installHostHooks(window, {
    // CasparCG's PLAY and STOP: what the page reports as its host's state (docs/outputs.md).
    play() {
      stage.setShown(true);
      reporter?.host({ visible: true, active: true });
    },
    stop() {
      stage.setShown(false);
      reporter?.host({ visible: false, active: false });
    },
    // Scenes have no steps yet; defined so a CasparCG NEXT is not an error.
    next: () => undefined,
    update(values) {
      overrides = mergeOverrides(overrides, values);
      redraw();
    },
    wake() {
      redraw();
      connection.nudge();
    },
    obs: (flags) => reporter?.host(flags),
  });

  window.__onair = {
    state: () => state,
    status: () => connection.status(),
    frames: () => frames,
    drawn: () => stage.drawn(),
  };

  if (params.channelId === '') {
    console.warn('onair: no channel id in the page URL; expected /render/<channelId>');
    return;
  }
  connection.start();
}

/** In an ordinary browser, a link the server refuses for good says so on the page (docs/renderer.md). */
function browserLinkCheck(params: PageParams): LinkCheck {
  return createLinkCheck({
    notice: createLinkNotice(document),
    askAccess: () => fetch(accessUrl(params), { cache: 'no-store' }).then((res) => res.status),
  });
}

start();
