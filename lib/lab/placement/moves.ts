/**
 * Which deployed environments the config would move, as a pure function of the
 * placement input. Placement keeps every deployed environment where its state
 * says (place.ts), so nothing moves by itself; but where the config no longer
 * agrees with the state, keeping it is not what the config says, and moving it
 * would recreate it elsewhere while the old one keeps billing. Deploy refuses
 * those changes (request-problems.ts). An environment would move when its slot:
 * - is not offered any more (its account, project or region left the lists);
 * - is not one its pin (`attendees[].placement`) allows;
 * - holds more deployed environments than its capacity (`placement.perSlot`
 *   lowered, or a quota that sizes slots): the ones past the capacity in attendee
 *   order, per slot, then per account or project.
 * A reordered list moves nobody: deployed environments stay, new ones fill the
 * slots in the new order.
 */
import { Slot, slotGroup } from '../../model/slots';
import { matches, place, PlaceInput, SlotPin } from './place';

/** Why the config would move a deployed environment. */
export type MoveReason =
  | { readonly kind: 'not offered' }
  | { readonly kind: 'pinned'; readonly pin: SlotPin }
  | {
      readonly kind: 'capacity';
      /** Whether the slot's capacity or its account's or project's is exceeded. */
      readonly per: 'slot' | 'group';
      readonly capacity: number;
      /** The deployed environments the capacity keeps there, in attendee order. */
      readonly keeps: readonly string[];
    };

export interface Move<S extends Slot> {
  readonly env: string;
  /** Where its state says it is. */
  readonly from: S;
  /** Where the config would put it; undefined: no slot has room. */
  readonly to?: S;
  readonly reason: MoveReason;
}

/** The deployed environments of `input` the config would move (see the module's comment), in attendee order. */
export function movesOf<S extends Slot>(input: PlaceInput<S>): Move<S>[] {
  const deployed = input.deployed ?? new Map<string, S>();
  const offered = new Set(input.slots.map((s) => s.id));
  const moving = new Map<string, Omit<Move<S>, 'to'>>();
  const kept: { name: string; slot: S }[] = [];
  for (const env of input.envs) {
    const slot = deployed.get(env.name);
    if (!slot) continue;
    if (!offered.has(slot.id)) moving.set(env.name, { env: env.name, from: slot, reason: { kind: 'not offered' } });
    else if (env.pin && !matches(slot, env.pin)) moving.set(env.name, { env: env.name, from: slot, reason: { kind: 'pinned', pin: env.pin } });
    else kept.push({ name: env.name, slot });
  }
  const inSlot = new Map<string, string[]>();
  const inGroup = new Map<string, string[]>();
  for (const { name, slot } of kept) {
    const here = inSlot.get(slot.id) ?? [];
    const group = inGroup.get(slotGroup(slot)) ?? [];
    if (input.perSlot !== undefined && here.length >= input.perSlot) {
      moving.set(name, { env: name, from: slot, reason: { kind: 'capacity', per: 'slot', capacity: input.perSlot, keeps: here } });
    } else if (input.perGroup !== undefined && group.length >= input.perGroup) {
      moving.set(name, { env: name, from: slot, reason: { kind: 'capacity', per: 'group', capacity: input.perGroup, keeps: group } });
    } else {
      inSlot.set(slot.id, [...here, name]);
      inGroup.set(slotGroup(slot), [...group, name]);
    }
  }
  if (moving.size === 0) return [];
  // Where the config would put them: placed afresh beside the deployed environments that stay.
  const stay = new Map([...deployed].filter(([env]) => !moving.has(env)));
  const placed = place({ ...input, deployed: stay });
  return input.envs.flatMap((env) => {
    const move = moving.get(env.name);
    if (!move) return [];
    const to = placed.slotOf.get(env.name);
    return [{ ...move, ...(to ? { to } : {}) }];
  });
}
