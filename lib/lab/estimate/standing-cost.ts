/**
 * What resources found standing cost per hour, from the dated price table of
 * the region each is in (price-table.ts): the reaper prices a lab it found by
 * its tags this way, whatever config made it. An item the table has no price
 * for in that region is named, region and item, and counted as nothing, never
 * priced as another region's. VPCs have no hourly charge of their own.
 */
import { TaggedResource } from '../leftovers/tagged-resource';
import { awsPrices, gcpPrices, HOURS_PER_MONTH, PRICE_TABLE, PRICES_READ } from './price-table';

/** One priced item: how many, and the price of one per hour in its region (undefined: not in the table). */
export interface StandingLine {
  readonly cloud: 'aws' | 'gcp';
  readonly region: string;
  readonly item: string;
  readonly quantity: number;
  readonly unitPerHour: number | undefined;
}

export interface StandingCost {
  /** USD per hour of what is priced. */
  readonly perHour: number;
  readonly lines: readonly StandingLine[];
  /** What has no price, with its region (`aws eu-west-1: EC2 t3.medium`): counted as $0. */
  readonly unpriced: readonly string[];
  /** When the table's sources were read. */
  readonly asOf: string;
}

type Item = Omit<StandingLine, 'quantity' | 'cloud' | 'region'> & { readonly quantity?: number };

/** The priced items of one resource. */
function itemsOf(resource: TaggedResource): Item[] {
  const region = resource.region;
  switch (resource.kind) {
    case 'eks:cluster':
      return [{ item: 'EKS control plane', unitPerHour: PRICE_TABLE.aws.everyRegion.eksClusterHour }];
    case 'ec2:instance':
      return [{ item: `EC2 ${resource.instanceType}`, unitPerHour: awsPrices(region).instanceHour?.[resource.instanceType] }];
    case 'ec2:nat-gateway':
      return [{ item: 'NAT gateway', unitPerHour: awsPrices(region).natGatewayHour }];
    case 'ec2:elastic-ip':
      return [{ item: 'public IPv4 address (Elastic IP)', unitPerHour: PRICE_TABLE.aws.everyRegion.publicIpv4Hour }];
    case 'ec2:vpc':
      return [];
    case 'elbv2:load-balancer': {
      const p = awsPrices(region);
      const kind =
        resource.lbType === 'application'
          ? { item: 'Application Load Balancer', unitPerHour: p.albHour }
          : resource.lbType === 'network'
          ? { item: 'Network Load Balancer', unitPerHour: p.nlbHour }
          : { item: `${resource.lbType} load balancer`, unitPerHour: undefined };
      const addresses = resource.internetFacing ? [{ item: 'public IPv4 address (load balancers)', quantity: resource.zones, unitPerHour: PRICE_TABLE.aws.everyRegion.publicIpv4Hour }] : [];
      return [kind, ...addresses];
    }
    case 'gke:cluster': {
      const p = gcpPrices(region);
      const nodes = resource.machineType
        ? [{ item: `Compute Engine ${resource.machineType} node`, quantity: resource.nodes, unitPerHour: p.machineHour?.[resource.machineType] }]
        : resource.nodes > 0
        ? [{ item: 'Compute Engine node of an unknown machine type', quantity: resource.nodes, unitPerHour: undefined }]
        : [];
      const disk = resource.diskSizeGb;
      const disks =
        disk === undefined || resource.nodes === 0
          ? []
          : [
              {
                item: `node boot disk (${resource.diskType ?? 'unknown type'} ${disk} GB)`,
                quantity: resource.nodes,
                unitPerHour: resource.diskType === 'pd-balanced' && p.pdBalancedGbMonth !== undefined ? (disk * p.pdBalancedGbMonth) / HOURS_PER_MONTH : undefined,
              },
            ];
      return [{ item: 'GKE cluster management', unitPerHour: PRICE_TABLE.gcp.everyRegion.gkeClusterHour }, ...nodes, ...disks];
    }
    case 'compute:instance':
      return [{ item: `Compute Engine ${resource.machineType}`, unitPerHour: gcpPrices(region).machineHour?.[resource.machineType] }];
    case 'compute:forwarding-rule':
      // A global rule has one price everywhere; a regional one has its region's.
      return region === 'global'
        ? [{ item: 'global forwarding rule', unitPerHour: PRICE_TABLE.gcp.everyRegion.globalForwardingRuleHour }]
        : [{ item: 'regional forwarding rule', unitPerHour: gcpPrices(region).regionalForwardingRuleHour }];
    case 'compute:address':
      return [{ item: 'reserved IP address', unitPerHour: undefined }];
  }
}

/** What `resources` cost per hour while they stand (see the module's comment). */
export function standingCost(resources: readonly TaggedResource[]): StandingCost {
  const lines = new Map<string, StandingLine>();
  for (const resource of resources) {
    for (const item of itemsOf(resource)) {
      const key = `${resource.cloud} ${resource.region} ${item.item}`;
      const before = lines.get(key);
      const quantity = (before?.quantity ?? 0) + (item.quantity ?? 1);
      lines.set(key, { cloud: resource.cloud, region: resource.region, item: item.item, quantity, unitPerHour: item.unitPerHour });
    }
  }
  const all = [...lines.values()].filter((l) => l.quantity > 0);
  return {
    perHour: all.reduce((sum, l) => sum + l.quantity * (l.unitPerHour ?? 0), 0),
    lines: all,
    unpriced: all.filter((l) => l.unitPerHour === undefined).map((l) => `${l.cloud} ${l.region}: ${l.item}`),
    asOf: PRICES_READ,
  };
}
