/**
 * The lab placed where it is deployed: the slots its cluster states say
 * (lib/lab/files/deployed-slots.ts) kept, the rest placed by the config. What
 * deploy, teardown, verify, synth and preflight synthesize from; and the
 * problems deploy and teardown refuse on, one per environment and cloud:
 * - deploy: a config change that would move a deployed environment (moves.ts),
 *   naming where its state says it is, where the config would put it and how
 *   to keep it;
 * - both: a state with resources that does not say where they are.
 */
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { AwsSlot, GcpSlot, HOST_ACCOUNT, Slot, slotGroup } from '../../model/slots';
import { Finding } from '../checks/finding';
import { DeployedSlots, deployedSlotMaps, readDeployedSlots, ReadDeployedOptions, UnreadState } from '../files/deployed-slots';
import { CloudPlacement, LabPlacement, placeLab, PlaceLabOptions } from './lab-placement';
import { Move } from './moves';

/** A placement with the state it kept. */
export interface DeployedPlacement {
  readonly placement: LabPlacement;
  readonly state: DeployedSlots;
}

/** The check name of these problems, as preflight lists them (request-problems.ts). */
export const DEPLOYED_PLACEMENT_CHECK = 'deployed placement';

/** Reads where the lab is deployed and places it so (throws the config's problems as {@link placeLab} does). */
export async function placeDeployed(config: LabConfig, options: ReadDeployedOptions & Pick<PlaceLabOptions, 'source' | 'needs'>): Promise<DeployedPlacement> {
  const state = await readDeployedSlots(config, options);
  return { placement: placeLab(config, { source: options.source, needs: options.needs, deployed: deployedSlotMaps(state) }), state };
}

/** The same from a state already read (tests, and commands that read it once for several uses). */
export function placeWithState(config: LabConfig, state: DeployedSlots, options: Pick<PlaceLabOptions, 'source' | 'needs'> = {}): DeployedPlacement {
  return { placement: placeLab(config, { ...options, deployed: deployedSlotMaps(state) }), state };
}

export interface DeployedPlacementRequest {
  /** Whether a move is a problem: deploy's (teardown, verify and the leftover check act where the state says). */
  readonly moves: boolean;
  /** The environments acted on. @default every environment */
  readonly envs?: readonly string[];
  /** The clouds acted on. */
  readonly clouds: readonly Cloud[];
}

const CLOUD = { aws: 'AWS', gcp: 'GCP' } as const;
const TEAR_DOWN = (env: string) => `tear it down first (npx hoplab teardown --env ${env} destroys it where its state says)`;

/** Every environment of the request that deploy would move, or whose state says not where it is, as failing findings. */
export function deployedPlacementProblems(config: LabConfig, deployed: DeployedPlacement, request: DeployedPlacementRequest): Finding[] {
  const acted = (env: string, cloud: Cloud) => (request.envs === undefined || request.envs.includes(env)) && request.clouds.includes(cloud);
  const unread = deployed.state.unread.filter((u) => acted(u.env, u.cloud)).map(unreadFinding);
  if (!request.moves) return unread;
  const moves = (['aws', 'gcp'] as const).flatMap((cloud) => {
    const placed: CloudPlacement<Slot> = deployed.placement[cloud];
    return placed.moves.filter((m) => acted(m.env, cloud)).map((m) => moveFinding(config, deployed, placed, m));
  });
  return [...unread, ...moves];
}

function unreadFinding(unread: UnreadState): Finding {
  return {
    check: DEPLOYED_PLACEMENT_CHECK,
    verdict: 'fail',
    detail: `cannot tell where ${unread.env}'s ${CLOUD[unread.cloud]} environment is deployed: its state (${unread.stack}, ${unread.where}) ${unread.reason}`,
    fix: `deploy and teardown act on an environment only where its state says it is: ${unread.fix ?? 'make the state readable (the backend, its credentials) and run it again'}`,
  };
}

function moveFinding(config: LabConfig, deployed: DeployedPlacement, placed: CloudPlacement<Slot>, move: Move<Slot>): Finding {
  const cloud = move.from.cloud;
  const where = (cloud === 'aws' ? deployed.state.aws : deployed.state.gcp).get(move.env)?.where;
  const why = whyMoved(config, deployed, placed, move);
  return {
    check: DEPLOYED_PLACEMENT_CHECK,
    verdict: 'fail',
    detail:
      `${move.env}'s ${CLOUD[cloud]} environment is deployed in ${move.from.id} (its state${where ? `, ${where}` : ''}), but ${why.what}: ` +
      `the config would put it in ${move.to?.id ?? 'no slot (none has room)'}, and moving it would recreate it there and leave the old one billing`,
    fix: `to keep it, ${why.keep}, or ${TEAR_DOWN(move.env)}`,
  };
}

