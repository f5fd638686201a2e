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
import { EvaluationResult, GetRoleCommand, GetUserCommand, IAMClient, NoSuchEntityException, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
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
  /** The roles and users IAM holds, by name, with their ARNs (unset: every role exists, under path /team/). */
  readonly principals?: { readonly roles: Readonly<Record<string, string>>; readonly users: Readonly<Record<string, string>> };
}

/** IAM's answer for a name it does not hold (GetRole, GetUser: NoSuchEntity, HTTP 404). */
const noSuchEntity = (what: string) => new NoSuchEntityException({ message: `The ${what} cannot be found.`, $metadata: { httpStatusCode: 404 } });

const allowed = (action: string): EvaluationResult => ({ EvalActionName: action, EvalDecision: 'allowed', EvalResourceName: '*' });
const decided = (action: string, EvalDecision: 'allowed' | 'explicitDeny' | 'implicitDeny'): EvaluationResult => ({ EvalActionName: action, EvalDecision, EvalResourceName: '*' });

/** What each command gets back in `scenario`; also records the simulated principals. */
function respond(scenario: Scenario, seen: { policySources: string[] }) {
  return async (command: unknown): Promise<unknown> => {
    if (command instanceof GetCallerIdentityCommand) {
      return { Arn: scenario.callerArn ?? `arn:aws:iam::${ACCOUNT}:user/host`, Account: ACCOUNT, UserId: 'AIDAEXAMPLE' };
    }
    if (command instanceof GetRoleCommand) {
      const name = command.input.RoleName ?? '';
      if (!scenario.principals) return { Role: { RoleName: name, Arn: `arn:aws:iam::${ACCOUNT}:role/team/${name}`, Path: '/team/' } };
      const arn = scenario.principals.roles[name];
      if (!arn) throw noSuchEntity(`role with name ${name}`);
      return { Role: { RoleName: name, Arn: arn } };
    }
    if (command instanceof GetUserCommand) {
      const name = command.input.UserName ?? '';
      const arn = scenario.principals?.users[name];
      if (!arn) throw noSuchEntity(`user with name ${name}`);
      return { User: { UserName: name, Arn: arn } };
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

describe('AWS preflight: attendees’ identities', () => {
  const attendeeFindings = (findings: Finding[]) => findings.filter((f) => f.check === 'aws attendees');
  const principals = {
    roles: { ann: `arn:aws:iam::${ACCOUNT}:role/workshop/ann`, bob: `arn:aws:iam::${ACCOUNT}:role/workshop/bob` },
    users: { cy: `arn:aws:iam::${ACCOUNT}:user/cy` },
  };

  test('GIVEN same-account attendee roles and users that exist as written WHEN checked THEN it passes, counting them', async () => {
    const { findings } = await preflight(
      { principals },
      {
        attendees: [
          { env: 'ann', arn: `arn:aws:iam::${ACCOUNT}:role/workshop/ann` },
          { env: 'cy', arn: `arn:aws:iam::${ACCOUNT}:user/cy` },
        ],
      },
    );
    expect(attendeeFindings(findings)).toEqual([{ check: 'aws attendees', verdict: 'pass', detail: `2 attendee identities exist in account ${ACCOUNT}, as written` }]);
  });

  test('GIVEN a missing role, a missing user and a role written without its path WHEN checked THEN it fails naming each, with the path to write', async () => {
    const { findings } = await preflight(
      { principals },
      {
        attendees: [
          { env: 'ann', arn: `arn:aws:iam::${ACCOUNT}:role/ann` },
          { env: 'dee', arn: `arn:aws:iam::${ACCOUNT}:role/dee` },
          { env: 'eve', arn: `arn:aws:iam::${ACCOUNT}:user/eve` },
        ],
      },
    );
    expect(attendeeFindings(findings)).toEqual([
      {
        check: 'aws attendees',
        verdict: 'fail',
        detail:
          `3 attendee identities do not exist as written, and EKS refuses an access entry for them: ann: arn:aws:iam::${ACCOUNT}:role/ann (the role ann is arn:aws:iam::${ACCOUNT}:role/workshop/ann: write that ARN, its path included); ` +
          `dee: arn:aws:iam::${ACCOUNT}:role/dee (no such role in account ${ACCOUNT}); eve: arn:aws:iam::${ACCOUNT}:user/eve (no such user in account ${ACCOUNT})`,
        fix: 'create the role or user first, or correct the attendee\'s "aws" ARN (`aws iam get-role --role-name <name> --query Role.Arn` prints it)',
      },
    ]);
  });

  test('GIVEN an attendee in another account WHEN checked THEN it is said not to be checked, and why, without failing', async () => {
    const { findings } = await preflight({ principals }, { attendees: [{ env: 'cy', arn: 'arn:aws:iam::210987654321:role/cy' }] });
    expect(attendeeFindings(findings)).toEqual([
      {
        check: 'aws attendees',
        verdict: 'warn',
        detail: `not checked, in another account than the deployer's ${ACCOUNT} (IAM reads only its own account): cy (arn:aws:iam::210987654321:role/cy)`,
        fix: 'check them in their own account (aws iam get-role / get-user), or ask each attendee',
      },
    ]);
  });

  test('GIVEN no attendee identities WHEN checked THEN nothing is said', async () => {
    expect(attendeeFindings((await preflight({ principals })).findings)).toEqual([]);
  });
});

describe('AWS preflight: the deployer in aws.clusterAdminArns', () => {
  const admin = `arn:aws:iam::${ACCOUNT}:role/hoplab-admin`;
  const session = `arn:aws:sts::${ACCOUNT}:assumed-role/hoplab-admin/host`;
  const clusterStack = { env: 'lab', stack: { name: 'lab-aws-cluster', file: 'cdk.tf.json', json: {} } };
  const admins = (findings: Finding[]) => findings.filter((f) => f.check === 'aws cluster admins');

  test('GIVEN aws-lb stacks only (deploy --stacks aws-lb) WHEN the deployer is a listed admin THEN it is not refused: the cluster stack makes the access entries', async () => {
    expect(admins((await preflight({ callerArn: session }, { clusterAdminArns: [admin], clusterStacks: [] })).findings)).toEqual([]);
  });

  test('GIVEN aws-cluster stacks WHEN the deployer is a listed admin THEN it fails, as EKS refuses a second access entry for the creator', async () => {
    expect(admins((await preflight({ callerArn: session }, { clusterAdminArns: [admin], clusterStacks: [clusterStack] })).findings)).toEqual([
      expect.objectContaining({ verdict: 'fail', fix: `remove ${admin} from aws.clusterAdminArns` }),
    ]);
  });
});
