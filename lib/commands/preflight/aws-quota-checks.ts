/**
 * Preflight's quota checks in one AWS slot (account x region), with the
 * deployer's credentials: each quota of the table against the account's own
 * value (Service Quotas) less what is in use in the slot's region, counted
 * from the resources (vCPUs from the running On-Demand instances).
 */
import {
  DescribeAddressesCommand,
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
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { Finding } from '../../lab/checks/finding';
import { AwsQuotaNeeds } from '../../lab/estimate/quotas';
import { INSTANCE_VCPUS } from '../../model/eni-limits';
import { AWS_QUOTAS, AwsQuotaId, QuotaSpec, sizesSlots } from '../../model/quotas';
import { AwsSlot } from '../../model/slots';
import { awsQuotaRequest, awsRequestCommand } from './quota-requests';
import { countQuota, inUsePlusNeed } from './quota-count';

/** What the quota checks of one slot take. */
export interface AwsSlotQuotaInput {
  readonly slot: AwsSlot;
  /** What the slot's environments take of each quota (lib/lab/estimate/quotas.ts). */
  readonly needs: AwsQuotaNeeds;
  /**
   * The part of `needs` that the slot's environments already deployed hold (their state says they are
   * here): in use already, so not counted again (quota-count.ts).
   * @default - none deployed
   */
  readonly deployed?: { readonly envs: number; readonly needs: AwsQuotaNeeds };
}

/** A quota short in a slot, with what a request for more would ask (preflight prints it and --request-quotas files it). */
export interface AwsQuotaShortfall {
  readonly slot: AwsSlot;
  readonly quota: QuotaSpec & { readonly serviceCode: string; readonly quotaCode: string };
  readonly used: number;
  readonly need: number;
  readonly limit: number;
}

/** The error in one line (SDK parse errors run over several). */
export const message = (error: unknown) => (error instanceof Error ? `${error.name !== 'Error' ? `${error.name}: ` : ''}${error.message.split('\n')[0].trim()}` : String(error));

/** A check's name, with where it ran when the lab has more than one account or slot. */
export const named = (check: string, where: string | undefined) => (where ? `${check} (${where})` : check);

/** The clients the quota checks of one slot use, in its region with its account's credentials. */
export interface QuotaClients {
  readonly ec2: EC2Client;
  readonly eks: EKSClient;
  readonly elb: ElasticLoadBalancingV2Client;
  readonly quotas: ServiceQuotasClient;
}

/**
 * The vCPUs running On-Demand instances count against "Running On-Demand Standard (A, C, D, H, I, M, R,
 * T, Z) instances" (L-1216C47A): pending and running instances that are not Spot, of those families
 * (Amazon EC2 User Guide, "On-Demand Instance quotas", read 2026-12-02: DL, Inf, Trn, HPC, F, G, P, VT, X
 * and High Memory instances have quotas of their own). Counted from `DescribeInstances` rather than
 * CloudWatch's AWS/Usage metric: it is the count now (CloudWatch publishes usage with a delay), each
 * instance's CPU options give its vCPUs exactly, and it needs no other client or permission
 * (ec2:Describe* is already asked for).
 */
export function standardOnDemandVcpus(instances: readonly Instance[]): { vcpus: number; unknown: string[] } {
  let vcpus = 0;
  const unknown: string[] = [];
  for (const i of instances) {
    if (!['pending', 'running'].includes(i.State?.Name ?? '') || i.InstanceLifecycle === 'spot') continue;
    const type = i.InstanceType ?? '';
    const family = /^[a-z]+/.exec(type)?.[0] ?? '';
    if (!/^[acdhimrtz]/.test(family) || ['dl', 'inf', 'trn', 'hpc'].includes(family)) continue;
    const cpu = i.CpuOptions;
    const each = cpu?.CoreCount && cpu.ThreadsPerCore ? cpu.CoreCount * cpu.ThreadsPerCore : INSTANCE_VCPUS[type];
    if (each === undefined) unknown.push(`${i.InstanceId ?? '?'} (${type})`);
    else vcpus += each;
  }
  return { vcpus, unknown };
}

/** What is in use now, per quota (NAT gateways: the fullest AZ; vCPUs: standard On-Demand instances). */
async function usage(clients: QuotaClients): Promise<Record<AwsQuotaId, number> & { readonly vcpusUncounted: readonly string[] }> {
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
  const instances: Instance[] = [];
  let token: string | undefined;
  do {
    const page = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: 'instance-state-name', Values: ['pending', 'running'] }], NextToken: token }));
    instances.push(...(page.Reservations ?? []).flatMap((r) => r.Instances ?? []));
    token = page.NextToken;
  } while (token);
  const running = standardOnDemandVcpus(instances);
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
    vcpus: running.vcpus,
    vcpusUncounted: running.unknown,
  };
}

