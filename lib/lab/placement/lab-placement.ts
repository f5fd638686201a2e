/**
 * The placement of a lab: each environment's slot on each cloud, a pure
 * function of the config (the lists, `placement.perSlot`, the pins, the
 * attendees in order) and of the slots deployed environments are in (pass them
 * to keep them there). When the environments do not fit, that is a config
 * problem naming how many fit, how many are asked and how to make room.
 */
import { labEnvironments } from '../../config/environments';
import { ConfigError, ConfigProblem } from '../../config/problems';
import { placementConfigured } from '../../config/placement-rules';
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { AwsSlot, GcpSlot, Slot, slotGroup } from '../../model/slots';
import { EnvironmentNeeds, environmentNeeds } from '../estimate/environment-needs';
import { SlotEnvironments } from '../estimate/quotas';
import { BindingQuota, Capacity, cloudCapacity } from './capacity';
import { Move, movesOf } from './moves';
import { place, PlaceEnvironment } from './place';
import { awsSlots, gcpSlots } from './slots';

/** One cloud's placement. */
export interface CloudPlacement<S extends Slot> {
  readonly cloud: Cloud;
  /** The slots the config offers, in the order they fill. */
  readonly slots: readonly S[];
  readonly capacity: Capacity;
  /** Each environment's slot. */
  readonly slotOf: ReadonlyMap<string, S>;
  /** Every slot offered with its environments (in attendee order), in slot order; then the slots deployed environments are in outside the lists. */
  readonly bySlot: readonly { readonly slot: S; readonly envs: readonly string[] }[];
  /** Slots over their capacity because deployed environments stay where they are (deploy refuses such a change: see `moves`). */
  readonly overfull: readonly S[];
  /** The deployed environments the config would move (moves.ts): placement keeps them where their state says; deploy refuses. */
  readonly moves: readonly Move<S>[];
}

export interface LabPlacement {
  /** Whether the config asks for placement (any of its fields): the stacks then export `placement`. */
  readonly configured: boolean;
  /** The environments, in attendee order. */
  readonly envs: readonly string[];
  readonly aws: CloudPlacement<AwsSlot>;
  readonly gcp: CloudPlacement<GcpSlot>;
}

