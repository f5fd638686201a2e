import { LabConfig } from '../../config/schema';
import { labEnvironments } from '../../config/environments';
import { cloudArmorRuleCount, exposureFacts, gkeNeedsSecurityPolicy, offeredModes } from '../../model/exposure-facts';
import { PRICE_TABLE } from './price-table';
import { STACK_KINDS, StackKind } from '../selection/stack-graph';
import { plural } from '../../kit/terminal/terminal';

/** One priced line of an estimate. */
export interface CostLine {
  readonly cloud: 'aws' | 'gcp';
  /** The stack kind that makes it: a cluster stack's network and nodes, an lb stack's load balancers. */
  readonly stack: StackKind;
  readonly item: string;
  readonly quantity: number;
  /** USD per unit-hour, or undefined when the table has no price for it. */
  readonly unitPerHour: number | undefined;
}

/** The estimate for a whole config. */
export interface CostEstimate {
  readonly environments: number;
  /** The stack kinds priced (`--stacks`); the others are left out. */
  readonly stacks: readonly StackKind[];
  readonly durationHours: number;
  /** Lines for one environment. */
  readonly lines: readonly CostLine[];
  /** USD per hour for one environment, per cloud. */
  readonly perEnvironmentHour: { readonly aws: number; readonly gcp: number };
  /** USD per hour for all environments, per cloud and in total. */
  readonly hour: { readonly aws: number; readonly gcp: number; readonly total: number };
  /** USD for the planned duration, per cloud and in total. */
  readonly workshop: { readonly aws: number; readonly gcp: number; readonly total: number };
  /** Items the table has no price for (counted as 0). */
  readonly unpriced: readonly string[];
  readonly asOf: string;
  /** Regions the price table holds prices for. */
  readonly regions: { readonly aws: string; readonly gcp: string };
  /** Configured regions the table has no prices for (the estimate uses the table's regions for them). */
  readonly otherRegions: readonly string[];
}

/** What to price: the environments and stack kinds a command selected (`--env`, `--stacks`). */
export interface CostSelection {
  /** @default every environment of the config */
  readonly envs?: readonly string[];
  /** @default every stack kind */
  readonly kinds?: readonly StackKind[];
}

/**
 * Prices the resources one environment of `config` runs while deployed, from the repo's price table,
 * for the selected stack kinds only (a cloud none of whose stacks is selected costs nothing), times
 * the selected environments.
 */
export function estimateCost(config: LabConfig, selection: CostSelection = {}): CostEstimate {
  const kinds = STACK_KINDS.filter((k) => (selection.kinds ?? STACK_KINDS).includes(k));
  const aws = PRICE_TABLE.aws;
  const gcp = PRICE_TABLE.gcp;
  const modes = config.exposures;
  // One load balancer per exposure the cloud offers, of the kind its facts name.
  const albs = modes.filter((m) => exposureFacts('aws', m)?.lb_kind === 'alb').length;
  const nlbs = modes.filter((m) => exposureFacts('aws', m)?.lb_kind === 'nlb').length;
  const gcpLoadBalancers = offeredModes('gcp', modes).length;
  const azs = config.aws.availabilityZones.length;
  const natGateways = config.aws.natGateways === 'single' ? 1 : azs;
  const gkeNodes = config.gcp.nodeCount * config.gcp.zones.length;
  const all: CostLine[] = [
    { cloud: 'aws', stack: 'aws-cluster', item: 'EKS control plane', quantity: 1, unitPerHour: aws.eksClusterHour },
    { cloud: 'aws', stack: 'aws-cluster', item: `EC2 ${config.aws.nodeInstanceType} node`, quantity: config.aws.nodeCount, unitPerHour: aws.instanceHour[config.aws.nodeInstanceType] },
    { cloud: 'aws', stack: 'aws-cluster', item: 'node root volume (gp3 20 GiB)', quantity: config.aws.nodeCount, unitPerHour: aws.nodeVolumeHour },
    { cloud: 'aws', stack: 'aws-cluster', item: 'NAT gateway', quantity: natGateways, unitPerHour: aws.natGatewayHour },
    { cloud: 'aws', stack: 'aws-cluster', item: 'public IPv4 address (NAT)', quantity: natGateways, unitPerHour: aws.publicIpv4Hour },
    { cloud: 'aws', stack: 'aws-lb', item: 'Application Load Balancer', quantity: albs, unitPerHour: aws.albHour },
    { cloud: 'aws', stack: 'aws-lb', item: 'Network Load Balancer', quantity: nlbs, unitPerHour: aws.nlbHour },
    { cloud: 'aws', stack: 'aws-lb', item: 'public IPv4 address (load balancers)', quantity: (albs + nlbs) * azs, unitPerHour: aws.publicIpv4Hour },
    { cloud: 'gcp', stack: 'gcp-cluster', item: 'GKE cluster management', quantity: 1, unitPerHour: gcp.gkeClusterHour },
    { cloud: 'gcp', stack: 'gcp-cluster', item: `Compute Engine ${config.gcp.machineType} node`, quantity: gkeNodes, unitPerHour: gcp.machineHour[config.gcp.machineType] },
    { cloud: 'gcp', stack: 'gcp-cluster', item: 'node boot disk (pd-balanced 50 GB)', quantity: gkeNodes, unitPerHour: gcp.nodeDiskHour },
    { cloud: 'gcp', stack: 'gcp-cluster', item: 'Cloud NAT (per VM)', quantity: gkeNodes, unitPerHour: gcp.natPerVmHour },
    { cloud: 'gcp', stack: 'gcp-lb', item: 'load balancer forwarding rule', quantity: gcpLoadBalancers, unitPerHour: gcp.forwardingRuleHour },
    // A narrowed app.allowedSourceCidrs with a GKE Ingress or Gateway: the Cloud Armor policy (billed per policy, per rule and per
    // request). Its prices are not in the table: they could not be checked against Google's price page when this was written.
    {
      cloud: 'gcp',
      stack: 'gcp-cluster',
      item: `Cloud Armor policy (${cloudArmorRuleCount(config.app.allowedSourceCidrs)} rules)`,
      quantity: gkeNeedsSecurityPolicy(modes, config.app.allowedSourceCidrs) ? 1 : 0,
      unitPerHour: undefined,
    },
  ];
  const lines = all.filter((line) => line.quantity > 0 && kinds.includes(line.stack));
  const sum = (cloud: 'aws' | 'gcp') => lines.filter((l) => l.cloud === cloud).reduce((total, l) => total + l.quantity * (l.unitPerHour ?? 0), 0);
  const environments = selection.envs ? selection.envs.length : labEnvironments(config).length;
  const durationHours = config.workshop.durationHours;
  const perEnvironmentHour = { aws: sum('aws'), gcp: sum('gcp') };
  const hour = { aws: perEnvironmentHour.aws * environments, gcp: perEnvironmentHour.gcp * environments, total: 0 };
  hour.total = hour.aws + hour.gcp;
  return {
    environments,
    stacks: kinds,
    durationHours,
    lines,
    perEnvironmentHour,
    hour,
    workshop: { aws: hour.aws * durationHours, gcp: hour.gcp * durationHours, total: hour.total * durationHours },
    unpriced: lines.filter((l) => l.unitPerHour === undefined).map((l) => `${l.cloud}: ${l.item}`),
    asOf: PRICE_TABLE.asOf,
    regions: { aws: aws.region, gcp: gcp.region },
    otherRegions: [...(config.aws.region !== aws.region ? [`aws ${config.aws.region}`] : []), ...(config.gcp.region !== gcp.region ? [`gcp ${config.gcp.region}`] : [])],
  };
}

