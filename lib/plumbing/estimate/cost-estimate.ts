import { LabConfig } from '../../config/schema';
import { labEnvironments } from '../../config/environments';
import { exposureFacts, offeredModes } from '../../model/exposure-facts';
import { PRICE_TABLE } from './price-table';

/** One priced line of an estimate. */
export interface CostLine {
  readonly cloud: 'aws' | 'gcp';
  readonly item: string;
  readonly quantity: number;
  /** USD per unit-hour, or undefined when the table has no price for it. */
  readonly unitPerHour: number | undefined;
}

/** The estimate for a whole config. */
export interface CostEstimate {
  readonly environments: number;
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

/** Prices the resources one environment of `config` runs while deployed, from the repo's price table. */
export function estimateCost(config: LabConfig): CostEstimate {
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
    { cloud: 'aws', item: 'EKS control plane', quantity: 1, unitPerHour: aws.eksClusterHour },
    { cloud: 'aws', item: `EC2 ${config.aws.nodeInstanceType} node`, quantity: config.aws.nodeCount, unitPerHour: aws.instanceHour[config.aws.nodeInstanceType] },
    { cloud: 'aws', item: 'node root volume (gp3 20 GiB)', quantity: config.aws.nodeCount, unitPerHour: aws.nodeVolumeHour },
    { cloud: 'aws', item: 'NAT gateway', quantity: natGateways, unitPerHour: aws.natGatewayHour },
    { cloud: 'aws', item: 'Application Load Balancer', quantity: albs, unitPerHour: aws.albHour },
    { cloud: 'aws', item: 'Network Load Balancer', quantity: nlbs, unitPerHour: aws.nlbHour },
    { cloud: 'aws', item: 'public IPv4 address', quantity: natGateways + (albs + nlbs) * azs, unitPerHour: aws.publicIpv4Hour },
    { cloud: 'gcp', item: 'GKE cluster management', quantity: 1, unitPerHour: gcp.gkeClusterHour },
    { cloud: 'gcp', item: `Compute Engine ${config.gcp.machineType} node`, quantity: gkeNodes, unitPerHour: gcp.machineHour[config.gcp.machineType] },
    { cloud: 'gcp', item: 'node boot disk (pd-balanced 50 GB)', quantity: gkeNodes, unitPerHour: gcp.nodeDiskHour },
    { cloud: 'gcp', item: 'Cloud NAT (per VM)', quantity: gkeNodes, unitPerHour: gcp.natPerVmHour },
    { cloud: 'gcp', item: 'load balancer forwarding rule', quantity: gcpLoadBalancers, unitPerHour: gcp.forwardingRuleHour },
  ];
  const lines = all.filter((line) => line.quantity > 0);
  const sum = (cloud: 'aws' | 'gcp') => lines.filter((l) => l.cloud === cloud).reduce((total, l) => total + l.quantity * (l.unitPerHour ?? 0), 0);
  const environments = labEnvironments(config).length;
  const durationHours = config.workshop.durationHours;
  const perEnvironmentHour = { aws: sum('aws'), gcp: sum('gcp') };
  const hour = { aws: perEnvironmentHour.aws * environments, gcp: perEnvironmentHour.gcp * environments, total: 0 };
  hour.total = hour.aws + hour.gcp;
  return {
    environments,
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

/** The estimate as lines for the terminal. */
export function formatCostEstimate(estimate: CostEstimate): string[] {
  const out = [
    `Estimated cost (list prices of ${estimate.asOf}, ${estimate.regions.aws} and ${estimate.regions.gcp}; no data transfer or LB capacity units):`,
    `  per environment: AWS ${usd(estimate.perEnvironmentHour.aws)}/h, GCP ${usd(estimate.perEnvironmentHour.gcp)}/h`,
  ];
  for (const line of estimate.lines) {
    const price = line.unitPerHour === undefined ? 'no price in table' : `${usd(line.quantity * line.unitPerHour)}/h`;
    out.push(`    ${line.cloud}  ${String(line.quantity).padStart(2)} x ${line.item.padEnd(38)} ${price}`);
  }
  out.push(
    `  ${estimate.environments} environment${estimate.environments === 1 ? '' : 's'}: AWS ${usd(estimate.hour.aws)}/h + GCP ${usd(estimate.hour.gcp)}/h = ${usd(estimate.hour.total)}/h`,
    `  for ${estimate.durationHours} h (workshop.durationHours): AWS ${usd(estimate.workshop.aws)} + GCP ${usd(estimate.workshop.gcp)} = ${usd(estimate.workshop.total)}`,
  );
  if (estimate.otherRegions.length > 0) {
    out.push(`  the lab runs in ${estimate.otherRegions.join(' and ')}: prices there differ (often by 5-20%); this uses the table's regions`);
  }
  if (estimate.unpriced.length > 0) {
    out.push(`  not priced (add to lib/plumbing/estimate/price-table.ts): ${estimate.unpriced.join('; ')}`);
  }
  return out;
}
