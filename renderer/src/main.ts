/**
 * The output page: reads what the URL asks for, keeps the channel state from the render socket, and
 * draws it on the stage. Composition only; each part lives in its own module.
 */
import type { InputValue } from '../../src/protocol/index.js';
import { applyMessage, initialState, markDisconnected, type ChannelState } from './channel-state.js';
import { createConnection, type Connection, type ConnectionStatus } from './connection.js';
import { installHostHooks } from './host-hooks.js';
import { parsePageParams, socketUrl } from './page-params.js';
import { createStage } from './stage.js';
import { mergeOverrides } from './template-data.js';

/** Read by the headless-browser tests. */
interface TestHandle {
  state(): ChannelState;
  status(): ConnectionStatus;
  /** Number of frame messages applied since the page loaded (snapshots not counted). */
  frames(): number;
}

declare global {
  interface Window {
    __onair?: TestHandle;
  }
}

function start(): void {
  const params = parsePageParams(location.pathname, location.search);
  const stage = createStage(window, params.bus);
  let state = initialState();
  let overrides: Readonly<Record<string, InputValue>> = {};
  let frames = 0;

  const connection: Connection = createConnection({
    url: socketUrl(location.protocol, location.host, params),
    onMessage(msg, receivedAt) {
      const result = applyMessage(state, msg, receivedAt);
      state = result.state;
      if (result.outcome === 'applied') {
        if (msg.type === 'frame') frames += 1;
        stage.render(state, overrides);
      }
      return result.outcome === 'gap' ? 'resync' : 'ok';
    },
    onDisconnect() {
      state = markDisconnected(state);
    },
  });

  installHostHooks(window, {
    play: () => stage.setShown(true),
    stop: () => stage.setShown(false),
    // Scenes have no steps yet; defined so a CasparCG NEXT is not an error.
    next: () => undefined,
    update(values) {
      overrides = mergeOverrides(overrides, values);
      stage.render(state, overrides);
    },
    wake() {
      stage.refresh();
      connection.nudge();
    },
  });

  window.__onair = { state: () => state, status: () => connection.status(), frames: () => frames };

  if (params.channelId === '') {
    console.warn('onair: no channel id in the page URL; expected /render/<channelId>');
    return;
  }
  connection.start();
}

start();
