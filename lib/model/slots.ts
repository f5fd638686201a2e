/**
 * Slots: where an environment's stacks go. An AWS slot is an account x region
 * (the host's own account when `aws.accounts` is not set), a GCP slot a
 * project x region. Each environment is placed in one slot per cloud (see
 * lib/lab/placement), and its stacks take that slot as props.
 */
import { PlacementOutput } from './contract';

/** The account of the host's own credentials, in slot ids: `host/us-east-1`. */
export const HOST_ACCOUNT = 'host';

/** An account of `aws.accounts`: the host's credentials assume `roleArn` there. */
export interface AwsSlotAccount {
  /** The 12-digit account ID. */
  readonly id: string;
  readonly roleName: string;
  /** `arn:aws:iam::<id>:role/<roleName>`. */
  readonly roleArn: string;
}

export interface AwsSlot {
  readonly cloud: 'aws';
  /** `<account id>/<region>`, or `host/<region>` for the host's own account. */
  readonly id: string;
  /** The account to assume a role in; undefined: the host's own account (no role assumed). */
  readonly account?: AwsSlotAccount;
  readonly region: string;
  /** The availability zones of the environment's subnets and nodes. */
  readonly zones: readonly string[];
}

export interface GcpSlot {
  readonly cloud: 'gcp';
  /** `<project>/<region>`. */
  readonly id: string;
  readonly project: string;
  readonly region: string;
  /** The zones of the node pool. */
  readonly zones: readonly string[];
}

export type Slot = AwsSlot | GcpSlot;

/** The role ARN the host's credentials assume in an account (commercial partition). */
export function accountRoleArn(accountId: string, roleName: string): string {
  return `arn:aws:iam::${accountId}:role/${roleName}`;
}

export function awsSlot(region: string, zones: readonly string[], account?: { readonly id: string; readonly roleName: string }): AwsSlot {
  return {
    cloud: 'aws',
    id: `${account?.id ?? HOST_ACCOUNT}/${region}`,
    ...(account ? { account: { id: account.id, roleName: account.roleName, roleArn: accountRoleArn(account.id, account.roleName) } } : {}),
    region,
    zones: [...zones],
  };
}

export function gcpSlot(project: string, region: string, zones: readonly string[]): GcpSlot {
  return { cloud: 'gcp', id: `${project}/${region}`, project, region, zones: [...zones] };
}

/**
 * The account (AWS: its id, or `host`) or project (GCP) a slot belongs to. Quotas of scope
 * `project` add up over all the slots of one project.
 */
export function slotGroup(slot: Slot): string {
  return slot.cloud === 'aws' ? slot.account?.id ?? HOST_ACCOUNT : slot.project;
}

/** The `placement` output of a slot's stacks (lib/model/contract.ts). */
export function placementOutput(slot: Slot): PlacementOutput {
  return slot.cloud === 'aws'
    ? { cloud: 'aws', slot: slot.id, account: slot.account?.id ?? HOST_ACCOUNT, region: slot.region, zones: [...slot.zones], ...(slot.account ? { role_arn: slot.account.roleArn } : {}) }
    : { cloud: 'gcp', slot: slot.id, project: slot.project, region: slot.region, zones: [...slot.zones] };
}
