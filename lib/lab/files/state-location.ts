/**
 * Where a deployed environment is, read from the Terraform state of its
 * `<env>-<cloud>-cluster` stack (the JSON a local state file holds and
 * `terraform state pull` prints): a pure function of that state and the config.
 *
 * In order of trust:
 * 1. the `placement` output (lib/model/contract.ts), written by every placed lab;
 * 2. for labs deployed before placement (or an apply that failed before it wrote
 *    its outputs): the cluster outputs `region` and `location`, the account in
 *    `oidc_provider_arn`, and the resources' own attributes (a regional ARN's region
 *    and account, a subnet's zone; a Google resource's `project`, a subnetwork's
 *    `region`, the cluster's `location`).
 *
 * A state without resource instances is no deployment. A state with resources that names
 * no region (or no project) is a location that cannot be read: commands that would
 * otherwise guess refuse, naming the state.
 */
import { LabConfig } from '../../config/schema';
import { Cloud, PLACEMENT_OUTPUT } from '../../model/contract';
import { accountRoleArn, AwsSlot, awsSlot, AwsSlotAccount, GcpSlot, gcpSlot, HOST_ACCOUNT } from '../../model/slots';
import { derivedZones } from '../../model/zones';
import { isRecord } from '../../kit/terraform/terraform-json';

/** How a location was read. */
export type LocationSource = 'placement output' | 'outputs and resources';

/** Where a state says its environment is. */
export interface StateLocation<S extends AwsSlot | GcpSlot> {
  readonly slot: S;
  readonly from: LocationSource;
  /**
   * AWS: the account the state's ARNs name (the `host` slot's own account, which the placement output
   * does not name), for checking that the host's credentials are that account before a destroy.
   * @default - no ARN in the state names one
   */
  readonly accountId?: string;
}

/** What a cluster state says: nothing deployed, a location, or resources without a location that can be read. */
export type StateReading<S extends AwsSlot | GcpSlot> =
  | { readonly kind: 'empty' }
  | ({ readonly kind: 'deployed' } & StateLocation<S>)
  /** `reason` follows "its state": `holds resources but names no region (...)`; `fix`, when the config can supply what is missing. */
  | { readonly kind: 'unknown'; readonly reason: string; readonly fix?: string };

interface RawState {
  readonly outputs: Record<string, unknown>;
  /** Every resource instance's attributes, with its resource type. */
  readonly instances: readonly { readonly type: string; readonly attributes: Record<string, unknown> }[];
}

