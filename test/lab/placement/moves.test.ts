/**
 * Which deployed environments a config would move (placement keeps them where
 * their state says; deploy refuses what moves): a slot no longer offered, a pin
 * elsewhere, more deployed in a slot than its capacity. A reordered list, an
 * appended attendee and a removed one move nobody.
 */
import { awsSlot, gcpSlot, Slot } from '../../../lib/model/slots';
import { movesOf } from '../../../lib/lab/placement/moves';
import { place, PlaceEnvironment } from '../../../lib/lab/placement/place';

const A = awsSlot('us-east-1', ['us-east-1a', 'us-east-1b']);
const B = awsSlot('us-east-2', ['us-east-2a', 'us-east-2b']);
const C = awsSlot('us-west-2', ['us-west-2a', 'us-west-2b']);
const envs = (n: number, from = 1): PlaceEnvironment[] => Array.from({ length: n }, (_, i) => ({ name: `e${from + i}` }));
const layout = (slotOf: ReadonlyMap<string, Slot>) => Object.fromEntries([...slotOf].map(([env, slot]) => [env, slot.id]));
const moved = (moves: ReturnType<typeof movesOf>) => moves.map((m) => `${m.env} ${m.from.id} -> ${m.to?.id ?? 'nowhere'} (${m.reason.kind})`);

/** 4 environments deployed 2 per slot in A then B. */
const deployed = new Map<string, Slot>([
  ['e1', A],
  ['e2', A],
  ['e3', B],
  ['e4', B],
]);

describe('movesOf', () => {
  test('GIVEN the config the environments were deployed with WHEN checked THEN nothing moves', () => {
    expect(movesOf({ slots: [A, B], envs: envs(4), perSlot: 2, deployed })).toEqual([]);
  });

  test('GIVEN the list reordered WHEN checked THEN nobody moves, and a new attendee fills the new order', () => {
    const input = { slots: [B, A, C], envs: envs(5), perSlot: 2, deployed };
    expect(movesOf(input)).toEqual([]);
    expect(layout(place(input).slotOf)).toEqual({ e1: A.id, e2: A.id, e3: B.id, e4: B.id, e5: C.id });
  });

  test('GIVEN an attendee removed WHEN checked THEN nobody moves, and the freed room goes to the next new attendee', () => {
    const input = { slots: [A, B], envs: [{ name: 'e1' }, { name: 'e3' }, { name: 'e4' }, { name: 'e5' }], perSlot: 2, deployed };
    expect(movesOf(input)).toEqual([]);
    expect(layout(place(input).slotOf)).toEqual({ e1: A.id, e3: B.id, e4: B.id, e5: A.id });
  });

  test('GIVEN a region removed WHEN checked THEN its environments would move to where the config has room', () => {
    expect(moved(movesOf({ slots: [A, C], envs: envs(4), perSlot: 2, deployed }))).toEqual(['e3 host/us-east-2 -> host/us-west-2 (not offered)', 'e4 host/us-east-2 -> host/us-west-2 (not offered)']);
  });

  test('GIVEN perSlot lowered below what is deployed WHEN checked THEN the ones past the capacity in attendee order would move, and to no slot when none has room', () => {
    const moves = movesOf({ slots: [A, B], envs: envs(4), perSlot: 1, deployed });
    expect(moved(moves)).toEqual(['e2 host/us-east-1 -> nowhere (capacity)', 'e4 host/us-east-2 -> nowhere (capacity)']);
    expect(moves[0].reason).toEqual({ kind: 'capacity', per: 'slot', capacity: 1, keeps: ['e1'] });
    expect(moved(movesOf({ slots: [A, B, C], envs: envs(4), perSlot: 1, deployed }))).toEqual(['e2 host/us-east-1 -> host/us-west-2 (capacity)', 'e4 host/us-east-2 -> nowhere (capacity)']);
  });

  test('GIVEN a project holding more than its cap over its regions WHEN checked THEN the ones past it would move to the next project', () => {
    const p1 = gcpSlot('p-one-1', 'us-central1', ['us-central1-a']);
    const p1east = gcpSlot('p-one-1', 'us-east1', ['us-east1-b']);
    const p2 = gcpSlot('p-two-2', 'us-central1', ['us-central1-a']);
    const gcp = new Map<string, Slot>([
      ['e1', p1],
      ['e2', p1east],
      ['e3', p1],
    ]);
    const moves = movesOf({ slots: [p1, p1east, p2], envs: envs(3), perGroup: 2, deployed: gcp });
    expect(moved(moves)).toEqual(['e3 p-one-1/us-central1 -> p-two-2/us-central1 (capacity)']);
    expect(moves[0].reason).toEqual({ kind: 'capacity', per: 'group', capacity: 2, keeps: ['e1', 'e2'] });
  });

  test('GIVEN a pin to another region WHEN checked THEN the pinned environment would move there', () => {
    const pinned = [{ name: 'e1', pin: { region: 'us-east-2' } }, ...envs(3, 2)];
    expect(moved(movesOf({ slots: [A, B], envs: pinned, perSlot: 3, deployed }))).toEqual(['e1 host/us-east-1 -> host/us-east-2 (pinned)']);
  });
});
