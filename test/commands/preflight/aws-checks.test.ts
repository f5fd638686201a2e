/**
 * The AWS preflight against stubbed SDK clients: every client's `send` answers
 * the command it gets with a response shaped as the AWS API documents it
 * (IAM SimulatePrincipalPolicy's EvaluationResults and EvalDecision values
 * `allowed`, `explicitDeny`, `implicitDeny`; EC2 DescribeNatGateways' states).
 * No request leaves the process.
 */
import {
  DescribeAddressesCommand,
  DescribeAvailabilityZonesCommand,
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeNatGatewaysCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
  Instance,
} from '@aws-sdk/client-ec2';
import { EKSClient, ListClustersCommand } from '@aws-sdk/client-eks';
import { DescribeLoadBalancersCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { EvaluationResult, GetRoleCommand, GetUserCommand, IAMClient, NoSuchEntityException, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { AssumeRoleCommand, GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { awsFindings, AwsPreflightInput, AwsPreflightResult, AwsSlotInput } from '../../../lib/commands/preflight/aws-checks';
import { standardOnDemandVcpus } from '../../../lib/commands/preflight/aws-quota-checks';
import { AWS_QUOTAS, AwsQuotaId } from '../../../lib/model/quotas';
import { awsSlot } from '../../../lib/model/slots';
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
  /** DescribeAvailabilityZones' zones (name, id, state). @default us-east-1a..c, available */
  readonly zones?: readonly { readonly ZoneName: string; readonly ZoneId: string; readonly State: string; readonly ZoneType?: string }[];
  /** DescribeInstances' instances, in pages of reservations. @default none */
  readonly instances?: readonly (readonly Instance[])[];
  /** How many VPCs, internet gateways, Elastic IPs, EKS clusters, ALBs and NLBs the account holds in the region. @default none */
  readonly used?: Partial<Record<'vpcs' | 'internetGateways' | 'elasticIps' | 'eksClusters' | 'albs' | 'nlbs', number>>;
}

const many = <T>(n: number | undefined, item: (i: number) => T): T[] => Array.from({ length: n ?? 0 }, (_, i) => item(i));

const US_EAST_1_ZONES = [
  { ZoneName: 'us-east-1a', ZoneId: 'use1-az4', State: 'available', ZoneType: 'availability-zone' },
  { ZoneName: 'us-east-1b', ZoneId: 'use1-az6', State: 'available', ZoneType: 'availability-zone' },
  { ZoneName: 'us-east-1c', ZoneId: 'use1-az1', State: 'available', ZoneType: 'availability-zone' },
];

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
    if (command instanceof DescribeVpcsCommand) return { Vpcs: many(scenario.used?.vpcs, (i) => ({ VpcId: `vpc-${i}` })) };
    if (command instanceof DescribeInternetGatewaysCommand) return { InternetGateways: many(scenario.used?.internetGateways, (i) => ({ InternetGatewayId: `igw-${i}` })) };
    if (command instanceof DescribeNatGatewaysCommand) return { NatGateways: scenario.natGateways ?? [] };
    if (command instanceof DescribeSubnetsCommand) {
      return { Subnets: (command.input.SubnetIds ?? []).map((id) => ({ SubnetId: id, AvailabilityZone: scenario.subnets?.[id] })) };
    }
    if (command instanceof DescribeAddressesCommand) return { Addresses: many(scenario.used?.elasticIps, (i) => ({ AllocationId: `eipalloc-${i}`, Domain: 'vpc' })) };
    if (command instanceof ListClustersCommand) return { clusters: many(scenario.used?.eksClusters, (i) => `cluster-${i}`) };
    if (command instanceof DescribeLoadBalancersCommand) {
      return { LoadBalancers: [...many(scenario.used?.albs, () => ({ Type: 'application' })), ...many(scenario.used?.nlbs, () => ({ Type: 'network' }))] };
    }
    if (command instanceof DescribeAvailabilityZonesCommand) return { AvailabilityZones: scenario.zones ?? US_EAST_1_ZONES };
    if (command instanceof DescribeInstancesCommand) {
      const pages = scenario.instances ?? [[]];
      const index = command.input.NextToken === undefined ? 0 : Number(command.input.NextToken);
      const last = index === pages.length - 1;
      return { Reservations: [{ Instances: pages[index] }], ...(last ? {} : { NextToken: String(index + 1) }) };
    }
    if (command instanceof GetServiceQuotaCommand) {
      const value = scenario.quotas?.[command.input.QuotaCode ?? ''];
      if (value === undefined) throw Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException' });
      return { Quota: { QuotaCode: command.input.QuotaCode, Value: value } };
    }
    throw new Error(`the stub does not answer ${(command as object).constructor.name}`);
  };
}