/** What in the config disagrees with the state, and how to keep the environment where it is. */
function whyMoved(config: LabConfig, deployed: DeployedPlacement, placed: CloudPlacement<Slot>, move: Move<Slot>): { what: string; keep: string } {
  const from = move.from;
  const reason = move.reason;
  if (reason.kind === 'pinned') {
    const index = (config.attendees ?? []).findIndex((a) => (typeof a === 'string' ? a : a.name) === move.env);
    const field = `attendees[${index}].placement.${from.cloud}`;
    const pin = from.cloud === 'aws' ? { ...(from.account ? { account: from.account.id } : {}), region: from.region } : { project: from.project, region: from.region };
    return { what: `${field} pins it to ${pinWords(reason.pin, from.cloud)}`, keep: `pin it where it is (${field}: ${JSON.stringify(pin)}) or drop the pin` };
  }
  if (reason.kind === 'capacity') {
    const deployedHere = [...placed.slotOf].filter(([env, s]) => (reason.per === 'slot' ? s.id === from.id : slotGroup(s) === slotGroup(from)) && isDeployed(deployed, from.cloud, env)).length;
    const most = Math.max(...countBy([...placed.slotOf].filter(([env]) => isDeployed(deployed, from.cloud, env)).map(([, s]) => s.id)));
    const holder = reason.per === 'slot' ? 'there' : `in ${from.cloud === 'aws' ? 'account' : 'project'} ${slotGroup(from)} over its regions`;
    const by =
      placed.capacity.source === 'perSlot'
        ? `placement.perSlot ${reason.capacity}`
        : `the quotas' capacity of ${reason.capacity} ${reason.per === 'slot' ? 'per slot' : `per ${from.cloud === 'aws' ? 'account' : 'project'}`}`;
    return {
      what: `${by} keeps ${reason.keeps.join(', ')} ${holder} (${deployedHere} are deployed ${holder})`,
      keep: `set placement.perSlot to ${reason.per === 'slot' ? `${deployedHere} (what is deployed there)` : `${most} (the most deployed in one slot)`}`,
    };
  }
  return from.cloud === 'aws' ? awsNotOffered(config, deployed, from) : gcpNotOffered(config, from);
}

function awsNotOffered(config: LabConfig, deployed: DeployedPlacement, from: AwsSlot): { what: string; keep: string } {
  const accounts = config.aws.accounts;
  const parts: { what: string; keep: string }[] = [];
  if (!from.account && accounts) {
    const id = [...deployed.state.aws.values()].find((d) => d.slot.id === from.id)?.accountId;
    parts.push({
      what: `aws.accounts is set, and it is in the account of the host's credentials${id ? ` (${id})` : ''}, with no role assumed`,
      keep: id ? `list the host's account in aws.accounts ({ "id": "${id}", "roleName": "<a role there>" }) or drop aws.accounts` : 'drop aws.accounts',
    });
  } else if (from.account && !accounts?.some((a) => a.id === from.account!.id)) {
    parts.push({
      what: accounts ? `aws.accounts no longer lists account ${from.account.id}` : `aws.accounts is not set (the host's own account), and it is in account ${from.account.id}`,
      keep: `add { "id": "${from.account.id}", "roleName": "${from.account.roleName}" } back to aws.accounts`,
    });
  }
  return both([...parts, ...restore('aws.region', 'aws.regions', config.aws.region, config.aws.regions, from.region)]);
}

function gcpNotOffered(config: LabConfig, from: GcpSlot): { what: string; keep: string } {
  return both([
    ...restore('gcp.project', 'gcp.projects', config.gcp.project, config.gcp.projects, from.project),
    ...restore('gcp.region', 'gcp.regions', config.gcp.region, config.gcp.regions, from.region),
  ]);
}

/** What differs when `value` is not in the list field (or, without the list, not the single field), and how to put it back. */
function restore(single: string, listField: string, current: string, list: readonly string[] | undefined, value: string): { what: string; keep: string }[] {
  if ((list ?? [current]).includes(value)) return [];
  return [list ? { what: `${listField} no longer lists ${value}`, keep: `add ${value} back to ${listField}` } : { what: `${single} is now ${current}`, keep: `set ${single} back to ${value}` }];
}

/** Account (or project) and region, each as it differs. */
function both(parts: readonly { what: string; keep: string }[]): { what: string; keep: string } {
  return { what: parts.map((p) => p.what).join(', and '), keep: parts.map((p) => p.keep).join(' and ') };
}

function pinWords(pin: { readonly group?: string; readonly region?: string }, cloud: Cloud): string {
  const group = pin.group === undefined ? [] : [`${cloud === 'aws' ? 'account' : 'project'} ${pin.group === HOST_ACCOUNT ? "of the host's credentials" : pin.group}`];
  return [...group, ...(pin.region === undefined ? [] : [`region ${pin.region}`])].join(' and ');
}

const isDeployed = (deployed: DeployedPlacement, cloud: Cloud, env: string) => (cloud === 'aws' ? deployed.state.aws : deployed.state.gcp).has(env);

function countBy(values: readonly string[]): number[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()];
}
