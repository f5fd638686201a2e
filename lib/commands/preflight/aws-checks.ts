/**
 * Preflight on AWS with the deployer's own credentials (the default chain, as
 * Terraform uses them, and the role they assume in each account of
 * `aws.accounts`), per account and per slot: who the deployer is, whether IAM
 * policy simulation allows every action the stacks need, the slot's
 * Availability Zones, quotas against what the slot's environments take, and
 * whether the names the stacks will create are free.
 */
import { DescribeAvailabilityZonesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient, ResourceNotFoundException } from '@aws-sdk/client-eks';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { GetPolicyCommand, GetRoleCommand, GetUserCommand, IAMClient, NoSuchEntityException, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { SynthStack, literalString, resourcesOf } from '../../kit/terraform/terraform-json';
import { isRefusal, parseIamPrincipal } from '../../model/identities';
import { awsTagMap, isEnvironmentsOwn, TAG_KEYS } from '../../model/tags';
import { Finding } from '../../lab/checks/finding';
import { AwsSlot, slotGroup } from '../../model/slots';
import { awsSlotClientConfig } from './aws-slot-clients';
import { awsNotChecked } from './not-checked';
import { AwsQuotaShortfall, awsQuotaFindings, AwsSlotQuotaInput, message, named, QuotaClients } from './aws-quota-checks';

/** What preflight checks in one AWS slot (account x region). */
export interface AwsSlotInput extends AwsSlotQuotaInput {
  /** The selected `<env>-aws-cluster` stacks placed in this slot, as synthesized. */
  readonly clusterStacks: readonly { readonly env: string; readonly stack: SynthStack }[];
  /**
   * Attendees' AWS identities (their environment and ARN) in the slot's selected cluster stacks: each gets an
   * EKS access entry, which the cluster build refuses for a principal that does not exist.
   * @default - none
   */
  readonly attendees?: readonly { readonly env: string; readonly arn: string }[];
}

export interface AwsPreflightInput {
  /** A local emulator: dummy credentials, and what it does not implement is a warning. @default - real AWS */
  readonly endpoint?: string;
  /** `aws.clusterAdminArns` of the config. */
  readonly clusterAdminArns: readonly string[];
  /** The workshop name (tag `hoplab-workshop`): an existing name with this workshop's tags is the lab's own. */
  readonly workshop: string;
  /** IAM actions the stacks need (see required-permissions). */
  readonly actions: readonly string[];
  /** The slots the selected environments are placed in, each with its stacks and needs; checked in their own account and region. */
  readonly slots: readonly AwsSlotInput[];
}

/** What the AWS checks found, and the quotas they found short. */
export interface AwsPreflightResult {
  readonly findings: Finding[];
  readonly shortfalls: AwsQuotaShortfall[];
}

const CREDENTIALS_FIX = 'give Terraform and hoplab the same AWS credentials: AWS_PROFILE, `aws sso login`, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY';

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

/** The account of a slot in words: `account 111122223333`, or `host account`. */
const accountWords = (slot: AwsSlot) => (slot.account ? `account ${slot.account.id}` : 'host account');

/**
 * Every AWS check, per account and per slot: who the deployer is in each account (the host's
 * credentials, or the role they assume in an account of `aws.accounts`), policy simulation and the
 * attendees' identities per account; the Availability Zones, quotas and names per slot, each in its
 * own region with its own credentials. A check is named with its account or slot when the lab has more
 * than one.
 */
export async function awsFindings(input: AwsPreflightInput): Promise<AwsPreflightResult> {
  const findings: Finding[] = [];
  const shortfalls: AwsQuotaShortfall[] = [];
  const accounts = new Map<string, AwsSlotInput[]>();
  for (const s of input.slots) accounts.set(slotGroup(s.slot), [...(accounts.get(slotGroup(s.slot)) ?? []), s]);
  const manySlots = input.slots.length > 1;
  for (const slots of accounts.values()) {
    const first = slots[0].slot;
    const where = accounts.size > 1 ? accountWords(first) : undefined;
    const found = await accountFindings(input, slots, where);
    findings.push(...found.findings);
    if (!found.account) {
      const ids = slots.map((s) => s.slot.id);
      findings.push({
        check: named('aws slots not checked', where),
        verdict: 'skip',
        detail: `no identity in ${accountWords(first)}, so ${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'} not checked with credentials: zones, quotas (vCPUs included) and names`,
      });
      continue;
    }
    for (const slot of slots) {
      const slotWhere = manySlots ? slot.slot.id : undefined;
      const clients = slotClients(slot.slot, input.endpoint);
      try {
        findings.push(await zoneFinding(clients.ec2, slot.slot, slotWhere));
        const quotas = await awsQuotaFindings(clients, slot, slotWhere);
        findings.push(...quotas.findings);
        shortfalls.push(...quotas.shortfalls);
        findings.push(...(await nameFindings(clients.eks, clients.iam, found.account, input.workshop, slot.clusterStacks)));
      } finally {
        clients.destroy();
      }
    }
  }
  return { findings, shortfalls };
}

/** The clients of one slot: its region, with its account's credentials. */
function slotClients(slot: AwsSlot, endpoint: string | undefined): QuotaClients & { readonly iam: IAMClient; readonly sts: STSClient; destroy(): void } {
  const config = awsSlotClientConfig(slot, endpoint);
  const clients = {
    sts: new STSClient(config),
    iam: new IAMClient(config),
    ec2: new EC2Client(config),
    eks: new EKSClient(config),
    elb: new ElasticLoadBalancingV2Client(config),
    quotas: new ServiceQuotasClient(config),
  };
  return { ...clients, destroy: () => Object.values(clients).forEach((c) => c.destroy()) };
}

/** Who the deployer is in one account, the admins list, policy simulation and the attendees of its slots; `account` when an identity answered. */
async function accountFindings(input: AwsPreflightInput, slots: readonly AwsSlotInput[], where: string | undefined): Promise<{ findings: Finding[]; account?: string }> {
  const first = slots[0].slot;
  const clients = slotClients(first, input.endpoint);
  const findings: Finding[] = [];
  const place = input.endpoint ? `the emulator at ${input.endpoint}` : `AWS ${first.region}`;
  try {
    let callerArn: string;
    let account: string;
    try {
      const identity = await clients.sts.send(new GetCallerIdentityCommand({}));
      callerArn = identity.Arn ?? '';
      account = identity.Account ?? '';
    } catch (error) {
      const assumed = first.account ? ` (assuming ${first.account.roleArn})` : '';
      findings.push({
        check: named('aws identity', where),
        verdict: 'fail',
        detail: `no AWS identity${assumed}: ${message(error)}`,
        fix: first.account ? `let the host's credentials assume ${first.account.roleArn} (its trust policy), or correct aws.accounts` : CREDENTIALS_FIX,
      });
      return { findings: [...findings, ...accountNotChecked(input, slots, where, 'no AWS identity')] };
    }
    if (first.account && account !== first.account.id) {
      findings.push({
        check: named('aws identity', where),
        verdict: 'fail',
        detail: `assuming ${first.account.roleArn} answered as ${callerArn} in account ${account}, not ${first.account.id}`,
        fix: 'correct the account id or role name in aws.accounts',
      });
      return { findings };
    }
    findings.push({ check: named('aws identity', where), verdict: 'pass', detail: `${callerArn} (account ${account}) in ${place}` });
    // The cluster stack makes the access entries (the creator's and clusterAdminArns'): an aws-lb deploy by a listed admin is fine.
    const clusterStacks = slots.flatMap((s) => s.clusterStacks);
    const listed = clusterStacks.length > 0 ? input.clusterAdminArns.filter((a) => sameIdentity(callerArn, a)) : undefined;
    if (listed) {
      findings.push(
        listed.length > 0
          ? {
              check: named('aws cluster admins', where),
              verdict: 'fail',
              detail: `aws.clusterAdminArns lists the deployer (${listed.join(
                ', ',
              )}); the deployer already gets cluster admin as the cluster's creator, and EKS refuses a second access entry for it (ResourceInUseException)`,
              fix: `remove ${listed.join(', ')} from aws.clusterAdminArns`,
            }
          : {
              check: named('aws cluster admins', where),
              verdict: 'pass',
              detail: `the deployer is not in aws.clusterAdminArns (${input.clusterAdminArns.length} other admin${input.clusterAdminArns.length === 1 ? '' : 's'})`,
            },
      );
    }
    const simulated = await simulate(clients.iam, callerArn, input);
    findings.push({ ...simulated, check: named(simulated.check, where) });
    const attendees = slots.flatMap((s) => s.attendees ?? []);
    findings.push(...(await attendeeFindings(clients.iam, account, attendees)).map((f) => ({ ...f, check: named(f.check, where) })));
    return { findings, account };
  } finally {
    clients.destroy();
  }
}

/**
 * Whether the slot's zones are Availability Zones this account has in the region, available
 * (`DescribeAvailabilityZones` with the slot's credentials: the live answer, over the zone table),
 * with the zone IDs they map to in this account.
 */
async function zoneFinding(ec2: EC2Client, slot: AwsSlot, where: string | undefined): Promise<Finding> {
  const check = named('aws zones', where);
  let zones: { name: string; id: string; state: string }[];
  try {
    const answer = await ec2.send(new DescribeAvailabilityZonesCommand({}));
    zones = (answer.AvailabilityZones ?? [])
      .filter((z) => (z.ZoneType ?? 'availability-zone') === 'availability-zone')
      .map((z) => ({ name: z.ZoneName ?? '', id: z.ZoneId ?? '?', state: z.State ?? '?' }));
  } catch (error) {
    return { check, verdict: 'warn', detail: `could not list the Availability Zones of ${slot.region}: ${message(error)}`, fix: 'allow the deployer ec2:DescribeAvailabilityZones' };
  }
  const available = zones.filter((z) => z.state === 'available');
  const missing = slot.zones.filter((z) => !available.some((a) => a.name === z));
  const listed = available.map((z) => `${z.name} (${z.id})`).join(', ');
  if (missing.length > 0) {
    return {
      check,
      verdict: 'fail',
      detail: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not an available Availability Zone of this account in ${slot.region}; it has ${listed || 'none'}`,
      fix: `use zones of that list: aws.availabilityZones for aws.region; in the other regions of aws.regions hoplab derives them from its zone table (lib/model/zones.ts)`,
    };
  }
  const ids = slot.zones.map((z) => `${z} (${available.find((a) => a.name === z)!.id})`).join(', ');
  return { check, verdict: 'pass', detail: `${ids} ${slot.zones.length === 1 ? 'is' : 'are'} available in this account's ${slot.region} (zone IDs differ by account)` };
}

/**
 * What the account's own checks would have covered, said when it gave no identity: the cluster admins,
 * policy simulation and the attendees (the zones, quotas and names of its slots are said per slot).
 */
function accountNotChecked(input: AwsPreflightInput, slots: readonly AwsSlotInput[], where: string | undefined, why: string): Finding[] {
  const scope = {
    clusterEnvs: slots.flatMap((s) => s.clusterStacks.map((c) => c.env)),
    permissions: input.actions.length,
    quotas: [],
    attendees: slots.reduce((n, s) => n + (s.attendees?.length ?? 0), 0),
  };
  return awsNotChecked(scope, why)
    .filter((f) => f.check !== 'aws names')
    .map((f) => ({ ...f, check: named(f.check, where) }));
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

async function nameFindings(eks: EKSClient, iam: IAMClient, account: string, workshop: string, clusterStacks: AwsSlotInput['clusterStacks']): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { env, stack } of clusterStacks) {
    const taken: string[] = [];
    const mine: string[] = [];
    const errors: string[] = [];
    const names = (type: string) =>
      resourcesOf(stack, type)
        .map((r) => literalString(stack, r.config.name))
        .filter((n): n is string => n !== undefined);
    // An existing one tagged as this environment's own is updated by a re-deploy.
    const check = async (label: string, lookup: () => Promise<Readonly<Record<string, string>>>) => {
      try {
        const tags = await lookup();
        (isEnvironmentsOwn(tags, env, workshop) ? mine : taken).push(label);
      } catch (error) {
        if (error instanceof ResourceNotFoundException || error instanceof NoSuchEntityException) return;
        errors.push(`${label}: ${message(error)}`);
      }
    };
    for (const name of names('aws_eks_cluster')) await check(`EKS cluster ${name}`, async () => (await eks.send(new DescribeClusterCommand({ name }))).cluster?.tags ?? {});
    for (const name of names('aws_iam_role')) await check(`IAM role ${name}`, async () => awsTagMap((await iam.send(new GetRoleCommand({ RoleName: name }))).Role?.Tags));
    for (const name of names('aws_iam_policy')) {
      await check(`IAM policy ${name}`, async () => awsTagMap((await iam.send(new GetPolicyCommand({ PolicyArn: `arn:aws:iam::${account}:policy/${name}` }))).Policy?.Tags));
    }
    const total = names('aws_eks_cluster').length + names('aws_iam_role').length + names('aws_iam_policy').length;
    const label = `aws names ${env}`;
    if (taken.length > 0) {
      findings.push({
        check: label,
        verdict: 'fail',
        detail: `already taken by something not of this workshop (tags ${TAG_KEYS.env}=${env}, ${TAG_KEYS.workshop}=${workshop}): ${taken.join(', ')}`,
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