function rawState(state: unknown): RawState | undefined {
  if (!isRecord(state)) return undefined;
  const outputs = isRecord(state.outputs) ? Object.fromEntries(Object.entries(state.outputs).map(([name, o]) => [name, isRecord(o) ? o.value : undefined])) : {};
  const resources = Array.isArray(state.resources) ? state.resources.filter(isRecord) : [];
  const instances = resources.flatMap((r) =>
    (Array.isArray(r.instances) ? r.instances.filter(isRecord) : []).map((i) => ({ type: String(r.type ?? ''), attributes: isRecord(i.attributes) ? i.attributes : {} })),
  );
  // A resource without instances (or a state without resources) holds nothing in the cloud.
  return instances.length === 0 ? undefined : { outputs, instances };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const list = (value: unknown) => (typeof value === 'string' && value !== '' ? value.split(',') : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);

/**
 * `arn:<partition>:<service>:<region>:<account>:...`: region (empty for global services) and account (empty
 * where the provider built the ARN without asking the account, as with `skip_requesting_account_id`).
 */
const ARN = /^arn:aws[a-z-]*:[a-z0-9-]+:([a-z0-9-]*):(\d{12})?:/;

/** The role name of `arn:aws:iam::<id>:role/<name>` (hoplab's accounts have no role path). */
const ROLE_ARN = /^arn:aws[a-z-]*:iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/;

function placementOf(outputs: Record<string, unknown>, cloud: Cloud): Record<string, unknown> | undefined {
  const placement = outputs[PLACEMENT_OUTPUT];
  return isRecord(placement) && placement.cloud === cloud && text(placement.region) ? placement : undefined;
}

/**
 * The account of `id` with the role the state records (the role it was deployed with: its EKS access entry
 * is the cluster's admin, so the `-lb` stack's Kubernetes providers, teardown's Kubernetes reads and every
 * command reaching the cluster need that role, whatever aws.accounts says now), else with the role the
 * config names (a state written before the output named the role); undefined when neither does.
 */
function accountOf(id: string, config: Pick<LabConfig, 'aws'>, roleArn: string | undefined): AwsSlotAccount | undefined {
  const role = roleArn ? ROLE_ARN.exec(roleArn) : null;
  if (roleArn && role && role[1] === id) return { id, roleName: role[2], roleArn };
  const listed = config.aws.accounts?.find((a) => a.id === id);
  return listed ? { id, roleName: listed.roleName, roleArn: accountRoleArn(id, listed.roleName) } : undefined;
}

function slotWithAccount(region: string, zones: readonly string[], account: AwsSlotAccount | undefined): AwsSlot {
  const slot = awsSlot(region, zones, account);
  // awsSlot writes the role ARN of the commercial partition; keep the state's own.
  return account ? { ...slot, account } : slot;
}

/** Where an `<env>-aws-cluster` state says its environment is (see the module's comment). */
export function awsStateLocation(state: unknown, config: Pick<LabConfig, 'aws'>): StateReading<AwsSlot> {
  const raw = rawState(state);
  if (!raw) return { kind: 'empty' };
  const arns = [text(raw.outputs.oidc_provider_arn), ...raw.instances.map((i) => text(i.attributes.arn))].flatMap((a) => (a ? [ARN.exec(a)] : [])).filter((m) => m !== null);
  const accountId = arns.map((m) => m[2]).find((id) => id !== undefined);
  const placement = placementOf(raw.outputs, 'aws');
  if (placement) {
    const region = String(placement.region);
    const zones = list(placement.zones) ?? derivedZones('aws', region) ?? [];
    const id = text(placement.account) ?? HOST_ACCOUNT;
    if (id === HOST_ACCOUNT) {
      // The host's account; listed in aws.accounts since, it is that account's slot (the same place).
      const listed = accountId ? accountOf(accountId, config, undefined) : undefined;
      return { kind: 'deployed', slot: slotWithAccount(region, zones, listed), from: 'placement output', ...(accountId ? { accountId } : {}) };
    }
    const account = accountOf(id, config, text(placement.role_arn));
    if (!account) {
      return {
        kind: 'unknown',
        reason: `names account ${id} in its placement output but not the role to assume there (deployed before the output named it), and aws.accounts no longer lists ${id}`,
        fix: `add { "id": "${id}", "roleName": "<the role it was deployed with>" } back to aws.accounts`,
      };
    }
    return { kind: 'deployed', slot: slotWithAccount(region, zones, account), from: 'placement output', accountId: id };
  }
  const region = text(raw.outputs.region) ?? arns.map((m) => m[1]).find((r) => r !== '');
  if (!region) return { kind: 'unknown', reason: 'holds resources but names no region (no placement or region output, no regional ARN)' };
  const subnetZones = [...new Set(raw.instances.filter((i) => i.type === 'aws_subnet').flatMap((i) => text(i.attributes.availability_zone) ?? []))].sort();
  const zones = list(raw.outputs.location) ?? (subnetZones.length > 0 ? subnetZones : undefined) ?? derivedZones('aws', region) ?? [];
  // Before placement every lab was in the account of the host's credentials; an account the config lists is that account's slot.
  const account = accountId ? accountOf(accountId, config, undefined) : undefined;
  return { kind: 'deployed', slot: slotWithAccount(region, zones, account), from: 'outputs and resources', ...(accountId ? { accountId } : {}) };
}

/** Where a `<env>-gcp-cluster` state says its environment is (see the module's comment). */
export function gcpStateLocation(state: unknown): StateReading<GcpSlot> {
  const raw = rawState(state);
  if (!raw) return { kind: 'empty' };
  const placement = placementOf(raw.outputs, 'gcp');
  if (placement && text(placement.project)) {
    const region = String(placement.region);
    return { kind: 'deployed', slot: gcpSlot(String(placement.project), region, list(placement.zones) ?? derivedZones('gcp', region) ?? []), from: 'placement output' };
  }
  const project = raw.instances.map((i) => text(i.attributes.project)).find((p) => p !== undefined);
  const cluster = raw.instances.find((i) => i.type === 'google_container_cluster')?.attributes;
  const clusterLocation = text(cluster?.location);
  const region =
    text(raw.outputs.region) ??
    raw.instances.filter((i) => i.type === 'google_compute_subnetwork').map((i) => text(i.attributes.region))[0] ??
    (clusterLocation ? clusterLocation.replace(/-[a-z]$/, '') : undefined);
  if (!project || !region) return { kind: 'unknown', reason: `holds resources but names no ${project ? 'region' : 'project'} (no placement output, no resource that says)` };
  const nodeLocations = list(cluster?.node_locations);
  const zones =
    list(raw.outputs.location) ??
    (nodeLocations && nodeLocations.length > 0 ? nodeLocations : undefined) ??
    (clusterLocation && clusterLocation !== region ? [clusterLocation] : undefined) ??
    derivedZones('gcp', region) ??
    [];
  return { kind: 'deployed', slot: gcpSlot(project, region, zones), from: 'outputs and resources' };
}
