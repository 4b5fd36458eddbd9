/**
 * Scene format v1 definitions (protocol/src/scene.ts) for the renderer's browser tests and bench: a
 * scoreboard with a running clock, and a lower third that fades in.
 */
import type { SceneDefinition, SceneView, Transition } from '@onair/protocol';

export function scoreboard(over: Partial<SceneDefinition> = {}): SceneDefinition {
  return {
    version: 1,
    layer: 10,
    inputs: [
      { name: 'home', type: 'text', label: 'Home', default: 'HOME' },
      { name: 'away', type: 'text', label: 'Away', default: 'AWAY' },
      { name: 'scoreA', type: 'number', label: 'Home score', default: 0 },
      { name: 'scoreB', type: 'number', label: 'Away score', default: 0 },
      { name: 'homeColor', type: 'color', label: 'Home colour', default: '#c8102e' },
      { name: 'clock', type: 'clock', label: 'Clock', default: 0 },
    ],
    elements: [
      {
        type: 'box',
        name: 'bar',
        x: 80,
        y: 60,
        width: 760,
        height: 72,
        radius: 10,
        fill: {
          gradient: {
            angle: 90,
            stops: [
              { at: 0, color: '#101820' },
              { at: 1, color: '#1d2b38' },
            ],
          },
        },
        shadow: { x: 0, y: 4, blur: 12, color: '#00000080' },
      },
      { type: 'box', x: 80, y: 60, width: 12, height: 72, fill: '{homeColor}' },
      {
        type: 'text',
        name: 'home',
        x: 100,
        y: 60,
        width: 200,
        height: 72,
        text: '{home}',
        fontFamily: 'Oswald',
        fontWeight: 700,
        fontSize: 40,
        uppercase: true,
        color: '#ffffff',
      },
      {
        type: 'text',
        name: 'scoreA',
        x: 300,
        y: 60,
        width: 80,
        height: 72,
        text: '{scoreA}',
        fontFamily: 'Barlow Condensed',
        fontWeight: 800,
        fontSize: 48,
        color: '#ffd400',
        align: 'center',
      },
      {
        type: 'text',
        name: 'scoreB',
        x: 390,
        y: 60,
        width: 80,
        height: 72,
        text: '{scoreB}',
        fontFamily: 'Barlow Condensed',
        fontWeight: 800,
        fontSize: 48,
        color: '#ffd400',
        align: 'center',
      },
      {
        type: 'text',
        name: 'away',
        x: 480,
        y: 60,
        width: 200,
        height: 72,
        text: '{away}',
        fontFamily: 'Oswald',
        fontWeight: 700,
        fontSize: 40,
        uppercase: true,
        color: '#ffffff',
        align: 'right',
      },
      {
        type: 'clock',
        name: 'clock',
        clock: 'clock',
        x: 700,
        y: 60,
        width: 130,
        height: 72,
        format: 'm:ss',
        fontFamily: 'Roboto Mono',
        fontWeight: 500,
        fontSize: 34,
        color: '#9fb3c8',
        align: 'center',
      },
    ],
    transitions: { in: { type: 'fade', durationMs: 400 }, out: { type: 'fade', durationMs: 400 } },
    triggers: [
      { name: 'goalA', animation: 'pulse', targets: ['scoreA'], durationMs: 600 },
      { name: 'flash', animation: 'flash', durationMs: 1_000 },
    ],
    ...over,
  };
}

export function lowerThird(
  transition: Transition = { type: 'fade', durationMs: 1_000, easing: 'linear' },
): SceneDefinition {
  return {
    version: 1,
    layer: 20,
    inputs: [
      { name: 'name', type: 'text', label: 'Name', default: 'Jane Doe' },
      { name: 'title', type: 'text', label: 'Title', default: 'Reporter' },
    ],
    elements: [
      { type: 'box', name: 'plate', x: 100, y: 860, width: 700, height: 120, fill: '#0b3d91', radius: 6 },
      {
        type: 'group',
        name: 'words',
        x: 130,
        y: 870,
        width: 640,
        height: 100,
        delayMs: 150,
        children: [
          {
            type: 'text',
            name: 'name',
            x: 0,
            y: 0,
            width: 640,
            height: 60,
            text: '{name}',
            fontFamily: 'Inter',
            fontWeight: 700,
            fontSize: 44,
          },
          {
            type: 'text',
            x: 0,
            y: 60,
            width: 640,
            height: 40,
            text: '{title}',
            fontFamily: 'Inter',
            fontWeight: 500,
            fontSize: 26,
            color: '#c9d6ea',
          },
        ],
      },
    ],
    transitions: { in: transition, out: transition },
    triggers: [],
  };
}

export function view(id: string, definition: SceneDefinition): SceneView {
  return { id, name: id, definition };
}
