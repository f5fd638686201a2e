/**
 * The AWS preflight against stubbed SDK clients: every client's `send` answers
 * the command it gets with a response shaped as the AWS API documents it
 * (IAM SimulatePrincipalPolicy's EvaluationResults and EvalDecision values
 * `allowed`, `explicitDeny`, `implicitDeny`; EC2 DescribeNatGateways' states).
 * No request leaves the process.
 */
import { DescribeAddressesCommand, DescribeInternetGatewaysCommand, DescribeNatGatewaysCommand, DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { EKSClient, ListClustersCommand } from '@aws-sdk/client-eks';
import { DescribeLoadBalancersCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { EvaluationResult, GetRoleCommand, IAMClient, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { awsFindings, AwsPreflightInput } from '../../../lib/commands/preflight/aws-checks';
import { AwsQuotaNeeds } from '../../../lib/lab/estimate/quotas';
import { Finding } from '../../../lib/lab/checks/finding';

const ACCOUNT = '123456789012';
const ACTIONS = ['ec2:CreateVpc', 'ec2:RunInstances', 'eks:CreateCluster', 'iam:CreateRole'];
const NO_NEEDS: AwsQuotaNeeds = { vpcs: 0, internetGateways: 0, natGatewaysPerAz: 0, elasticIps: 0, eksClusters: 0, albs: 0, nlbs: 0, vcpus: 0, clbs: 0, notes: [] };

interface Scenario {
  /** The caller, as STS GetCallerIdentity names it. */
  readonly callerArn?: string;
  /** SimulatePrincipalPolicy's pages, in order (IsTruncated/Marker between them). */
  readonly simulation?: readonly (readonly EvaluationResult[])[];
  /** NAT gateways: subnet and state. */
  readonly natGateways?: readonly { readonly SubnetId: string; readonly State: string }[];
  /** Subnet id to availability zone. */
  readonly subnets?: Readonly<Record<string, string>>;
  /** Service Quotas' value per quota code. */
  readonly quotas?: Readonly<Record<string, number>>;
}

const allowed = (action: string): EvaluationResult => ({ EvalActionName: action, EvalDecision: 'allowed', EvalResourceName: '*' });
const decided = (action: string, EvalDecision: 'allowed' | 'explicitDeny' | 'implicitDeny'): EvaluationResult => ({ EvalActionName: action, EvalDecision, EvalResourceName: '*' });

/** What each command gets back in `scenario`; also records the simulated principals. */
function respond(scenario: Scenario, seen: { policySources: string[] }) {
  return async (command: unknown): Promise<unknown> => {
    if (command instanceof GetCallerIdentityCommand) {
      return { Arn: scenario.callerArn ?? `arn:aws:iam::${ACCOUNT}:user/host`, Account: ACCOUNT, UserId: 'AIDAEXAMPLE' };
    }
    if (command instanceof GetRoleCommand) {
      return { Role: { RoleName: command.input.RoleName, Arn: `arn:aws:iam::${ACCOUNT}:role/team/${command.input.RoleName}`, Path: '/team/' } };
    }
    if (command instanceof SimulatePrincipalPolicyCommand) {
      seen.policySources.push(command.input.PolicySourceArn ?? '');
      const pages = scenario.simulation ?? [ACTIONS.map(allowed)];
      const index = command.input.Marker === undefined ? 0 : Number(command.input.Marker);
      const last = index === pages.length - 1;
      return { EvaluationResults: pages[index], IsTruncated: !last, ...(last ? {} : { Marker: String(index + 1) }) };
    }
    if (command instanceof DescribeVpcsCommand) return { Vpcs: [] };
    if (command instanceof DescribeInternetGatewaysCommand) return { InternetGateways: [] };
    if (command instanceof DescribeNatGatewaysCommand) return { NatGateways: scenario.natGateways ?? [] };
    if (command instanceof DescribeSubnetsCommand) {
      return { Subnets: (command.input.SubnetIds ?? []).map((id) => ({ SubnetId: id, AvailabilityZone: scenario.subnets?.[id] })) };
    }
    if (command instanceof DescribeAddressesCommand) return { Addresses: [] };
    if (command instanceof ListClustersCommand) return { clusters: [] };
    if (command instanceof DescribeLoadBalancersCommand) return { LoadBalancers: [] };
    if (command instanceof GetServiceQuotaCommand) {
      const value = scenario.quotas?.[command.input.QuotaCode ?? ''];
      if (value === undefined) throw Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException' });
      return { Quota: { QuotaCode: command.input.QuotaCode, Value: value } };
    }
    throw new Error(`the stub does not answer ${(command as object).constructor.name}`);
  };
}

async function preflight(scenario: Scenario, input: Partial<AwsPreflightInput> = {}): Promise<{ findings: Finding[]; policySources: string[] }> {
  const seen = { policySources: [] as string[] };
  const answer = respond(scenario, seen);
  const spies = [STSClient, IAMClient, EC2Client, EKSClient, ElasticLoadBalancingV2Client, ServiceQuotasClient].map((client) =>
    jest.spyOn(client.prototype, 'send').mockImplementation(answer as never),
  );
  try {
    const findings = await awsFindings({ region: 'us-east-1', clusterAdminArns: [], workshop: 'k8s-101', clusterStacks: [], actions: ACTIONS, needs: NO_NEEDS, ...input });
    return { findings, policySources: seen.policySources };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const permissions = (findings: Finding[]) => findings.find((f) => f.check === 'aws permissions');

describe('AWS preflight: IAM policy simulation', () => {
  test('GIVEN every action allowed WHEN simulated THEN the permissions check passes', async () => {
    const { findings } = await preflight({});
    expect(permissions(findings)).toEqual({
      check: 'aws permissions',
      verdict: 'pass',
      detail: `all 4 actions the stacks need are allowed for arn:aws:iam::${ACCOUNT}:user/host (identity policies; SCPs and boundaries only as far as simulation sees them)`,
    });
  });

  test.each([
    ['explicitDeny (a Deny statement)', 'explicitDeny' as const],
    ['implicitDeny (no statement allows it)', 'implicitDeny' as const],
  ])('GIVEN one action %s WHEN simulated THEN the check fails naming it: anything but "allowed" is denied', async (_name, decision) => {
    const { findings } = await preflight({ simulation: [[allowed('ec2:CreateVpc'), decided('ec2:RunInstances', decision), allowed('eks:CreateCluster'), allowed('iam:CreateRole')]] });
    expect(permissions(findings)).toEqual({
      check: 'aws permissions',
      verdict: 'fail',
      detail: `arn:aws:iam::${ACCOUNT}:user/host is denied 1 of 4 actions the stacks need: ec2:RunInstances`,
      fix: 'add these actions to the deployer’s policy (or use a role that has them)',
    });
  });

  test('GIVEN both kinds of deny across two pages WHEN simulated THEN every denied action of every page is named, sorted', async () => {
    const { findings } = await preflight({
      simulation: [
        [decided('iam:CreateRole', 'implicitDeny'), allowed('ec2:CreateVpc')],
        [decided('ec2:RunInstances', 'explicitDeny'), allowed('eks:CreateCluster')],
      ],
    });
    expect(permissions(findings)?.verdict).toBe('fail');
    expect(permissions(findings)?.detail).toBe(`arn:aws:iam::${ACCOUNT}:user/host is denied 2 of 4 actions the stacks need: ec2:RunInstances, iam:CreateRole`);
  });

  test('GIVEN an assumed-role session WHEN simulated THEN its role, with the path IAM reports, is the policy source', async () => {
    const { findings, policySources } = await preflight({ callerArn: `arn:aws:sts::${ACCOUNT}:assumed-role/deployer/host-session` });
    expect(policySources).toEqual([`arn:aws:iam::${ACCOUNT}:role/team/deployer`]);
    expect(permissions(findings)?.verdict).toBe('pass');
  });

  test('GIVEN the account root user WHEN checked THEN nothing is simulated and it is a warning', async () => {
    const { findings, policySources } = await preflight({ callerArn: `arn:aws:iam::${ACCOUNT}:root` });
    expect(policySources).toEqual([]);
    expect(permissions(findings)).toEqual(expect.objectContaining({ verdict: 'warn', fix: 'deploy as an IAM role or user' }));
  });
});

describe('AWS preflight: NAT gateways per availability zone', () => {
  const needs: AwsQuotaNeeds = { ...NO_NEEDS, natGatewaysPerAz: 2 };
  const subnets = { 'subnet-a1': 'us-east-1a', 'subnet-a2': 'us-east-1a', 'subnet-b1': 'us-east-1b' };
  const nat = (findings: Finding[]) => findings.find((f) => f.check === 'aws quota natGatewaysPerAz');

  test('GIVEN NAT gateways in two zones (one deleted) WHEN counted THEN the fullest zone is what is in use', async () => {
    const { findings } = await preflight(
      {
        subnets,
        quotas: { 'L-FE5A380F': 5 },
        natGateways: [
          { SubnetId: 'subnet-a1', State: 'available' },
          { SubnetId: 'subnet-a2', State: 'pending' },
          { SubnetId: 'subnet-a2', State: 'deleted' },
          { SubnetId: 'subnet-b1', State: 'available' },
        ],
      },
      { needs },
    );
    expect(nat(findings)).toEqual({
      check: 'aws quota natGatewaysPerAz',
      verdict: 'pass',
      detail: 'NAT gateways per Availability Zone (L-FE5A380F): 2 in use + 2 for this lab = 4 of 5 (Service Quotas)',
    });
  });

  test('GIVEN a zone that is nearly full WHEN counted THEN it fails, though the region has room in total', async () => {
    const { findings } = await preflight(
      {
        subnets,
        quotas: { 'L-FE5A380F': 5 },
        natGateways: [...['subnet-a1', 'subnet-a1', 'subnet-a2', 'subnet-a2'].map((SubnetId) => ({ SubnetId, State: 'available' }))],
      },
      { needs },
    );
    expect(nat(findings)).toEqual(expect.objectContaining({ verdict: 'fail', detail: 'NAT gateways per Availability Zone (L-FE5A380F): 4 in use + 2 for this lab = 6 of 5 (Service Quotas)' }));
  });
});
