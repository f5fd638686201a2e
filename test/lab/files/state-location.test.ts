/**
 * Where a cluster state says its environment is: the `placement` output first;
 * for labs deployed before placement (or an apply that stopped before its
 * outputs), the cluster outputs and the resources' own attributes; a state with
 * resources that says not where is a location that cannot be read.
 */
import { validConfig } from '../../../lib/config/load';
import { awsStateLocation, gcpStateLocation } from '../../../lib/lab/files/state-location';
import { tfState } from '../../support/tf-state';

const VPC: [string, Record<string, unknown>] = ['aws_vpc', { id: 'vpc-1', arn: 'arn:aws:ec2:eu-west-1:444455556666:vpc/vpc-1' }];
const config = (aws: Record<string, unknown> = {}) => validConfig({ aws }, 'test');

describe('awsStateLocation', () => {
  test('GIVEN a state without resources (never applied, or destroyed) THEN nothing is deployed', () => {
    expect(awsStateLocation(tfState({ region: 'us-east-1' }, []), config())).toEqual({ kind: 'empty' });
    expect(awsStateLocation(undefined, config())).toEqual({ kind: 'empty' });
  });

  test("GIVEN a placement output in an account with its role THEN that slot, with the state's role, even once the account has left aws.accounts", () => {
    const state = tfState(
      {
        placement: {
          cloud: 'aws',
          slot: '444455556666/eu-west-1',
          account: '444455556666',
          region: 'eu-west-1',
          zones: ['eu-west-1a', 'eu-west-1b'],
          role_arn: 'arn:aws:iam::444455556666:role/HoplabDeployer',
        },
      },
      [VPC],
    );
    expect(awsStateLocation(state, config())).toEqual({
      kind: 'deployed',
      from: 'placement output',
      accountId: '444455556666',
      slot: {
        cloud: 'aws',
        id: '444455556666/eu-west-1',
        account: { id: '444455556666', roleName: 'HoplabDeployer', roleArn: 'arn:aws:iam::444455556666:role/HoplabDeployer' },
        region: 'eu-west-1',
        zones: ['eu-west-1a', 'eu-west-1b'],
      },
    });
  });

  test('GIVEN a placement output with its role WHEN aws.accounts names another role for that account THEN the role the state records (the one deployed with, the cluster admin), not the config one', () => {
    const state = tfState(
      { placement: { cloud: 'aws', slot: '444455556666/eu-west-1', account: '444455556666', region: 'eu-west-1', zones: ['eu-west-1a'], role_arn: 'arn:aws:iam::444455556666:role/HoplabDeployer' } },
      [VPC],
    );
    expect(awsStateLocation(state, config({ accounts: [{ id: '444455556666', roleName: 'Renamed' }], regions: ['eu-west-1'] }))).toMatchObject({
      kind: 'deployed',
      slot: { id: '444455556666/eu-west-1', account: { id: '444455556666', roleName: 'HoplabDeployer', roleArn: 'arn:aws:iam::444455556666:role/HoplabDeployer' } },
    });
  });

  test('GIVEN a placement output of an account without a role (pass 1) THEN the role is the one aws.accounts names, or the location cannot be read', () => {
    const state = tfState({ placement: { cloud: 'aws', slot: '444455556666/eu-west-1', account: '444455556666', region: 'eu-west-1', zones: ['eu-west-1a', 'eu-west-1b'] } }, [VPC]);
    const listed = awsStateLocation(state, config({ accounts: [{ id: '444455556666', roleName: 'Lab' }], regions: ['eu-west-1'] }));
    expect(listed).toMatchObject({ kind: 'deployed', slot: { id: '444455556666/eu-west-1', account: { roleArn: 'arn:aws:iam::444455556666:role/Lab' } } });
    expect(awsStateLocation(state, config())).toEqual({
      kind: 'unknown',
      reason: 'names account 444455556666 in its placement output but not the role to assume there (deployed before the output named it), and aws.accounts no longer lists 444455556666',
      fix: 'add { "id": "444455556666", "roleName": "<the role it was deployed with>" } back to aws.accounts',
    });
  });

  test("GIVEN a lab deployed before placement THEN its region and zones from the cluster outputs, the host's slot, and the account its OIDC provider names", () => {
    const state = tfState({ region: 'us-east-2', location: 'us-east-2a,us-east-2b', oidc_provider_arn: 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-2.amazonaws.com/id/X' }, [VPC]);
    expect(awsStateLocation(state, config())).toEqual({
      kind: 'deployed',
      from: 'outputs and resources',
      accountId: '123456789012',
      slot: { cloud: 'aws', id: 'host/us-east-2', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'] },
    });
    // The same account listed in aws.accounts since: that account's slot (the same place).
    expect(awsStateLocation(state, config({ accounts: [{ id: '123456789012' }], regions: ['us-east-2'] }))).toMatchObject({ slot: { id: '123456789012/us-east-2' } });
  });

  test('GIVEN an apply that stopped before its outputs THEN the region and account of a regional ARN, the zones of its subnets', () => {
    const state = tfState({}, [
      ['aws_iam_role', { arn: 'arn:aws:iam::444455556666:role/lab-eks-cluster' }],
      VPC,
      ['aws_subnet', { availability_zone: 'eu-west-1b' }],
      ['aws_subnet', { availability_zone: 'eu-west-1a' }],
    ]);
    expect(awsStateLocation(state, config())).toEqual({
      kind: 'deployed',
      from: 'outputs and resources',
      accountId: '444455556666',
      slot: { cloud: 'aws', id: 'host/eu-west-1', region: 'eu-west-1', zones: ['eu-west-1a', 'eu-west-1b'] },
    });
  });

  test('GIVEN ARNs the provider built without the account (skip_requesting_account_id, as against the emulator) THEN the region still, and the account of another ARN', () => {
    const state = tfState({}, [
      ['aws_vpc', { arn: 'arn:aws:ec2:us-east-1::vpc/vpc-1' }],
      ['aws_iam_role', { arn: 'arn:aws:iam::123456789012:role/lab-eks-cluster' }],
    ]);
    expect(awsStateLocation(state, config())).toMatchObject({ kind: 'deployed', accountId: '123456789012', slot: { id: 'host/us-east-1', zones: ['us-east-1a', 'us-east-1b'] } });
  });

  test('GIVEN only global resources and no outputs THEN where they are cannot be read', () => {
    expect(awsStateLocation(tfState({}, [['aws_iam_role', { arn: 'arn:aws:iam::444455556666:role/lab-eks-cluster' }]]), config())).toEqual({
      kind: 'unknown',
      reason: 'holds resources but names no region (no placement or region output, no regional ARN)',
    });
  });
});

describe('gcpStateLocation', () => {
  const NETWORK: [string, Record<string, unknown>] = ['google_compute_network', { name: 'lab-gke', project: 'acme-lab-1' }];

  test('GIVEN a placement output THEN its project, region and zones', () => {
    const state = tfState({ placement: { cloud: 'gcp', slot: 'acme-lab-2/us-east1', project: 'acme-lab-2', region: 'us-east1', zones: ['us-east1-b'] } }, [NETWORK]);
    expect(gcpStateLocation(state)).toEqual({
      kind: 'deployed',
      from: 'placement output',
      slot: { cloud: 'gcp', id: 'acme-lab-2/us-east1', project: 'acme-lab-2', region: 'us-east1', zones: ['us-east1-b'] },
    });
  });

  test('GIVEN a lab deployed before placement THEN the project of its resources, the region and zones of its outputs', () => {
    expect(gcpStateLocation(tfState({ region: 'us-central1', location: 'us-central1-a' }, [NETWORK]))).toEqual({
      kind: 'deployed',
      from: 'outputs and resources',
      slot: { cloud: 'gcp', id: 'acme-lab-1/us-central1', project: 'acme-lab-1', region: 'us-central1', zones: ['us-central1-a'] },
    });
  });

  test("GIVEN no outputs THEN the subnetwork's region and the zonal cluster's zone", () => {
    const state = tfState({}, [NETWORK, ['google_compute_subnetwork', { region: 'europe-west1', project: 'acme-lab-1' }], ['google_container_cluster', { location: 'europe-west1-b' }]]);
    expect(gcpStateLocation(state)).toMatchObject({ kind: 'deployed', slot: { id: 'acme-lab-1/europe-west1', zones: ['europe-west1-b'] } });
  });

  test('GIVEN resources without a project THEN where they are cannot be read', () => {
    expect(gcpStateLocation(tfState({ region: 'us-central1' }, [['random_id', { hex: 'ab' }]]))).toEqual({
      kind: 'unknown',
      reason: 'holds resources but names no project (no placement output, no resource that says)',
    });
  });
});