/**
 * Each quota of the table the slot's environments take, against the account's own value (Service
 * Quotas) less what is in use in the slot's region. A need that brings the total exactly to the limit
 * fits; one more is short. Where Service Quotas does not answer, a quota with a documented default is
 * held to it (said as such); vCPUs, whose value AWS sets per account, are then not checked.
 */
export async function awsQuotaFindings(clients: QuotaClients, slot: AwsSlotQuotaInput, where: string | undefined): Promise<{ findings: Finding[]; shortfalls: AwsQuotaShortfall[] }> {
  const at = slot.slot.account ? ` in account ${slot.slot.account.id}` : '';
  let used: Awaited<ReturnType<typeof usage>>;
  try {
    used = await usage(clients);
  } catch (error) {
    return {
      findings: [
        {
          check: named('aws quotas', where),
          verdict: 'warn',
          detail: `could not count what is in use in ${slot.slot.region}${at}, so no quota was checked: ${message(error)}`,
          fix: 'allow the deployer ec2:Describe*, eks:ListClusters and elasticloadbalancing:DescribeLoadBalancers',
        },
      ],
      shortfalls: [],
    };
  }
  const findings: Finding[] = [];
  const shortfalls: AwsQuotaShortfall[] = [];
  for (const quota of AWS_QUOTAS) {
    const need = slot.needs[quota.id];
    if (need === 0) continue;
    const check = named(`aws quota ${quota.id}`, where);
    let limit: number;
    let source: string;
    let denied = false;
    try {
      const answer = await clients.quotas.send(new GetServiceQuotaCommand({ ServiceCode: quota.serviceCode, QuotaCode: quota.quotaCode }));
      limit = answer.Quota?.Value ?? Number.NaN;
      if (!Number.isFinite(limit)) throw new Error('no value');
      source = 'Service Quotas';
    } catch (error) {
      denied = /AccessDenied/.test(message(error));
      if (!sizesSlots(quota)) {
        findings.push({
          check,
          verdict: 'warn',
          detail: `${quota.name} (${quota.quotaCode}): ${
            inUsePlusNeed(used[quota.id], { need, deployedNeed: slot.deployed?.needs[quota.id], deployedEnvs: slot.deployed?.envs }).text
          }, not checked: AWS sets its value per account and Service Quotas did not answer (${message(error).slice(0, 100)})`,
          fix: denied
            ? 'allow servicequotas:GetServiceQuota to check it'
            : `look it up${at}: aws service-quotas get-service-quota --service-code ${quota.serviceCode} --quota-code ${quota.quotaCode} --region ${slot.slot.region}`,
        });
        continue;
      }
      limit = quota.defaultLimit;
      source = `AWS's documented default: Service Quotas did not answer (${message(error).slice(0, 100)})`;
    }
    const count = countQuota(used[quota.id], { need, deployedNeed: slot.deployed?.needs[quota.id], deployedEnvs: slot.deployed?.envs }, limit);
    const detail = `${quota.name} (${quota.quotaCode}): ${count.text} (${source})`;
    if (count.verdict === 'fail') {
      const shortfall = { slot: slot.slot, quota, used: used[quota.id], need: count.still, limit };
      shortfalls.push(shortfall);
      findings.push({
        check,
        verdict: 'fail',
        detail,
        fix: `request ${used[quota.id] + count.still} (npx hoplab preflight --request-quotas files it): ${awsRequestCommand(
          awsQuotaRequest(shortfall),
        )}; or free some, or deploy fewer environments (--env)`,
      });
    } else if (denied) {
      findings.push({ check, verdict: 'warn', detail, fix: 'allow servicequotas:GetServiceQuota to check against the account’s own quota' });
    } else {
      findings.push({ check, verdict: 'pass', detail });
    }
  }
  if (slot.needs.vcpus > 0 && used.vcpusUncounted.length > 0) {
    findings.push({ check: named('aws quota vcpus', where), verdict: 'warn', detail: `vCPUs of running instances not counted (type unknown): ${used.vcpusUncounted.join(', ')}` });
  }
  if (slot.needs.clbs > 0) findings.push({ check: named('aws quota clbs', where), verdict: 'warn', detail: `${slot.needs.clbs} Classic Load Balancers not checked against a quota` });
  for (const note of slot.needs.notes) findings.push({ check: named('aws quotas', where), verdict: 'warn', detail: note });
  return { findings, shortfalls };
}
