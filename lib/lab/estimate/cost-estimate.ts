/**
 * The estimated cost of a lab: each environment priced in the region its slot is in (lib/lab/placement),
 * from the dated price table of that region (lib/lab/estimate/price-table.ts). An item the table has no
 * price for in a region is named, region and item, and counted as nothing: never another region's price.
 */
import { LabConfig } from '../../config/schema';
import { labEnvironments } from '../../config/environments';
import { cloudArmorRuleCount, exposureFacts, gkeNeedsSecurityPolicy, offeredModes } from '../../model/exposure-facts';
import { awsPrices, EKS_NODE_VOLUME_GB, gcpPrices, GKE_NODE_DISK_GB, HOURS_PER_MONTH, PRICE_TABLE, PRICES_READ } from './price-table';
import { STACK_KINDS, StackKind } from '../selection/stack-graph';
import { plural } from '../../kit/terminal/terminal';
import { wrapIndented } from '../../kit/terminal/text-table';
import { LabPlacement, placeLab } from '../placement/lab-placement';

/** One priced line of an estimate. */
export interface CostLine {
  readonly cloud: 'aws' | 'gcp';
  /** The stack kind that makes it: a cluster stack's network and nodes, an lb stack's load balancers. */
  readonly stack: StackKind;
  readonly item: string;
  readonly quantity: number;
  /** USD per unit-hour, or undefined when the table has no price for it in the region. */
  readonly unitPerHour: number | undefined;
  /** Why it has no price, when that is not the table's want of one (a price per GB of what is not estimated). */
  readonly why?: string;
}

/** The environments of one cloud in one region, and what one of them costs there. */
export interface RegionCost {
  readonly cloud: 'aws' | 'gcp';
  readonly region: string;
  readonly environments: number;
  /** Lines for one environment in this region. */
  readonly lines: readonly CostLine[];
  /** USD per hour for one environment here (unpriced lines count nothing). */
  readonly perEnvironmentHour: number;
}

/** The estimate for a whole config. */
export interface CostEstimate {
  readonly environments: number;
  /** The stack kinds priced (`--stacks`); the others are left out. */
  readonly stacks: readonly StackKind[];
  readonly durationHours: number;
  /** Per cloud and region the environments are placed in, in placement order. */
  readonly regions: readonly RegionCost[];
  /** USD per hour for all environments, per cloud and in total. */
  readonly hour: { readonly aws: number; readonly gcp: number; readonly total: number };
  /** USD for the planned duration, per cloud and in total. */
  readonly workshop: { readonly aws: number; readonly gcp: number; readonly total: number };
  /** What has no price, with the region (`aws us-east-2: EC2 t3.medium node`): counted as nothing. */
  readonly unpriced: readonly string[];
  /** Regions with environments where some item has no price in the table. */
  readonly unpricedRegions: readonly string[];
  /** When the table's sources were read. */
  readonly asOf: string;
}

/** What to price: the environments and stack kinds a command selected (`--env`, `--stacks`), and where they are placed. */
export interface CostSelection {
  /** @default every environment of the config */
  readonly envs?: readonly string[];
  /** @default every stack kind */
  readonly kinds?: readonly StackKind[];
  /** Where each environment is. @default placeLab(config) */
  readonly placement?: LabPlacement;
}

/** The control-plane log types the lab's EKS clusters send to CloudWatch Logs (lib/constructs/aws/eks-cluster.ts). */
const EKS_LOG_TYPES = 'api, audit, authenticator';

