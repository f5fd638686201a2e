/**
 * The placement function on its own: slots fill in order up to their
 * capacity, an account or project up to its own; pinned environments go first
 * to a slot of their pin; deployed ones stay where they are, even past a
 * lowered capacity; appending moves nobody and removing frees room without
 * moving anybody.
 */
import { awsSlot, gcpSlot, Slot } from '../../../lib/model/slots';
import { place, PlaceEnvironment } from '../../../lib/lab/placement/place';

const A = awsSlot('us-east-1', ['us-east-1a', 'us-east-1b']);
const B = awsSlot('us-east-2', ['us-east-2a', 'us-east-2b']);
const C = awsSlot('us-east-1', ['us-east-1a', 'us-east-1b'], { id: '111122223333', roleName: 'OrganizationAccountAccessRole' });
const envs = (n: number, from = 1): PlaceEnvironment[] => Array.from({ length: n }, (_, i) => ({ name: `e${from + i}` }));
const layout = (slotOf: ReadonlyMap<string, Slot>) => Object.fromEntries([...slotOf].map(([env, slot]) => [env, slot.id]));

describe('place', () => {
  test('GIVEN 5 environments and slots of 2 WHEN placed THEN they fill the slots in order and the fifth is left over', () => {
    const placed = place({ slots: [A, B], envs: envs(5), perSlot: 2 });
    expect(layout(placed.slotOf)).toEqual({ e1: 'host/us-east-1', e2: 'host/us-east-1', e3: 'host/us-east-2', e4: 'host/us-east-2' });
    expect(placed.unplaced.map((e) => e.name)).toEqual(['e5']);
    expect(placed.overfull).toEqual([]);
  });

  test('GIVEN no capacity WHEN placed THEN every environment goes to the first slot (a config without placement)', () => {
    expect(new Set(place({ slots: [A, B], envs: envs(30) }).slotOf.values())).toEqual(new Set([A]));
  });

  test('GIVEN a project cap of 4 over its regions WHEN placed THEN a project takes 4 whatever its regions, and the next project the rest', () => {
    const slots = [gcpSlot('p-one-1', 'us-central1', ['us-central1-a']), gcpSlot('p-one-1', 'us-east1', ['us-east1-b']), gcpSlot('p-two-2', 'us-central1', ['us-central1-a'])];
    const placed = place({ slots, envs: envs(6), perGroup: 4 });
    expect(layout(placed.slotOf)).toEqual({
      e1: 'p-one-1/us-central1',
      e2: 'p-one-1/us-central1',
      e3: 'p-one-1/us-central1',
      e4: 'p-one-1/us-central1',
      e5: 'p-two-2/us-central1',
      e6: 'p-two-2/us-central1',
    });
  });

  test('GIVEN a per-slot and a per-project cap WHEN placed THEN each slot stops at its cap and the project at its own', () => {
    const slots = [gcpSlot('p-one-1', 'us-central1', ['us-central1-a']), gcpSlot('p-one-1', 'us-east1', ['us-east1-b']), gcpSlot('p-two-2', 'us-central1', ['us-central1-a'])];
    const placed = place({ slots, envs: envs(5), perSlot: 2, perGroup: 3 });
    expect(layout(placed.slotOf)).toEqual({ e1: 'p-one-1/us-central1', e2: 'p-one-1/us-central1', e3: 'p-one-1/us-east1', e4: 'p-two-2/us-central1', e5: 'p-two-2/us-central1' });
  });

  test('GIVEN a pinned environment last WHEN placed THEN it takes its slot first and the others fill around it', () => {
    const placed = place({ slots: [A, B], envs: [...envs(3), { name: 'pinned', pin: { region: 'us-east-1' } }], perSlot: 2 });
    expect(layout(placed.slotOf)).toEqual({ pinned: 'host/us-east-1', e1: 'host/us-east-1', e2: 'host/us-east-2', e3: 'host/us-east-2' });
  });

  test('GIVEN a pin on an account WHEN placed THEN it goes to the first region of that account with room', () => {
    const placed = place({ slots: [A, C], envs: [{ name: 'x', pin: { group: '111122223333' } }], perSlot: 2 });
    expect(layout(placed.slotOf)).toEqual({ x: '111122223333/us-east-1' });
  });

  test('GIVEN more pins than their slot holds WHEN placed THEN the ones past its capacity are left over, in attendee order', () => {
    const pinned = (name: string) => ({ name, pin: { region: 'us-east-2' } });
    const placed = place({ slots: [A, B], envs: [pinned('p1'), ...envs(1), pinned('p2'), pinned('p3')], perSlot: 2 });
    expect(placed.unplaced.map((e) => e.name)).toEqual(['p3']);
    expect(layout(placed.slotOf)).toEqual({ p1: 'host/us-east-2', p2: 'host/us-east-2', e1: 'host/us-east-1' });
  });

  test('GIVEN deployed environments WHEN placed again with a lower capacity THEN they stay where their state says, the slot is overfull, and new ones go where there is room', () => {
    const deployed = new Map([
      ['e1', B],
      ['e2', B],
      ['e3', B],
    ]);
    const placed = place({ slots: [A, B], envs: envs(4), perSlot: 2, deployed });
    expect(layout(placed.slotOf)).toEqual({ e1: 'host/us-east-2', e2: 'host/us-east-2', e3: 'host/us-east-2', e4: 'host/us-east-1' });
    expect(placed.overfull).toEqual([B]);
  });

  test('GIVEN a deployed environment in a slot no longer listed WHEN placed THEN it keeps that slot', () => {
    const placed = place({ slots: [A], envs: envs(1), perSlot: 4, deployed: new Map([['e1', B]]) });
    expect(layout(placed.slotOf)).toEqual({ e1: 'host/us-east-2' });
  });

  test('GIVEN 30 environments WHEN a 31st is appended THEN none of the 30 moves', () => {
    const slots = [A, B, C];
    const before = layout(place({ slots, envs: envs(30), perSlot: 11 }).slotOf);
    const after = layout(place({ slots, envs: envs(31), perSlot: 11 }).slotOf);
    expect(Object.fromEntries(Object.entries(after).filter(([env]) => env !== 'e31'))).toEqual(before);
  });

  test('GIVEN environments in full slots WHEN one is removed THEN nobody moves, and the room it frees is taken by the next one appended', () => {
    const slots = [A, B];
    const all = envs(4);
    const first = layout(place({ slots, envs: all, perSlot: 2 }).slotOf);
    const deployed = new Map([...place({ slots, envs: all, perSlot: 2 }).slotOf].filter(([env]) => env !== 'e1'));
    const without = place({ slots, envs: [...all.slice(1), { name: 'e5' }], perSlot: 2, deployed });
    expect(layout(without.slotOf)).toEqual({ ...Object.fromEntries(Object.entries(first).filter(([env]) => env !== 'e1')), e5: 'host/us-east-1' });
  });
});