export interface PlaceLabOptions {
  /** Where the config came from, for the problems' heading. @default 'placement' */
  readonly source?: string;
  /**
   * Deployed environments with the slot their state says they are in (lib/lab/files/deployed-slots.ts): they
   * stay there. A slot the config offers under the same id is taken as the config has it (its zones).
   * @default - none
   */
  readonly deployed?: { readonly aws?: ReadonlyMap<string, AwsSlot>; readonly gcp?: ReadonlyMap<string, GcpSlot> };
  /** One environment's needs, when already counted. @default - counted from one environment synthesized on its own, when the quotas size the slots */
  readonly needs?: EnvironmentNeeds;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Places every environment of a validated config. Throws a {@link ConfigError} when some do not fit
 * (every cloud's problems in one), naming what fits and how to make room.
 */
export function placeLab(config: LabConfig, options: PlaceLabOptions = {}): LabPlacement {
  const environments = labEnvironments(config);
  let counted = options.needs;
  const needs = () => (counted ??= environmentNeeds(config));
  const pinOf = (cloud: Cloud, i: number): PlaceEnvironment['pin'] => {
    const pin =
      environments[i].attendee && (config.attendees?.[i] as { placement?: { aws?: { account?: string; region?: string }; gcp?: { project?: string; region?: string } } } | undefined)?.placement;
    if (cloud === 'aws') return pin?.aws ? { group: pin.aws.account, region: pin.aws.region } : undefined;
    return pin?.gcp ? { group: pin.gcp.project, region: pin.gcp.region } : undefined;
  };
  const problems: ConfigProblem[] = [];
  const placeCloud = <S extends Slot>(cloud: Cloud, slots: readonly S[], fromState: ReadonlyMap<string, S> | undefined): CloudPlacement<S> => {
    const capacity = cloudCapacity(cloud, config, () => needs()[cloud]);
    const envs = environments.map((e, i) => ({ name: e.name, pin: pinOf(cloud, i) }));
    const deployed = fromState && new Map([...fromState].map(([env, slot]) => [env, slots.find((s) => s.id === slot.id) ?? slot]));
    const input = { slots, envs, perSlot: capacity.perSlot, perGroup: capacity.perGroup, deployed };
    const placed = place(input);
    problems.push(
      ...fitProblems(
        cloud,
        config,
        slots,
        capacity,
        placed.slotOf.size,
        envs.length,
        placed.unplaced,
        environments.map((e) => e.name),
      ),
    );
    const outside = [...new Map([...placed.slotOf.values()].filter((s) => !slots.some((o) => o.id === s.id)).map((s) => [s.id, s])).values()];
    const bySlot = [...slots, ...outside].map((slot) => ({ slot, envs: envs.filter((e) => placed.slotOf.get(e.name)?.id === slot.id).map((e) => e.name) }));
    return { cloud, slots, capacity, slotOf: placed.slotOf, bySlot, overfull: placed.overfull, moves: movesOf(input) };
  };
  const aws = placeCloud('aws', awsSlots(config), options.deployed?.aws);
  const gcp = placeCloud('gcp', gcpSlots(config), options.deployed?.gcp);
  if (problems.length > 0) throw new ConfigError(options.source ?? 'placement', problems);
  return { configured: placementConfigured(config), envs: environments.map((e) => e.name), aws, gcp };
}

/** The slots that hold environments, both clouds, for counting quotas per slot. */
export function slotEnvironments(placement: LabPlacement): SlotEnvironments[] {
  return [...placement.aws.bySlot, ...placement.gcp.bySlot].filter((s) => s.envs.length > 0);
}

/** The capacity in words: `4 slots (1 account x 4 regions) of 4 each (VPCs per Region: ...)`. */
export function capacityWords(cloud: Cloud, slots: readonly Slot[], capacity: Capacity): string {
  const groups = new Set(slots.map(slotGroup)).size;
  const regions = new Set(slots.map((s) => s.region)).size;
  const shape = `${plural(slots.length, 'slot')} (${plural(groups, cloud === 'aws' ? 'account' : 'project')} x ${plural(regions, 'region')})`;
  if (capacity.source === 'perSlot') return `${shape} of placement.perSlot ${capacity.perSlot} each`;
  if (capacity.binding.length === 0) return `${shape}, no limit (${cloud}'s placement is not configured: synth notes what is over a default)`;
  const figures = (b: BindingQuota) =>
    `${b.quota.name} (${cloud === 'aws' ? "AWS's" : "Google Cloud's"} default ${b.quota.defaultLimit}` +
    (b.quota.fresh > 0 ? `, less ${b.quota.fresh} held by ${b.quota.freshWhat}` : '') +
    `, ${b.perEnvironment} per environment)`;
  const reasons = (['slot', 'project'] as const).flatMap((per) => {
    const binding = capacity.binding.filter((b) => b.per === per);
    if (binding.length === 0) return [];
    const where = per === 'slot' ? 'per slot' : `per ${cloud === 'aws' ? 'account' : 'project'} over its regions`;
    return [`${binding[0].fits} ${where} by ${binding.map(figures).join(' and ')}`];
  });
  return `${shape}, ${reasons.join('; ')}`;
}

function fitProblems(
  cloud: Cloud,
  config: LabConfig,
  slots: readonly Slot[],
  capacity: Capacity,
  fit: number,
  asked: number,
  unplaced: readonly PlaceEnvironment[],
  names: readonly string[],
): ConfigProblem[] {
  if (unplaced.length === 0) return [];
  const raise =
    capacity.source === 'perSlot'
      ? 'or raise the quotas and placement.perSlot'
      : `or raise the quota${capacity.binding.length === 1 ? '' : 's'} (${capacity.binding
          .map((b) => (b.quota.quotaCode ? `Service Quotas ${b.quota.serviceCode} ${b.quota.quotaCode}` : b.quota.metric))
          .join(', ')}) and set placement.perSlot`;
  const more = cloud === 'aws' ? 'add regions to aws.regions or accounts to aws.accounts' : 'add projects to gcp.projects (more regions do not help where the binding quota is per project)';
  const problems: ConfigProblem[] = unplaced
    .filter((e) => e.pin)
    .map((e) => {
      const i = names.indexOf(e.name);
      const named = slots.filter((s) => (e.pin?.group === undefined || slotGroup(s) === e.pin.group) && (e.pin?.region === undefined || s.region === e.pin.region)).map((s) => s.id);
      return {
        path: `attendees[${i}].placement.${cloud}`,
        value: config.attendees && typeof config.attendees[i] === 'object' ? (config.attendees[i] as { placement?: Record<string, unknown> }).placement?.[cloud] : undefined,
        reason: `pins ${e.name} to ${named.join(', ')}, which ${named.length === 1 ? 'is' : 'are'} full (${capacityWords(
          cloud,
          slots,
          capacity,
        )}) with the environments pinned there before it; pin it elsewhere, ${raise}`,
      };
    });
  if (unplaced.some((e) => !e.pin)) {
    const field =
      cloud === 'aws'
        ? config.aws.regions
          ? 'aws.regions'
          : config.aws.accounts
          ? 'aws.accounts'
          : 'aws.regions'
        : config.gcp.projects
        ? 'gcp.projects'
        : config.gcp.regions
        ? 'gcp.regions'
        : 'gcp.projects';
    const value = field === 'aws.regions' ? config.aws.regions : field === 'aws.accounts' ? config.aws.accounts?.map((a) => a.id) : field === 'gcp.projects' ? config.gcp.projects : config.gcp.regions;
    problems.push({
      path: field,
      value,
      reason: `${value === undefined ? 'is not set, so the slots ' : ''}hold ${fit} of the ${asked} environments on ${cloud === 'aws' ? 'AWS' : 'GCP'}: ${capacityWords(
        cloud,
        slots,
        capacity,
      )}; ${more}, ${raise}`,
    });
  }
  return problems;
}
