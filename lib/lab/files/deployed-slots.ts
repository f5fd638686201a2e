/**
 * Where the environments of a lab ARE deployed: the slot each
 * `<env>-<cloud>-cluster` state says (state-location.ts), read from the local
 * state files (the configured `local` backend, or an emulator run's own), or
 * pulled from an s3 or gcs backend with Terraform (remote-state.ts). Every
 * command that synthesizes the lab to act on it passes these to placement, so an
 * environment stays where it is, whatever the config now says.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { labEnvironments } from '../../config/environments';
import { parseJson } from '../../config/json-syntax';
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { labNames } from '../../model/names';
import { AwsSlot, GcpSlot } from '../../model/slots';
import { chooseStatePlacement, EMULATOR_STATE_DIR } from '../../stacks/state-placement';
import { plannedStatePath } from './local-state';
import { pullStates, PulledState } from './remote-state';
import { awsStateLocation, gcpStateLocation, StateLocation, StateReading } from './state-location';

/** A deployed environment's slot on one cloud, as its cluster state says. */
export type DeployedSlot<S extends AwsSlot | GcpSlot> = StateLocation<S> & {
  readonly env: string;
  readonly stack: string;
  /** Where the state is: a path relative to the project directory, `s3://...` or `gs://...`. */
  readonly where: string;
};

/** A cluster state that holds resources but could not be read, or says not where they are. */
export interface UnreadState {
  /** `not read`: the state itself could not be read; `no location`: it was, and holds resources but says not where. */
  readonly kind: 'not read' | 'no location';
  readonly env: string;
  readonly cloud: Cloud;
  readonly stack: string;
  readonly where: string;
  /** Follows "its state": `could not be read: ...`, `holds resources but names no region (...)`. */
  readonly reason: string;
  /** How the config can supply what is missing. @default - make the state readable */
  readonly fix?: string;
}

export interface DeployedSlots {
  readonly aws: ReadonlyMap<string, DeployedSlot<AwsSlot>>;
  readonly gcp: ReadonlyMap<string, DeployedSlot<GcpSlot>>;
  readonly unread: readonly UnreadState[];
  /** Cluster stacks whose remote state was not read (`remote: false`: synth, which runs no Terraform). */
  readonly notRead: readonly string[];
}

/** Nothing deployed (a lab before its first deploy, or a test). */
export const NOTHING_DEPLOYED: DeployedSlots = { aws: new Map(), gcp: new Map(), unread: [], notRead: [] };

export interface ReadDeployedOptions {
  /** The project directory: local state files, and `.hoplab/` for remote reads. */
  readonly cwd: string;
  /** A local AWS emulator run: the emulator's own state is read, never the real one. @default - the configured backend */
  readonly awsEndpoint?: string;
  /** The clouds to read. @default both */
  readonly clouds?: readonly Cloud[];
  /** Whether to pull remote state with Terraform; false: those stacks are listed in `notRead`. @default true */
  readonly remote?: boolean;
  /** Reads remote states (tests). @default {@link pullStates} */
  readonly pull?: (stacks: readonly string[]) => Promise<ReadonlyMap<string, PulledState>>;
}

/** Where each environment of `config` is deployed, read from its cluster stacks' state (see the module's comment). */
export async function readDeployedSlots(config: LabConfig, options: ReadDeployedOptions): Promise<DeployedSlots> {
  const clouds = options.clouds ?? ['aws', 'gcp'];
  const stacks = labEnvironments(config).flatMap((e) => clouds.map((cloud) => ({ env: e.name, cloud, stack: cloud === 'aws' ? labNames(e).awsClusterStack : labNames(e).gcpClusterStack })));
  const emulator = options.awsEndpoint ? { endpoint: options.awsEndpoint, stateDir: join(options.cwd, EMULATOR_STATE_DIR) } : undefined;
  const local = stacks.map((s) => ({ ...s, path: plannedStatePath(config.backend, s.stack, options.cwd, options.awsEndpoint) }));
  const remote = local.filter((s) => s.path === undefined).map((s) => s.stack);
  const pulled = remote.length === 0 || options.remote === false ? new Map<string, PulledState>() : await (options.pull ?? ((r) => pullStates(config.backend, r, options)))(remote);
  const aws = new Map<string, DeployedSlot<AwsSlot>>();
  const gcp = new Map<string, DeployedSlot<GcpSlot>>();
  const unread: UnreadState[] = [];
  const notRead: string[] = [];
  for (const s of local) {
    const where = s.path !== undefined ? relativeTo(options.cwd, s.path) : remoteWhere(chooseStatePlacement(config.backend, s.stack, emulator));
    let state: unknown;
    if (s.path !== undefined) {
      if (!existsSync(s.path)) continue;
      const read = readStateFile(s.path);
      if ('reason' in read) {
        unread.push({ kind: 'not read', env: s.env, cloud: s.cloud, stack: s.stack, where, reason: read.reason });
        continue;
      }
      state = read.state;
    } else {
      const got = pulled.get(s.stack);
      if (!got) {
        notRead.push(s.stack);
        continue;
      }
      if ('error' in got) {
        unread.push({ kind: 'not read', env: s.env, cloud: s.cloud, stack: s.stack, where, reason: `could not be read: ${got.error}` });
        continue;
      }
      state = got.state;
    }
    const reading: StateReading<AwsSlot | GcpSlot> = s.cloud === 'aws' ? awsStateLocation(state, config) : gcpStateLocation(state);
    if (reading.kind === 'empty') continue;
    if (reading.kind === 'unknown') {
      unread.push({ kind: 'no location', env: s.env, cloud: s.cloud, stack: s.stack, where, reason: reading.reason, ...(reading.fix ? { fix: reading.fix } : {}) });
      continue;
    }
    const deployed = { slot: reading.slot, from: reading.from, ...(reading.accountId ? { accountId: reading.accountId } : {}), env: s.env, stack: s.stack, where };
    if (s.cloud === 'aws') aws.set(s.env, deployed as DeployedSlot<AwsSlot>);
    else gcp.set(s.env, deployed as DeployedSlot<GcpSlot>);
  }
  return { aws, gcp, unread, notRead };
}

/** The slots alone, as placement takes them. */
export function deployedSlotMaps(deployed: DeployedSlots): { readonly aws: ReadonlyMap<string, AwsSlot>; readonly gcp: ReadonlyMap<string, GcpSlot> } {
  return { aws: new Map([...deployed.aws].map(([env, d]) => [env, d.slot])), gcp: new Map([...deployed.gcp].map(([env, d]) => [env, d.slot])) };
}

/** A local state file's JSON, or why it could not be read (its syntax error in the same words on every Node). */
function readStateFile(path: string): { readonly state: unknown } | { readonly reason: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { reason: `could not be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  try {
    return { state: parseJson(text, (reason) => new Error(reason)) };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

function relativeTo(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith('..') ? path : rel;
}

function remoteWhere(placement: ReturnType<typeof chooseStatePlacement>): string {
  switch (placement.kind) {
    case 's3':
      return `s3://${placement.bucket}/${placement.key}`;
    case 'emulator-s3':
      return `s3://${placement.bucket}/${placement.key} (the emulator's S3)`;
    case 'gcs':
      return `gs://${placement.bucket}/${placement.prefix}/default.tfstate`;
    case 'emulator-local':
      return placement.path;
    case 'local':
      return 'local state';
  }
}