const usd = (value: number) => `$${value.toFixed(2)}`;

/** The estimate as lines for the terminal: only the clouds whose stacks are priced. */
export function formatCostEstimate(estimate: CostEstimate): string[] {
  const clouds = (['aws', 'gcp'] as const).filter((c) => estimate.stacks.some((k) => k.startsWith(`${c}-`)));
  const name = { aws: 'AWS', gcp: 'GCP' } as const;
  // `AWS $1.00/h + GCP $2.00/h = $3.00/h`, or `AWS $1.00/h` when one cloud is priced.
  const total = (values: { readonly aws: number; readonly gcp: number; readonly total: number }, unit = '') =>
    clouds.length === 1 ? `${name[clouds[0]]} ${usd(values[clouds[0]])}${unit}` : `${clouds.map((c) => `${name[c]} ${usd(values[c])}${unit}`).join(' + ')} = ${usd(values.total)}${unit}`;
  const only = estimate.stacks.length < STACK_KINDS.length ? `; only the stacks ${estimate.stacks.join(', ')}` : '';
  const out = [
    `Estimated cost (list prices of ${estimate.asOf}, ${clouds.map((c) => estimate.regions[c]).join(' and ')}; no data transfer or LB capacity units${only}):`,
    `  per environment: ${clouds.map((c) => `${name[c]} ${usd(estimate.perEnvironmentHour[c])}/h`).join(', ')}`,
  ];
  for (const line of estimate.lines) {
    const price = line.unitPerHour === undefined ? 'no price in table' : `${usd(line.quantity * line.unitPerHour)}/h`;
    out.push(`    ${line.cloud}  ${String(line.quantity).padStart(2)} x ${line.item.padEnd(38)} ${price}`);
  }
  out.push(`  ${plural(estimate.environments, 'environment')}: ${total(estimate.hour, '/h')}`, `  for ${estimate.durationHours} h (workshop.durationHours): ${total(estimate.workshop)}`);
  const otherRegions = estimate.otherRegions.filter((r) => clouds.some((c) => r.startsWith(`${c} `)));
  if (otherRegions.length > 0) {
    out.push(`  the lab runs in ${otherRegions.join(' and ')}: prices there differ (often by 5-20%); this uses the table's regions`);
  }
  if (estimate.unpriced.length > 0) {
    out.push(`  not priced (add to lib/lab/estimate/price-table.ts): ${estimate.unpriced.join('; ')}`);
  }
  return out;
}