/** One environment's lines in a region. */
function environmentLines(config: LabConfig, cloud: 'aws' | 'gcp', region: string): CostLine[] {
  const modes = config.exposures;
  if (cloud === 'aws') {
    const p = awsPrices(region);
    const every = PRICE_TABLE.aws.everyRegion;
    // One load balancer per exposure the cloud offers, of the kind its facts name.
    const albs = modes.filter((m) => exposureFacts('aws', m)?.lb_kind === 'alb').length;
    const nlbs = modes.filter((m) => exposureFacts('aws', m)?.lb_kind === 'nlb').length;
    const azs = config.aws.availabilityZones.length;
    const natGateways = config.aws.natGateways === 'single' ? 1 : azs;
    return [
      { cloud, stack: 'aws-cluster', item: 'EKS control plane', quantity: 1, unitPerHour: every.eksClusterHour },
      { cloud, stack: 'aws-cluster', item: `EC2 ${config.aws.nodeInstanceType} node`, quantity: config.aws.nodeCount, unitPerHour: p.instanceHour?.[config.aws.nodeInstanceType] },
      {
        cloud,
        stack: 'aws-cluster',
        item: `node root volume (gp3 ${EKS_NODE_VOLUME_GB} GiB)`,
        quantity: config.aws.nodeCount,
        unitPerHour: p.gp3GbMonth === undefined ? undefined : (EKS_NODE_VOLUME_GB * p.gp3GbMonth) / HOURS_PER_MONTH,
      },
      { cloud, stack: 'aws-cluster', item: 'NAT gateway', quantity: natGateways, unitPerHour: p.natGatewayHour },
      { cloud, stack: 'aws-cluster', item: 'public IPv4 address (NAT)', quantity: natGateways, unitPerHour: every.publicIpv4Hour },
      {
        cloud,
        stack: 'aws-cluster',
        item: 'CloudWatch Logs ingestion (EKS logs)',
        quantity: 1,
        unitPerHour: undefined,
        why: `the control plane's ${EKS_LOG_TYPES} logs are priced per GB ingested (and stored), and how much they log is not estimated`,
      },
      { cloud, stack: 'aws-lb', item: 'Application Load Balancer', quantity: albs, unitPerHour: p.albHour },
      { cloud, stack: 'aws-lb', item: 'Network Load Balancer', quantity: nlbs, unitPerHour: p.nlbHour },
      { cloud, stack: 'aws-lb', item: 'public IPv4 address (load balancers)', quantity: (albs + nlbs) * azs, unitPerHour: every.publicIpv4Hour },
    ];
  }
  const p = gcpPrices(region);
  const every = PRICE_TABLE.gcp.everyRegion;
  const gkeNodes = config.gcp.nodeCount * config.gcp.zones.length;
  // One forwarding rule per load balancer: global for the Ingress and the Gateway (Application Load Balancers), regional for passthrough ones.
  const gcpLbs = offeredModes('gcp', modes).map((m) => exposureFacts('gcp', m)?.lb_kind);
  const passthrough = gcpLbs.filter((kind) => kind === 'gcp-passthrough-nlb').length;
  return [
    { cloud, stack: 'gcp-cluster', item: 'GKE cluster management', quantity: 1, unitPerHour: every.gkeClusterHour },
    { cloud, stack: 'gcp-cluster', item: `Compute Engine ${config.gcp.machineType} node`, quantity: gkeNodes, unitPerHour: p.machineHour?.[config.gcp.machineType] },
    {
      cloud,
      stack: 'gcp-cluster',
      item: `node boot disk (pd-balanced ${GKE_NODE_DISK_GB} GB)`,
      quantity: gkeNodes,
      unitPerHour: p.pdBalancedGbMonth === undefined ? undefined : (GKE_NODE_DISK_GB * p.pdBalancedGbMonth) / HOURS_PER_MONTH,
    },
    { cloud, stack: 'gcp-cluster', item: 'Cloud NAT (per VM)', quantity: gkeNodes, unitPerHour: every.natPerVmHour },
    { cloud, stack: 'gcp-lb', item: 'global forwarding rule (L7)', quantity: gcpLbs.length - passthrough, unitPerHour: every.globalForwardingRuleHour },
    { cloud, stack: 'gcp-lb', item: 'regional forwarding rule (L4)', quantity: passthrough, unitPerHour: p.regionalForwardingRuleHour },
    // A narrowed app.allowedSourceCidrs with a GKE Ingress or Gateway: the Cloud Armor policy (billed per policy, per rule and per
    // request). Its prices are not in the table: they could not be checked against Google's price page when this was written.
    {
      cloud,
      stack: 'gcp-cluster',
      item: `Cloud Armor policy (${cloudArmorRuleCount(config.app.allowedSourceCidrs)} rules)`,
      quantity: gkeNeedsSecurityPolicy(modes, config.app.allowedSourceCidrs) ? 1 : 0,
      unitPerHour: undefined,
    },
  ];
}

/**
 * Prices the resources each selected environment of `config` runs while deployed, in the region its slot
 * is in, for the selected stack kinds only (a cloud none of whose stacks is selected costs nothing).
 */
