/** Terraform states as a local state file holds them (format 4), for tests of what hoplab reads from state. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A state with these outputs and one resource instance per `[type, attributes]`. */
export function tfState(outputs: Record<string, unknown>, resources: readonly (readonly [string, Record<string, unknown>])[]): Record<string, unknown> {
  return {
    version: 4,
    terraform_version: '1.11.4',
    serial: 1,
    lineage: 'hoplab-test',
    outputs: Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { value, type: typeof value === 'string' ? 'string' : 'dynamic' }])),
    resources: resources.map(([type, attributes], i) => ({ mode: 'managed', type, name: `r${i}`, provider: 'provider', instances: [{ schema_version: 0, attributes }] })),
  };
}

/** Writes `state` to `path` (its folder made). */
export function writeState(path: string, state: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
}

/** The state of an `<env>-aws-cluster` deployed by a placed lab: its placement output and a VPC in the slot's region and account. */
export function placedAwsState(placement: {
  readonly slot: string;
  readonly account: string;
  readonly region: string;
  readonly zones: readonly string[];
  readonly role_arn?: string;
}): Record<string, unknown> {
  const account = placement.account === 'host' ? '123456789012' : placement.account;
  return tfState({ placement: { cloud: 'aws', ...placement }, region: placement.region }, [['aws_vpc', { id: 'vpc-1', arn: `arn:aws:ec2:${placement.region}:${account}:vpc/vpc-1` }]]);
}

/** The state of an `<env>-gcp-cluster` deployed by a placed lab. */
export function placedGcpState(placement: { readonly project: string; readonly region: string; readonly zones: readonly string[] }): Record<string, unknown> {
  return tfState({ placement: { cloud: 'gcp', slot: `${placement.project}/${placement.region}`, ...placement }, region: placement.region }, [
    ['google_compute_network', { name: 'net', project: placement.project }],
  ]);
}