/** One slot of the host's account in us-east-1 (its two derived zones). */
const SLOT = awsSlot('us-east-1', ['us-east-1a', 'us-east-1b']);

async function preflight(
  scenario: Scenario,
  slot: Partial<AwsSlotInput> = {},
  input: Partial<AwsPreflightInput> = {},
): Promise<{ findings: Finding[]; policySources: string[]; result: AwsPreflightResult }> {
  const seen = { policySources: [] as string[] };
  const answer = respond(scenario, seen);
  const spies = [STSClient, IAMClient, EC2Client, EKSClient, ElasticLoadBalancingV2Client, ServiceQuotasClient].map((client) =>
    jest.spyOn(client.prototype, 'send').mockImplementation(answer as never),
  );
  try {
    const result = await awsFindings({ clusterAdminArns: [], workshop: 'k8s-101', actions: ACTIONS, slots: [{ slot: SLOT, clusterStacks: [], needs: NO_NEEDS, ...slot }], ...input });
    return { findings: result.findings, policySources: seen.policySources, result };
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

describe('AWS preflight: every quota of the table at, under and over the account’s limit', () => {
  /** The account holds `used` of a quota in the region. */
  const holding = (id: AwsQuotaId, used: number): Scenario => {
    if (id === 'natGatewaysPerAz') return { natGateways: many(used, () => ({ SubnetId: 'subnet-a', State: 'available' })), subnets: { 'subnet-a': 'us-east-1a' } };
    // Standard On-Demand instances of one vCPU each (their CPU options say so), running.
    if (id === 'vcpus') return { instances: [many(used, (i) => ({ InstanceId: `i-${i}`, InstanceType: 'm5.large', State: { Name: 'running' }, CpuOptions: { CoreCount: 1, ThreadsPerCore: 1 } }))] };
    return { used: { [id]: used } };
  };

  test.each(AWS_QUOTAS.map((q) => [q.id, q.quotaCode] as const))(
    'GIVEN %s (%s): 3 in use and 2 needed WHEN the limit is 5, 6 and 4 THEN exactly at the limit and under it pass, over it fails with the request for 5',
    async (id, quotaCode) => {
      const verdicts: string[] = [];
      for (const limit of [5, 6, 4]) {
        const { findings, result } = await preflight({ ...holding(id, 3), quotas: { [quotaCode]: limit } }, { needs: { ...NO_NEEDS, [id]: 2 } });
        const finding = findings.find((f) => f.check === `aws quota ${id}`);
        verdicts.push(finding?.verdict ?? 'missing');
        expect(finding?.detail).toMatch(new RegExp(`: 3 in use \\+ 2 for this lab = 5 of ${limit} \\(Service Quotas\\)$`));
        if (limit === 4) {
          const quota = AWS_QUOTAS.find((q) => q.id === id)!;
          expect(finding?.fix).toContain(`aws service-quotas request-service-quota-increase --service-code ${quota.serviceCode} --quota-code ${quotaCode} --desired-value 5 --region us-east-1`);
          expect(result.shortfalls.map((s) => [s.quota.id, s.used, s.need, s.limit])).toEqual([[id, 3, 2, 4]]);
        } else expect(result.shortfalls).toEqual([]);
      }
      expect(verdicts).toEqual(['pass', 'pass', 'fail']);
    },
  );

  test('GIVEN Service Quotas does not answer WHEN checked THEN a quota with a default is held to it, said so, and vCPUs (set per account) are said not to be checked', async () => {
    const { findings } = await preflight({}, { needs: { ...NO_NEEDS, vpcs: 1, vcpus: 6 } });
    expect(findings.find((f) => f.check === 'aws quota vpcs')).toMatchObject({ verdict: 'warn', detail: expect.stringContaining("0 in use + 1 for this lab = 1 of 5 (AWS's documented default") });
    expect(findings.find((f) => f.check === 'aws quota vcpus')).toEqual({
      check: 'aws quota vcpus',
      verdict: 'warn',
      detail:
        'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances (vCPUs) (L-1216C47A): 0 in use + 6 for this lab = 6, not checked: AWS sets its value per account and Service Quotas did not answer (AccessDeniedException: User is not authorized)',
      fix: 'allow servicequotas:GetServiceQuota to check it',
    });
  });
});

describe('AWS preflight: environments already deployed are not counted twice', () => {
  // 4 environments deployed in the slot: with the default VPC, 5 VPCs in use of 5.
  const deployedFour = { envs: 4, needs: { ...NO_NEEDS, vpcs: 4 } };

  test('GIVEN a slot full with its 4 deployed environments WHEN deploy runs again on the same 4 THEN the VPCs pass: theirs are among those in use', async () => {
    const { findings, result } = await preflight({ used: { vpcs: 5 }, quotas: { 'L-F678F1CE': 5 } }, { needs: { ...NO_NEEDS, vpcs: 4 }, deployed: deployedFour });
    expect(findings.find((f) => f.check === 'aws quota vpcs')).toEqual({
      check: 'aws quota vpcs',
      verdict: 'pass',
      detail: 'VPCs per Region (L-F678F1CE): 5 in use (the 4 environments deployed here among them, their state says) + 0 for the rest of this lab = 5 of 5 (Service Quotas)',
    });
    expect(result.shortfalls).toEqual([]);
  });

  test('GIVEN the same slot and a 5th attendee appended WHEN checked THEN only the new environment is needed, and the request asks for one more', async () => {
    const { findings, result } = await preflight({ used: { vpcs: 5 }, quotas: { 'L-F678F1CE': 5 } }, { needs: { ...NO_NEEDS, vpcs: 5 }, deployed: deployedFour });
    const vpcs = findings.find((f) => f.check === 'aws quota vpcs');
    expect(vpcs).toMatchObject({
      verdict: 'fail',
      detail: 'VPCs per Region (L-F678F1CE): 5 in use (the 4 environments deployed here among them, their state says) + 1 for the rest of this lab = 6 of 5 (Service Quotas)',
    });
    expect(vpcs?.fix).toContain('--quota-code L-F678F1CE --desired-value 6 --region us-east-1');
    expect(result.shortfalls.map((s) => [s.quota.id, s.used, s.need, s.limit])).toEqual([['vpcs', 5, 1, 5]]);
  });
});

describe('the vCPUs of running instances (L-1216C47A)', () => {
  const instance = (type: string, extra: Partial<Instance> = {}): Instance => ({ InstanceId: `i-${type}`, InstanceType: type as Instance['InstanceType'], State: { Name: 'running' }, ...extra });

  test('GIVEN instances of every kind WHEN counted THEN only pending and running On-Demand standard ones count, by their CPU options or the type table', () => {
    expect(
      standardOnDemandVcpus([
        instance('t3.medium'), // 2, from the table
        instance('m5.large', { CpuOptions: { CoreCount: 1, ThreadsPerCore: 1 } }), // 1: its CPU options
        instance('c6i.large', { State: { Name: 'pending' }, CpuOptions: { CoreCount: 1, ThreadsPerCore: 2 } }), // 2
        instance('r5.large', { InstanceLifecycle: 'spot', CpuOptions: { CoreCount: 1, ThreadsPerCore: 2 } }), // Spot: its own quota
        instance('m5.xlarge', { State: { Name: 'stopped' }, CpuOptions: { CoreCount: 2, ThreadsPerCore: 2 } }), // not running
        instance('g4dn.xlarge', { CpuOptions: { CoreCount: 2, ThreadsPerCore: 2 } }), // G: its own quota
        instance('inf1.xlarge', { CpuOptions: { CoreCount: 2, ThreadsPerCore: 2 } }), // Inf
        instance('hpc6a.48xlarge', { CpuOptions: { CoreCount: 96, ThreadsPerCore: 1 } }), // HPC
        instance('x2idn.16xlarge', { CpuOptions: { CoreCount: 32, ThreadsPerCore: 2 } }), // X
        instance('i4i.large', { CpuOptions: { CoreCount: 1, ThreadsPerCore: 2 } }), // I: standard, 2
        instance('z1d.weird'), // standard, but no CPU options and not in the table
      ]),
    ).toEqual({ vcpus: 7, unknown: ['i-z1d.weird (z1d.weird)'] });
  });
});

describe('AWS preflight: the Availability Zones of a slot', () => {
  test('GIVEN the slot’s zones available WHEN checked THEN it passes naming the zone IDs they map to in this account', async () => {
    const { findings } = await preflight({});
    expect(findings.find((f) => f.check === 'aws zones')).toEqual({
      check: 'aws zones',
      verdict: 'pass',
      detail: "us-east-1a (use1-az4), us-east-1b (use1-az6) are available in this account's us-east-1 (zone IDs differ by account)",
    });
  });

  test('GIVEN an account without one of the zones (and one impaired, and a Local Zone) WHEN checked THEN it fails naming the zones the account has', async () => {
    const zones = [
      { ZoneName: 'us-east-1a', ZoneId: 'use1-az4', State: 'available', ZoneType: 'availability-zone' },
      { ZoneName: 'us-east-1b', ZoneId: 'use1-az6', State: 'impaired', ZoneType: 'availability-zone' },
      { ZoneName: 'us-east-1c', ZoneId: 'use1-az1', State: 'available', ZoneType: 'availability-zone' },
      { ZoneName: 'us-east-1-bos-1a', ZoneId: 'use1-bos1-az1', State: 'available', ZoneType: 'local-zone' },
    ];
    const { findings } = await preflight({ zones });
    expect(findings.find((f) => f.check === 'aws zones')).toEqual({
      check: 'aws zones',
      verdict: 'fail',
      detail: 'us-east-1b is not an available Availability Zone of this account in us-east-1; it has us-east-1a (use1-az4), us-east-1c (use1-az1)',
      fix: 'use zones of that list: aws.availabilityZones for aws.region; in the other regions of aws.regions hoplab derives them from its zone table (lib/model/zones.ts)',
    });
  });
});

describe('AWS preflight per slot, each with its own region and account', () => {
  const OTHER = '111122223333';
  const role = `arn:aws:iam::${OTHER}:role/OrganizationAccountAccessRole`;
  const env = { AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN: process.env.AWS_SESSION_TOKEN };
  beforeAll(() => {
    // The host's own credentials, as the default chain reads them first.
    process.env.AWS_ACCESS_KEY_ID = 'AKIAHOSTEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'host-secret';
    delete process.env.AWS_SESSION_TOKEN;
  });
  afterAll(() => {
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  test('GIVEN a host slot in us-east-1 and an assumed-role slot in us-east-2 WHEN checked THEN every call goes to its slot’s region with its account’s credentials, and each check names its account or slot', async () => {
    const calls: { command: string; region: string; key: string }[] = [];
    const assumed: string[] = [];
    const quotas = { 'L-F678F1CE': 5 };
    const answer = async function (this: { config: { region: () => Promise<string>; credentials: () => Promise<{ accessKeyId: string }> } }, command: object): Promise<unknown> {
      if (command instanceof AssumeRoleCommand) {
        assumed.push(command.input.RoleArn ?? '');
        return { Credentials: { AccessKeyId: `ASIA${OTHER}`, SecretAccessKey: 'assumed-secret', SessionToken: 'token', Expiration: new Date(Date.now() + 3_600_000) } };
      }
      const key = (await this.config.credentials()).accessKeyId;
      calls.push({ command: command.constructor.name, region: await this.config.region(), key });
      if (command instanceof GetCallerIdentityCommand) {
        return key === `ASIA${OTHER}`
          ? { Arn: `arn:aws:sts::${OTHER}:assumed-role/OrganizationAccountAccessRole/hoplab`, Account: OTHER }
          : { Arn: `arn:aws:iam::${ACCOUNT}:user/host`, Account: ACCOUNT };
      }
      if (command instanceof DescribeAvailabilityZonesCommand) {
        const region = await this.config.region();
        return { AvailabilityZones: ['a', 'b', 'c'].map((l, i) => ({ ZoneName: `${region}${l}`, ZoneId: `${region}-az${i + 1}`, State: 'available', ZoneType: 'availability-zone' })) };
      }
      return respond({ quotas }, { policySources: [] }).call(this, command);
    };
    const spies = [STSClient, IAMClient, EC2Client, EKSClient, ElasticLoadBalancingV2Client, ServiceQuotasClient].map((client) =>
      jest.spyOn(client.prototype, 'send').mockImplementation(answer as never),
    );
    let result: AwsPreflightResult;
    try {
      result = await awsFindings({
        clusterAdminArns: [],
        workshop: 'k8s-101',
        actions: ACTIONS,
        slots: [
          { slot: SLOT, clusterStacks: [], needs: { ...NO_NEEDS, vpcs: 4 } },
          { slot: awsSlot('us-east-2', ['us-east-2a', 'us-east-2b'], { id: OTHER, roleName: 'OrganizationAccountAccessRole' }), clusterStacks: [], needs: { ...NO_NEEDS, vpcs: 6 } },
        ],
      });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(new Set(assumed)).toEqual(new Set([role]));
    // Every call of the second slot went to us-east-2 with the assumed role's credentials; of the first, us-east-1 with the host's.
    const byRegion = (region: string) => [...new Set(calls.filter((c) => c.region === region).map((c) => c.key))];
    expect(byRegion('us-east-1')).toEqual(['AKIAHOSTEXAMPLE']);
    expect(byRegion('us-east-2')).toEqual([`ASIA${OTHER}`]);
    expect(calls.filter((c) => c.command === 'DescribeVpcsCommand').map((c) => c.region)).toEqual(['us-east-1', 'us-east-2']);
    expect(result.findings.map((f) => [f.check, f.verdict])).toEqual([
      ['aws identity (host account)', 'pass'],
      ['aws permissions (host account)', 'pass'],
      ['aws zones (host/us-east-1)', 'pass'],
      ['aws quota vpcs (host/us-east-1)', 'pass'],
      [`aws identity (account ${OTHER})`, 'pass'],
      [`aws permissions (account ${OTHER})`, 'pass'],
      [`aws zones (${OTHER}/us-east-2)`, 'pass'],
      [`aws quota vpcs (${OTHER}/us-east-2)`, 'fail'],
    ]);
    expect(result.findings.find((f) => f.check === `aws identity (account ${OTHER})`)?.detail).toBe(
      `arn:aws:sts::${OTHER}:assumed-role/OrganizationAccountAccessRole/hoplab (account ${OTHER}) in AWS us-east-2`,
    );
    expect(result.findings.find((f) => f.check === `aws quota vpcs (${OTHER}/us-east-2)`)?.fix).toBe(
      `request 6 (npx hoplab preflight --request-quotas files it): aws service-quotas request-service-quota-increase --service-code vpc --quota-code L-F678F1CE --desired-value 6 --region us-east-2  # with credentials of account ${OTHER} (its role ${role}); or free some, or deploy fewer environments (--env)`,
    );
    expect(result.shortfalls.map((s) => [s.slot.id, s.quota.id, s.limit])).toEqual([[`${OTHER}/us-east-2`, 'vpcs', 5]]);
  });

  test('GIVEN an account whose role cannot be assumed WHEN checked THEN its identity fails and its slots are said not to be checked', async () => {
    // An account of its own: assumed credentials may be kept per role between clients.
    const LOCKED = '444455556666';
    const role = `arn:aws:iam::${LOCKED}:role/OrganizationAccountAccessRole`;
    const answer = async function (command: object): Promise<unknown> {
      if (command instanceof AssumeRoleCommand)
        throw Object.assign(new Error(`User: arn:aws:iam::${ACCOUNT}:user/host is not authorized to perform: sts:AssumeRole on resource: ${role}`), { name: 'AccessDenied' });
      return respond({}, { policySources: [] })(command);
    };
    const spies = [STSClient, IAMClient, EC2Client, EKSClient, ElasticLoadBalancingV2Client, ServiceQuotasClient].map((client) =>
      jest.spyOn(client.prototype, 'send').mockImplementation(async function (this: { config: { credentials: () => Promise<unknown> } }, command: object) {
        // Signing needs the credentials first, as the SDK's middleware would.
        if (!(command instanceof AssumeRoleCommand)) await this.config.credentials();
        return answer(command);
      } as never),
    );
    try {
      const { findings } = await awsFindings({
        clusterAdminArns: [],
        workshop: 'k8s-101',
        actions: ACTIONS,
        slots: [{ slot: awsSlot('us-east-2', ['us-east-2a', 'us-east-2b'], { id: LOCKED, roleName: 'OrganizationAccountAccessRole' }), clusterStacks: [], needs: NO_NEEDS }],
      });
      expect(findings).toEqual([
        {
          check: 'aws identity',
          verdict: 'fail',
          detail: `no AWS identity (assuming ${role}): AccessDenied: User: arn:aws:iam::${ACCOUNT}:user/host is not authorized to perform: sts:AssumeRole on resource: ${role}`,
          fix: `let the host's credentials assume ${role} (its trust policy), or correct aws.accounts`,
        },
        { check: 'aws permissions', verdict: 'skip', detail: 'not checked (no AWS identity): IAM policy simulation of the 4 actions the stacks need' },
        {
          check: 'aws slots not checked',
          verdict: 'skip',
          detail: `no identity in account ${LOCKED}, so ${LOCKED}/us-east-2 was not checked with credentials: zones, quotas (vCPUs included) and names`,
        },
      ]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('AWS preflight: the deployer in aws.clusterAdminArns', () => {
  const admin = `arn:aws:iam::${ACCOUNT}:role/hoplab-admin`;
  const session = `arn:aws:sts::${ACCOUNT}:assumed-role/hoplab-admin/host`;
  const clusterStack = { env: 'lab', stack: { name: 'lab-aws-cluster', file: 'cdk.tf.json', json: {} } };
  const admins = (findings: Finding[]) => findings.filter((f) => f.check === 'aws cluster admins');

  test('GIVEN aws-lb stacks only (deploy --stacks aws-lb) WHEN the deployer is a listed admin THEN it is not refused: the cluster stack makes the access entries', async () => {
    expect(admins((await preflight({ callerArn: session }, { clusterStacks: [] }, { clusterAdminArns: [admin] })).findings)).toEqual([]);
  });

  test('GIVEN aws-cluster stacks WHEN the deployer is a listed admin THEN it fails, as EKS refuses a second access entry for the creator', async () => {
    expect(admins((await preflight({ callerArn: session }, { clusterStacks: [clusterStack] }, { clusterAdminArns: [admin] })).findings)).toEqual([
      expect.objectContaining({ verdict: 'fail', fix: `remove ${admin} from aws.clusterAdminArns` }),
    ]);
  });
});