export function estimateCost(config: LabConfig, selection: CostSelection = {}): CostEstimate {
  const kinds = STACK_KINDS.filter((k) => (selection.kinds ?? STACK_KINDS).includes(k));
  const envs = selection.envs ?? labEnvironments(config).map((e) => e.name);
  const placement = selection.placement ?? placeLab(config);
  const regions: RegionCost[] = [];
  for (const cloud of ['aws', 'gcp'] as const) {
    if (!kinds.some((k) => k.startsWith(`${cloud}-`))) continue;
    const regionOf = (env: string) => (cloud === 'aws' ? placement.aws : placement.gcp).slotOf.get(env)?.region ?? config[cloud].region;
    for (const region of [...new Set(envs.map(regionOf))]) {
      const lines = environmentLines(config, cloud, region).filter((line) => line.quantity > 0 && kinds.includes(line.stack));
      regions.push({
        cloud,
        region,
        environments: envs.filter((e) => regionOf(e) === region).length,
        lines,
        perEnvironmentHour: lines.reduce((total, l) => total + l.quantity * (l.unitPerHour ?? 0), 0),
      });
    }
  }
  const sum = (cloud: 'aws' | 'gcp') => regions.filter((r) => r.cloud === cloud).reduce((total, r) => total + r.environments * r.perEnvironmentHour, 0);
  const hour = { aws: sum('aws'), gcp: sum('gcp'), total: 0 };
  hour.total = hour.aws + hour.gcp;
  const durationHours = config.workshop.durationHours;
  const unpriced = regions.flatMap((r) => r.lines.filter((l) => l.unitPerHour === undefined).map((l) => `${r.cloud} ${r.region}: ${l.item}`));
  return {
    environments: envs.length,
    stacks: kinds,
    durationHours,
    regions,
    hour,
    workshop: { aws: hour.aws * durationHours, gcp: hour.gcp * durationHours, total: hour.total * durationHours },
    unpriced,
    unpricedRegions: regions.filter((r) => r.lines.some((l) => l.unitPerHour === undefined && l.why === undefined)).map((r) => `${r.cloud} ${r.region}`),
    asOf: PRICES_READ,
  };
}

const usd = (value: number) => `$${value.toFixed(2)}`;

/** The estimate as lines for the terminal: per region its environments and lines, then the totals and what has no price. */
export function formatCostEstimate(estimate: CostEstimate, width = 80): string[] {
  const clouds = (['aws', 'gcp'] as const).filter((c) => estimate.stacks.some((k) => k.startsWith(`${c}-`)));
  const name = { aws: 'AWS', gcp: 'GCP' } as const;
  // `AWS $1.00/h + GCP $2.00/h = $3.00/h`, or `AWS $1.00/h` when one cloud is priced.
  const total = (values: { readonly aws: number; readonly gcp: number; readonly total: number }, unit = '') =>
    clouds.length === 1 ? `${name[clouds[0]]} ${usd(values[clouds[0]])}${unit}` : `${clouds.map((c) => `${name[c]} ${usd(values[c])}${unit}`).join(' + ')} = ${usd(values.total)}${unit}`;
  const only = estimate.stacks.length < STACK_KINDS.length ? `; only the stacks ${estimate.stacks.join(', ')}` : '';
  const out = wrapIndented(`Estimated cost (list prices of each region, read ${estimate.asOf}; no data transfer or LB capacity units${only}):`, width, '', '  ');
  for (const r of estimate.regions) {
    out.push(`  ${name[r.cloud]} ${r.region}, ${plural(r.environments, 'environment')}: ${usd(r.perEnvironmentHour)}/h each`);
    for (const line of r.lines) {
      const price = line.unitPerHour === undefined ? 'not priced' : `${usd(line.quantity * line.unitPerHour)}/h`;
      out.push(`    ${String(line.quantity).padStart(2)} x ${line.item.padEnd(38)} ${price}`);
    }
  }
  out.push(`  ${plural(estimate.environments, 'environment')}: ${total(estimate.hour, '/h')}`, `  for ${estimate.durationHours} h (workshop.durationHours): ${total(estimate.workshop)}`);
  if (estimate.unpricedRegions.length > 0) {
    out.push(
      ...wrapIndented(`no price in the table for some items in ${estimate.unpricedRegions.join(', ')}: counted as $0, so the totals are low (lib/lab/estimate/price-table.ts)`, width, '  ', '    '),
    );
  }
  const why = [...new Set(estimate.regions.flatMap((r) => r.lines.filter((l) => l.unitPerHour === undefined && l.why).map((l) => `${l.item}: ${l.why}`)))];
  for (const reason of why) out.push(...wrapIndented(`not priced: ${reason}`, width, '  ', '    '));
  return out;
}
