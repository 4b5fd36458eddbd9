import { describe, expect, it } from 'vitest';
import { DeliverySlots } from './delivery-slots.js';

const LIMITS = { overall: 128, perWorkspace: 32, perEndpoint: 8, workspaceMinimum: 4 };

const sub = (org: number, n: number) => ({ id: `wh_${org}_${n}`, orgId: `org_${org}` });

/** Takes every slot `s` has room for; answers the releases. */
function fillUp(slots: DeliverySlots, s: { id: string; orgId: string }): (() => void)[] {
  const releases: (() => void)[] = [];
  for (let room = slots.room(s); room > 0; room--) releases.push(slots.take(s));
  return releases;
}

describe('DeliverySlots', () => {
  it('gives a subscription 8, a workspace 32 and the node 128', () => {
    const slots = new DeliverySlots(LIMITS);
    expect(slots.room(sub(1, 0))).toBe(8);
    for (let n = 0; n < 50; n++) fillUp(slots, sub(1, n));
    expect(slots.inWorkspace('org_1')).toBe(32);
    for (let org = 2; org <= 4; org++) for (let n = 0; n < 4; n++) fillUp(slots, sub(org, n));
    expect(slots.inFlight).toBe(128);
    expect(slots.room(sub(5, 0))).toBe(4);
  });

  it('always lets a workspace with nothing in flight start its minimum, even with every slot held', () => {
    const slots = new DeliverySlots(LIMITS);
    for (let org = 1; org <= 4; org++) for (let n = 0; n < 4; n++) fillUp(slots, sub(org, n));
    expect(slots.inFlight).toBe(128);
    for (let org = 5; org <= 20; org++) {
      expect(fillUp(slots, sub(org, 0))).toHaveLength(4);
      expect(slots.room(sub(org, 1))).toBe(0);
    }
    expect(slots.inFlight).toBe(128 + 16 * 4);
  });

  it('releases once, however often a release is called', () => {
    const slots = new DeliverySlots(LIMITS);
    const release = slots.take(sub(1, 0));
    release();
    release();
    expect(slots.inFlight).toBe(0);
    expect(slots.room(sub(1, 0))).toBe(8);
  });

  it('halves the window of an endpoint that times out, down to 1, and widens it by one per answer', () => {
    const slots = new DeliverySlots(LIMITS);
    const s = sub(1, 0);
    const windows = [];
    for (let i = 0; i < 5; i++) {
      slots.timedOut(s.id);
      windows.push(slots.window(s.id));
    }
    expect(windows).toEqual([4, 2, 1, 1, 1]);
    expect(fillUp(slots, s)).toHaveLength(1);
    for (let i = 0; i < 10; i++) slots.answered(s.id);
    expect(slots.window(s.id)).toBe(8);
    expect(slots.room(s)).toBe(7);
  });

  it('forgets the window of a subscription that is gone', () => {
    const slots = new DeliverySlots(LIMITS);
    slots.timedOut('wh_1_0');
    slots.forget('wh_1_0');
    expect(slots.window('wh_1_0')).toBe(8);
  });
});
