/**
 * Placement as a pure function: environments in attendee order, slots in list
 * order, a capacity per slot and per account or project, pins, and the slots
 * deployed environments are already in. Deployed environments keep their slot
 * (an environment never moves once deployed, even past a lowered capacity);
 * pinned ones take a slot of their pin next; the others, in order, take the
 * first slot with room. So appending an attendee moves nobody, and removing one
 * frees room without moving anybody.
 */
import { Slot, slotGroup } from '../../model/slots';

/** Where an environment is pinned: fields a slot must match (AWS: account and region; GCP: project and region). */
export interface SlotPin {
  /** The AWS account id or GCP project. */
  readonly group?: string;
  readonly region?: string;
}

/** One environment to place. */
export interface PlaceEnvironment {
  readonly name: string;
  readonly pin?: SlotPin;
}

export interface PlaceInput<S extends Slot> {
  /** The slots offered, in the order they fill. */
  readonly slots: readonly S[];
  /** The environments, in attendee order. */
  readonly envs: readonly PlaceEnvironment[];
  /** Environments one slot takes. @default - no limit */
  readonly perSlot?: number;
  /** Environments one account or project takes over all its slots. @default - no limit */
  readonly perGroup?: number;
  /** Environments already deployed, with the slot their state says they are in: they stay there. @default - none */
  readonly deployed?: ReadonlyMap<string, S>;
}

export interface Placed<S extends Slot> {
  /** Each placed environment's slot. */
  readonly slotOf: ReadonlyMap<string, S>;
  /** Environments no slot had room for, in attendee order (pinned ones whose slots were full included). */
  readonly unplaced: readonly PlaceEnvironment[];
  /** Slots holding more than their capacity because deployed environments stay where they are. */
  readonly overfull: readonly S[];
}

/** Whether `slot` is one `pin` allows (any slot when there is no pin). */
export function matches(slot: Slot, pin: SlotPin | undefined): boolean {
  return (pin?.group === undefined || slotGroup(slot) === pin.group) && (pin?.region === undefined || slot.region === pin.region);
}

/** Places `envs` in `slots` (see the module's comment for the order). */
export function place<S extends Slot>(input: PlaceInput<S>): Placed<S> {
  const slotOf = new Map<string, S>();
  const inSlot = new Map<string, number>();
  const inGroup = new Map<string, number>();
  const take = (env: string, slot: S) => {
    slotOf.set(env, slot);
    inSlot.set(slot.id, (inSlot.get(slot.id) ?? 0) + 1);
    inGroup.set(slotGroup(slot), (inGroup.get(slotGroup(slot)) ?? 0) + 1);
  };
  const room = (slot: S) => (input.perSlot === undefined || (inSlot.get(slot.id) ?? 0) < input.perSlot) && (input.perGroup === undefined || (inGroup.get(slotGroup(slot)) ?? 0) < input.perGroup);
  for (const env of input.envs) {
    const deployed = input.deployed?.get(env.name);
    if (deployed) take(env.name, deployed);
  }
  const unplaced: PlaceEnvironment[] = [];
  const rest = input.envs.filter((env) => !slotOf.has(env.name));
  // Pinned environments first, then the others: each in attendee order, into the first slot with room.
  for (const env of [...rest.filter((e) => e.pin), ...rest.filter((e) => !e.pin)]) {
    const slot = input.slots.find((s) => matches(s, env.pin) && room(s));
    if (slot) take(env.name, slot);
    else unplaced.push(env);
  }
  const order = new Map(input.envs.map((e, i) => [e.name, i]));
  unplaced.sort((a, b) => order.get(a.name)! - order.get(b.name)!);
  const used = [...new Map([...slotOf.values()].map((s) => [s.id, s])).values()];
  const overfull = used.filter((s) => (input.perSlot !== undefined && inSlot.get(s.id)! > input.perSlot) || (input.perGroup !== undefined && inGroup.get(slotGroup(s))! > input.perGroup));
  return { slotOf, unplaced, overfull };
}
