/**
 * Preflight on AWS with the deployer's own credentials (the default chain, as
 * Terraform uses them): who the deployer is, whether IAM policy simulation
 * allows every action the stacks need, quotas against what the selected
 * environments take, and whether the names the stacks will create are free.
 */
import { DescribeAddressesCommand, DescribeInternetGatewaysCommand, DescribeNatGatewaysCommand, DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient, ListClustersCommand, ResourceNotFoundException } from '@aws-sdk/client-eks';
import { DescribeLoadBalancersCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { GetPolicyCommand, GetRoleCommand, GetUserCommand, IAMClient, NoSuchEntityException, SimulatePrincipalPolicyCommand, Tag } from '@aws-sdk/client-iam';
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { awsClientConfig } from '../../kit/aws/aws-clients';
import { SynthStack, literalString, resourcesOf } from '../../kit/terraform/terraform-json';
import { isRefusal, parseIamPrincipal } from '../../model/identities';
import { TAG_KEYS } from '../../model/tags';
import { Finding } from '../../lab/checks/finding';
import { AWS_DEFAULT_QUOTAS, AwsQuotaNeeds } from '../../lab/estimate/quotas';
import { awsNotChecked, UncheckedScope } from './not-checked';

export interface AwsPreflightInput {
  readonly region: string;
  /** A local emulator: dummy credentials, and what it does not implement is a warning. @default - real AWS */
  readonly endpoint?: string;
  /** `aws.clusterAdminArns` of the config. */
  readonly clusterAdminArns: readonly string[];
  /** The workshop name (tag `hoplab-workshop`): an existing name with this workshop's tags is the lab's own. */
  readonly workshop: string;
  /** The selected `<env>-aws-cluster` stacks, as synthesized. */
  readonly clusterStacks: readonly { readonly env: string; readonly stack: SynthStack }[];
  /** IAM actions the stacks need (see required-permissions). */
  readonly actions: readonly string[];
  /**
   * Attendees' AWS identities (their environment and ARN) in the selected cluster stacks: each gets an
   * EKS access entry, which the cluster build refuses for a principal that does not exist.
   * @default - none
   */
  readonly attendees?: readonly { readonly env: string; readonly arn: string }[];
  readonly needs: AwsQuotaNeeds;
}

/** The quotas preflight reads from Service Quotas (the AWS defaults table names them). */
type AwsQuotaNeed = (typeof AWS_DEFAULT_QUOTAS)[number]['need'];

const CREDENTIALS_FIX = 'give Terraform and hoplab the same AWS credentials: AWS_PROFILE, `aws sso login`, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY';

/** The error in one line (SDK parse errors run over several). */
const message = (error: unknown) => (error instanceof Error ? `${error.name !== 'Error' ? `${error.name}: ` : ''}${error.message.split('\n')[0].trim()}` : String(error));

/**
 * The IAM ARN policy simulation takes for a caller: an assumed-role session
 * `arn:aws:sts::<acct>:assumed-role/<role>/<session>` is simulated as its role
 * (path looked up by the caller); users and roles as they are.
 */
export function principalArn(callerArn: string): { arn: string; roleName?: string } {
  const assumed = /^arn:(aws[\w-]*):sts::(\d{12}):assumed-role\/([^/]+)\/.+$/.exec(callerArn);
  if (assumed) return { arn: `arn:${assumed[1]}:iam::${assumed[2]}:role/${assumed[3]}`, roleName: assumed[3] };
  return { arn: callerArn };
}

/** Whether `adminArn` (from clusterAdminArns) names the caller: same user, or the role of an assumed-role session (any path). */
export function sameIdentity(callerArn: string, adminArn: string): boolean {
  const caller = principalArn(callerArn);
  if (adminArn === caller.arn) return true;
  const role = /^arn:aws[\w-]*:iam::(\d{12}):role\/(?:.*\/)?([^/]+)$/.exec(adminArn);
  return caller.roleName !== undefined && role !== null && role[2] === caller.roleName && callerArn.includes(`::${role[1]}:`);
}

export async function awsFindings(input: AwsPreflightInput): Promise<Finding[]> {
  const clientConfig = awsClientConfig({ region: input.region, endpoint: input.endpoint });
  const sts = new STSClient(clientConfig);
  const iam = new IAMClient(clientConfig);
  const ec2 = new EC2Client(clientConfig);
  const eks = new EKSClient(clientConfig);
  const elb = new ElasticLoadBalancingV2Client(clientConfig);
  const quotas = new ServiceQuotasClient(clientConfig);
  const findings: Finding[] = [];
  const where = input.endpoint ? `the emulator at ${input.endpoint}` : `AWS ${input.region}`;
  try {
    let callerArn: string;
    let account: string;
    try {
      const identity = await sts.send(new GetCallerIdentityCommand({}));
      callerArn = identity.Arn ?? '';
      account = identity.Account ?? '';
      findings.push({ check: 'aws identity', verdict: 'pass', detail: `${callerArn} (account ${account}) in ${where}` });
    } catch (error) {
      findings.push({ check: 'aws identity', verdict: 'fail', detail: `no AWS identity: ${message(error)}`, fix: CREDENTIALS_FIX });
      return [...findings, ...awsNotChecked(uncheckedScope(input), 'no AWS identity')];
    }
    // The cluster stack makes the access entries (the creator's and clusterAdminArns'): an aws-lb deploy by a listed admin is fine.
    const listed = input.clusterStacks.length > 0 ? input.clusterAdminArns.filter((a) => sameIdentity(callerArn, a)) : undefined;
    if (listed) {
      findings.push(
        listed.length > 0
          ? {
              check: 'aws cluster admins',
              verdict: 'fail',
              detail: `aws.clusterAdminArns lists the deployer (${listed.join(
                ', ',
              )}); the deployer already gets cluster admin as the cluster's creator, and EKS refuses a second access entry for it (ResourceInUseException)`,
              fix: `remove ${listed.join(', ')} from aws.clusterAdminArns`,
            }
          : {
              check: 'aws cluster admins',
              verdict: 'pass',
              detail: `the deployer is not in aws.clusterAdminArns (${input.clusterAdminArns.length} other admin${input.clusterAdminArns.length === 1 ? '' : 's'})`,
            },
      );
    }
    findings.push(await simulate(iam, callerArn, input));
    findings.push(...(await attendeeFindings(iam, account, input.attendees ?? [])));
    findings.push(...(await quotaFindings({ ec2, eks, elb, quotas }, input)));
    findings.push(...(await nameFindings(eks, iam, account, input)));
  } finally {
    for (const client of [sts, iam, ec2, eks, elb, quotas]) client.destroy();
  }
  return findings;
}

/** What the checks after the identity would have covered (said when there is no identity). */
function uncheckedScope(input: AwsPreflightInput): UncheckedScope {
  return {
    clusterEnvs: input.clusterStacks.map((c) => c.env),
    permissions: input.actions.length,
    quotas: AWS_DEFAULT_QUOTAS.filter((q) => input.needs[q.need] > 0).map((q) => q.need),
    attendees: input.attendees?.length ?? 0,
  };
}

async function simulate(iam: IAMClient, callerArn: string, input: AwsPreflightInput): Promise<Finding> {
  const check = 'aws permissions';
  if (/:root$/.test(callerArn)) {
    return { check, verdict: 'warn', detail: 'the deployer is the account root user: it may do everything, but should not deploy', fix: 'deploy as an IAM role or user' };
  }
  const principal = principalArn(callerArn);
  let policySourceArn = principal.arn;
  const denied: string[] = [];
  try {
    if (principal.roleName) {
      // The role's ARN with its path, as simulation needs it.
      policySourceArn = (await iam.send(new GetRoleCommand({ RoleName: principal.roleName }))).Role?.Arn ?? policySourceArn;
    }
    let marker: string | undefined;
    do {
      const page = await iam.send(new SimulatePrincipalPolicyCommand({ PolicySourceArn: policySourceArn, ActionNames: [...input.actions], Marker: marker }));
      for (const result of page.EvaluationResults ?? []) {
        if (result.EvalDecision !== 'allowed' && result.EvalActionName) denied.push(result.EvalActionName);
      }
      marker = page.IsTruncated ? page.Marker : undefined;
    } while (marker);
  } catch (error) {
    const why = message(error);
    const notImplemented = input.endpoint !== undefined;
    return {
      check,
      verdict: 'warn',
      detail: `could not simulate the ${input.actions.length} actions the stacks need (${why})${notImplemented ? '; the emulator does not implement IAM policy simulation' : ''}`,
      fix: notImplemented ? undefined : `allow the deployer iam:SimulatePrincipalPolicy on itself, or check by hand that it may: ${input.actions.join(', ')}`,
    };
  }
  if (denied.length > 0) {
    return {
      check,
      verdict: 'fail',
      detail: `${policySourceArn} is denied ${denied.length} of ${input.actions.length} actions the stacks need: ${denied.sort().join(', ')}`,
      fix: 'add these actions to the deployer’s policy (or use a role that has them)',
    };
  }
  return {
    check,
    verdict: 'pass',
    detail: `all ${input.actions.length} actions the stacks need are allowed for ${policySourceArn} (identity policies; SCPs and boundaries only as far as simulation sees them)`,
  };
}

/**
 * Whether each attendee's role or user exists, for those in the deployer's own account
 * (`iam:GetRole`, `iam:GetUser`): EKS refuses an access entry for a principal that does
 * not exist, and only finds out a quarter of an hour into the cluster build. IAM reads
 * only the caller's own account, so another account's principals cannot be checked.
 */
export async function attendeeFindings(iam: IAMClient, account: string, attendees: readonly { readonly env: string; readonly arn: string }[]): Promise<Finding[]> {
  if (attendees.length === 0) return [];
  const missing: string[] = [];
  const elsewhere: string[] = [];
  const unknown: string[] = [];
  let found = 0;
  for (const { env, arn } of attendees) {
    const principal = parseIamPrincipal(arn);
    // The config refused any other shape already.
    if (isRefusal(principal)) continue;
    if (principal.account !== account) {
      elsewhere.push(`${env} (${arn})`);
      continue;
    }
    try {
      const actual =
        principal.kind === 'role' ? (await iam.send(new GetRoleCommand({ RoleName: principal.name }))).Role?.Arn : (await iam.send(new GetUserCommand({ UserName: principal.name }))).User?.Arn;
      if (actual === arn) found += 1;
      else missing.push(`${env}: ${arn} (the ${principal.kind} ${principal.name} is ${actual ?? 'there, without an ARN'}: write that ARN, its path included)`);
    } catch (error) {
      if (error instanceof NoSuchEntityException) missing.push(`${env}: ${arn} (no such ${principal.kind} in account ${account})`);
      else unknown.push(`${env}: ${message(error)}`);
    }
  }
  const findings: Finding[] = [];
  if (missing.length > 0) {
    findings.push({
      check: 'aws attendees',
      verdict: 'fail',
      detail: `${missing.length} attendee identit${missing.length === 1 ? 'y does' : 'ies do'} not exist as written, and EKS refuses an access entry for them: ${missing.join('; ')}`,
      fix: 'create the role or user first, or correct the attendee\'s "aws" ARN (`aws iam get-role --role-name <name> --query Role.Arn` prints it)',
    });
  }
  if (unknown.length > 0) {
    findings.push({ check: 'aws attendees', verdict: 'warn', detail: `could not look up: ${unknown.join('; ')}`, fix: 'allow the deployer iam:GetRole and iam:GetUser' });
  }
  if (elsewhere.length > 0) {
    findings.push({
      check: 'aws attendees',
      verdict: 'warn',
      detail: `not checked, in another account than the deployer's ${account} (IAM reads only its own account): ${elsewhere.join(', ')}`,
      fix: 'check them in their own account (aws iam get-role / get-user), or ask each attendee',
    });
  }
  if (missing.length === 0 && unknown.length === 0 && found > 0) {
    findings.push({ check: 'aws attendees', verdict: 'pass', detail: `${found} attendee identit${found === 1 ? 'y exists' : 'ies exist'} in account ${account}, as written` });
  }
  return findings;
}

interface Clients {
  readonly ec2: EC2Client;
  readonly eks: EKSClient;
  readonly elb: ElasticLoadBalancingV2Client;
  readonly quotas: ServiceQuotasClient;
}

/** What is in use now, per quota (NAT gateways: the fullest AZ). */
async function usage(clients: Clients): Promise<Record<AwsQuotaNeed, number>> {
  const { ec2, eks, elb } = clients;
  const vpcs = (await ec2.send(new DescribeVpcsCommand({}))).Vpcs?.length ?? 0;
  const igws = (await ec2.send(new DescribeInternetGatewaysCommand({}))).InternetGateways?.length ?? 0;
  const nats = ((await ec2.send(new DescribeNatGatewaysCommand({}))).NatGateways ?? []).filter((n) => n.State === 'pending' || n.State === 'available');
  const subnetIds = [...new Set(nats.map((n) => n.SubnetId).filter((s): s is string => !!s))];
  const azOf = new Map<string, string>();
  if (subnetIds.length > 0) {
    for (const s of (await ec2.send(new DescribeSubnetsCommand({ SubnetIds: subnetIds }))).Subnets ?? []) azOf.set(s.SubnetId!, s.AvailabilityZone ?? '?');
  }
  const perAz = new Map<string, number>();
  for (const n of nats) perAz.set(azOf.get(n.SubnetId ?? '') ?? '?', (perAz.get(azOf.get(n.SubnetId ?? '') ?? '?') ?? 0) + 1);
  const eips = ((await ec2.send(new DescribeAddressesCommand({}))).Addresses ?? []).filter((a) => a.Domain !== 'standard').length;
  let clusters = 0;
  let next: string | undefined;
  do {
    const page = await eks.send(new ListClustersCommand({ nextToken: next }));
    clusters += page.clusters?.length ?? 0;
    next = page.nextToken;
  } while (next);
  const lbs: { Type?: string }[] = [];
  let marker: string | undefined;
  do {
    const page = await elb.send(new DescribeLoadBalancersCommand({ Marker: marker }));
    lbs.push(...(page.LoadBalancers ?? []));
    marker = page.NextMarker;
  } while (marker);
  return {
    vpcs,
    internetGateways: igws,
    natGatewaysPerAz: Math.max(0, ...perAz.values()),
    elasticIps: eips,
    eksClusters: clusters,
    albs: lbs.filter((l) => l.Type === 'application').length,
    nlbs: lbs.filter((l) => l.Type === 'network').length,
  };
}

async function quotaFindings(clients: Clients, input: AwsPreflightInput): Promise<Finding[]> {
  let used: Record<AwsQuotaNeed, number>;
  try {
    used = await usage(clients);
  } catch (error) {
    return [
      {
        check: 'aws quotas',
        verdict: 'warn',
        detail: `could not count what is in use: ${message(error)}`,
        fix: 'allow the deployer ec2:Describe*, eks:ListClusters and elasticloadbalancing:DescribeLoadBalancers',
      },
    ];
  }
  const findings: Finding[] = [];
  for (const quota of AWS_DEFAULT_QUOTAS) {
    const need = input.needs[quota.need];
    if (need === 0) continue;
    let limit: number;
    let source: string;
    let denied = false;
    try {
      const answer = await clients.quotas.send(new GetServiceQuotaCommand({ ServiceCode: quota.serviceCode, QuotaCode: quota.quotaCode }));
      limit = answer.Quota?.Value ?? Number.NaN;
      if (!Number.isFinite(limit)) throw new Error('no value');
      source = 'Service Quotas';
    } catch (error) {
      limit = quota.defaultLimit;
      denied = /AccessDenied/.test(message(error));
      source = `AWS's documented default: Service Quotas did not answer (${message(error).slice(0, 100)})`;
    }
    const detail = `${quota.name} (${quota.quotaCode}): ${used[quota.need]} in use + ${need} for this lab = ${used[quota.need] + need} of ${limit} (${source})`;
    if (used[quota.need] + need > limit) {
      findings.push({
        check: `aws quota ${quota.need}`,
        verdict: 'fail',
        detail,
        fix: `request more in the Service Quotas console (${quota.serviceCode} ${quota.quotaCode}) in ${input.region}, free some, or deploy fewer environments (--env)`,
      });
    } else if (denied) {
      findings.push({ check: `aws quota ${quota.need}`, verdict: 'warn', detail, fix: 'allow servicequotas:GetServiceQuota to check against the account’s own quota' });
    } else {
      findings.push({ check: `aws quota ${quota.need}`, verdict: 'pass', detail });
    }
  }
  if (input.needs.clbs > 0) findings.push({ check: 'aws quota clbs', verdict: 'warn', detail: `${input.needs.clbs} Classic Load Balancers not checked against a quota` });
  for (const note of input.needs.notes) findings.push({ check: 'aws quotas', verdict: 'warn', detail: note });
  return findings;
}

const tagValue = (tags: readonly Tag[] | Record<string, string> | undefined, key: string) =>
  Array.isArray(tags) ? tags.find((t) => t.Key === key)?.Value : (tags as Record<string, string> | undefined)?.[key];

/** Whether an existing resource with these tags is this environment's own (a re-deploy updates it). */
function ours(tags: readonly Tag[] | Record<string, string> | undefined, env: string, workshop: string): boolean {
  return tagValue(tags, TAG_KEYS.env) === env && tagValue(tags, TAG_KEYS.workshop) === workshop;
}

async function nameFindings(eks: EKSClient, iam: IAMClient, account: string, input: AwsPreflightInput): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { env, stack } of input.clusterStacks) {
    const taken: string[] = [];
    const mine: string[] = [];
    const errors: string[] = [];
    const names = (type: string) =>
      resourcesOf(stack, type)
        .map((r) => literalString(stack, r.config.name))
        .filter((n): n is string => n !== undefined);
    const check = async (label: string, lookup: () => Promise<readonly Tag[] | Record<string, string> | undefined>) => {
      try {
        const tags = await lookup();
        (ours(tags, env, input.workshop) ? mine : taken).push(label);
      } catch (error) {
        if (error instanceof ResourceNotFoundException || error instanceof NoSuchEntityException) return;
        errors.push(`${label}: ${message(error)}`);
      }
    };
    for (const name of names('aws_eks_cluster')) await check(`EKS cluster ${name}`, async () => (await eks.send(new DescribeClusterCommand({ name }))).cluster?.tags);
    for (const name of names('aws_iam_role')) await check(`IAM role ${name}`, async () => (await iam.send(new GetRoleCommand({ RoleName: name }))).Role?.Tags);
    for (const name of names('aws_iam_policy')) {
      await check(`IAM policy ${name}`, async () => (await iam.send(new GetPolicyCommand({ PolicyArn: `arn:aws:iam::${account}:policy/${name}` }))).Policy?.Tags);
    }
    const total = names('aws_eks_cluster').length + names('aws_iam_role').length + names('aws_iam_policy').length;
    const label = `aws names ${env}`;
    if (taken.length > 0) {
      findings.push({
        check: label,
        verdict: 'fail',
        detail: `already taken by something not of this workshop (tags ${TAG_KEYS.env}=${env}, ${TAG_KEYS.workshop}=${input.workshop}): ${taken.join(', ')}`,
        fix: 'another lab of this name exists in the account: pick another `name` (or attendee names), or tear that lab down first',
      });
    } else if (errors.length > 0) {
      findings.push({ check: label, verdict: 'warn', detail: `could not look up: ${errors.join('; ')}`, fix: 'allow the deployer eks:DescribeCluster, iam:GetRole and iam:GetPolicy' });
    } else {
      findings.push({
        check: label,
        verdict: 'pass',
        detail:
          mine.length > 0
            ? `${total - mine.length} names free; ${mine.length} exist and are this workshop's own (a re-deploy updates them): ${mine.join(', ')}`
            : `all ${total} names free (EKS cluster, IAM roles and policies)`,
      });
    }
  }
  return findings;
}
