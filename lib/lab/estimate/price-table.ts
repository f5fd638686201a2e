/**
 * On-demand list prices (USD) hoplab's cost estimate uses, per region, each
 * with where it comes from and when it was read. Prices are per hour unless
 * the name says otherwise. They leave out data transfer, load-balancer capacity
 * units and taxes, and they change: check before you quote them.
 *
 * A price is in this table for a region only where a public source gives it
 * for that region (or gives one price, with no region, for all of them: then
 * it is in `everyRegion`); the estimate names each region and item it has no
 * price for, and prices it at nothing, rather than borrowing another region's.
 * Add a region by adding its prices with their source.
 */

/**
 * When the table was last brought up to date from its sources (the estimate prints it). Each source
 * in {@link PRICE_SOURCES} says when it was read or generated.
 */
export const PRICES_READ = '2026-12-07';

/** Where the prices come from. */
export const PRICE_SOURCES = {
  eks: 'Amazon EKS control plane, standard support: $0.10 per cluster per hour, stated for every cluster (AWS Containers Blog, "Amazon EKS extended support for Kubernetes versions pricing", aws.amazon.com/blogs/containers/amazon-eks-extended-support-for-kubernetes-versions-pricing)',
  publicIpv4:
    'AWS public IPv4 addresses: $0.005 per IP per hour for all public IPv4 addresses, from February 1, 2024 (AWS News Blog, "New - AWS Public IPv4 Address Charge + Public IP Insights", 2023-07-28)',
  ec2UsEast1:
    'EC2 Linux on-demand, us-east-1: the AWS Pricing API as Karpenter records it (github.com/aws/karpenter-provider-aws, pkg/providers/pricing/zz_generated.pricing_aws.go at 6fc13b5, "generated at 2026-07-20T13:44:30Z for us-east-1"; that file holds us-east-1 only, at every commit up to 1d92708 of 2026-08-21, read 2026-12-07)',
  ec2OtherRegions:
    "EC2 Linux on-demand, the offered regions but us-east-1 and sa-east-1: the AWS Price List bulk offer files (pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/<region>/index.csv; on-demand, Linux, no pre-installed software, capacity status Used) as SkyPilot's catalog records them (github.com/skypilot-org/skypilot-catalog, catalogs/v7/aws/vms.csv at 27f67dd, the Price column, one row per zone and the same in each zone of a region; read 2026-12-07; written by sky/catalog/data_fetchers/fetch_aws.py, whose region list has no sa-east-1). Its us-east-1 rows equal Karpenter's for all 14 types. A type missing from a region's rows is not offered there (t3a in eu-north-1 and ap-northeast-3, m7i in ap-northeast-3)",
  albUsEast1: 'Application Load Balancer, us-east-1: $0.0225 per hour, the US-East-1 examples of aws.amazon.com/elasticloadbalancing/pricing (as transcribed 2026-09-20)',
  awsRecorded2025:
    "us-east-1 NAT gateway ($0.045/h), Network Load Balancer ($0.0225/h) and gp3 volume ($0.08 per GB-month): this table's first values, recorded 2025-06 from AWS's price pages, which render their regional prices with JavaScript; not re-read since",
  gke: 'GKE cluster management fee: $0.10 per cluster per hour, irrespective of cluster size or topology (cloud.google.com/kubernetes-engine/pricing); the free tier credit of one zonal cluster per billing account is not subtracted',
  gce: 'Compute Engine on-demand machine types and pd-balanced disks, per region: the Cloud Billing Catalog API as github.com/Cyclenerd/google-cloud-pricing-cost-calculator records it (pricing.yml at fd66b26, generated 2026-07-30)',
  cloudNat:
    'Cloud NAT gateway, up to 32 VMs: $0.0014 per VM using the gateway per hour (more than 32: $0.044 per gateway-hour), one price with no region given, on a page that has no per-region table (cloud.google.com/nat/pricing, read 2026-12-07; it adds that "the data processing price is the same across all regions")',
  globalForwardingRules:
    'Global forwarding rules (the GKE Ingress and the Gateway of class gke-l7-global-external-managed make one each): "First 5 forwarding rules $0.025 per hour, per additional forwarding rule $0.01", one table for all global rules (cloud.google.com/load-balancing/pricing, read 2026-12-07); each rule is priced at the first-five rate, an upper bound for a project holding more than five',
  regionalForwardingRulesRecorded2025:
    "us-central1 regional forwarding rules (a passthrough Network Load Balancer's; $0.025/h for the first five): this table's first value, recorded 2025-06 from Google's price page, whose regional table is rendered per region by JavaScript and was not readable as text on 2026-12-07",
} as const;

/** The node root volume of an EKS managed node group (20 GiB gp3). */
export const EKS_NODE_VOLUME_GB = 20;
/** The boot disk of a GKE node of the lab's node pool (lib/constructs/gcp/gke-node-pool.ts: 50 GB pd-balanced). */
export const GKE_NODE_DISK_GB = 50;
/** Hours in a month, as AWS and Google turn monthly prices into hourly ones. */
export const HOURS_PER_MONTH = 730;

/** An AWS region's prices. */
export interface AwsRegionPrices {
  /** EC2 Linux on-demand, per instance-hour. */
  readonly instanceHour?: Readonly<Record<string, number>>;
  /** gp3, per GB-month. */
  readonly gp3GbMonth?: number;
  readonly natGatewayHour?: number;
  readonly albHour?: number;
  readonly nlbHour?: number;
}

/** A GCP region's prices. */
export interface GcpRegionPrices {
  /** Compute Engine on-demand, per VM-hour. */
  readonly machineHour?: Readonly<Record<string, number>>;
  /** pd-balanced, per GB-month. */
  readonly pdBalancedGbMonth?: number;
  /** A regional forwarding rule (one per passthrough load balancer here), per hour, at the rate of a project's first five. */
  readonly regionalForwardingRuleHour?: number;
}

/** The EC2 instance types priced per region, in the order {@link ec2} takes their prices. */
const EC2_INSTANCE_TYPES = [
  't3.small',
  't3.medium',
  't3.large',
  't3.xlarge',
  't3a.medium',
  't3a.large',
  'm5.large',
  'm5.xlarge',
  'm6i.large',
  'm6i.xlarge',
  'm7i.large',
  'c5.large',
  'c6i.large',
  'r5.large',
] as const;

/** An instance type the source lists no price for in a region, because the region does not offer it. */
const NOT_OFFERED = undefined;

/** The Compute Engine machine types priced per region, in the order {@link gce} takes their prices. */
const GCE_MACHINE_TYPES = ['e2-medium', 'e2-standard-2', 'e2-standard-4', 'n2-standard-2', 'n2-standard-4'] as const;

/** A price for each of a list of names, in its order. */
type PriceOfEach<Names extends readonly string[], Price = number> = { readonly [I in keyof Names]: Price };

/**
 * An AWS region's EC2 prices ({@link PRICE_SOURCES}.ec2OtherRegions): per instance-hour of each type in
 * the order of {@link EC2_INSTANCE_TYPES}, {@link NOT_OFFERED} where the region has none of that type.
 */
function ec2(perHour: PriceOfEach<typeof EC2_INSTANCE_TYPES, number | typeof NOT_OFFERED>): Readonly<Record<string, number>> {
  return Object.fromEntries(EC2_INSTANCE_TYPES.flatMap((type, i) => (perHour[i] === NOT_OFFERED ? [] : [[type, perHour[i]]])));
}

/**
 * A GCP region's Compute Engine prices ({@link PRICE_SOURCES}.gce): per VM-hour of each machine
 * type in the order of {@link GCE_MACHINE_TYPES}, and pd-balanced per GB-month.
 */
function gce(perVmHour: PriceOfEach<typeof GCE_MACHINE_TYPES>, pdBalancedGbMonth: number): GcpRegionPrices {
  return { machineHour: Object.fromEntries(GCE_MACHINE_TYPES.map((type, i) => [type, perVmHour[i]])), pdBalancedGbMonth };
}

const US_EAST_1_INSTANCES = {
  't3.small': 0.0208,
  't3.medium': 0.0416,
  't3.large': 0.0832,
  't3.xlarge': 0.1664,
  't3a.medium': 0.0376,
  't3a.large': 0.0752,
  'm5.large': 0.096,
  'm5.xlarge': 0.192,
  'm6i.large': 0.096,
  'm6i.xlarge': 0.192,
  'm7i.large': 0.1008,
  'c5.large': 0.085,
  'c6i.large': 0.085,
  'r5.large': 0.126,
} as const;

export const PRICE_TABLE = {
  aws: {
    /** The same in every region (see {@link PRICE_SOURCES}). */
    everyRegion: { eksClusterHour: 0.1, publicIpv4Hour: 0.005 },
    // NAT gateway, ALB, NLB and gp3 prices are us-east-1's only: no public machine-readable source of the other
    // regions' was found (AWS's price pages render them with JavaScript), so they are named as not priced there.
    // Per region: ec2([t3.small, t3.medium, t3.large, t3.xlarge, t3a.medium, t3a.large, m5.large, m5.xlarge,
    // m6i.large, m6i.xlarge, m7i.large, c5.large, c6i.large, r5.large per instance-hour]). sa-east-1 has no source.
    regions: {
      'us-east-1': { instanceHour: US_EAST_1_INSTANCES, gp3GbMonth: 0.08, natGatewayHour: 0.045, albHour: 0.0225, nlbHour: 0.0225 },
      'us-east-2': { instanceHour: ec2([0.0208, 0.0416, 0.0832, 0.1664, 0.0376, 0.0752, 0.096, 0.192, 0.096, 0.192, 0.1008, 0.085, 0.085, 0.126]) },
      'us-west-1': { instanceHour: ec2([0.0248, 0.0496, 0.0992, 0.1984, 0.0446, 0.0893, 0.112, 0.224, 0.112, 0.224, 0.1176, 0.106, 0.106, 0.14]) },
      'us-west-2': { instanceHour: ec2([0.0208, 0.0416, 0.0832, 0.1664, 0.0376, 0.0752, 0.096, 0.192, 0.096, 0.192, 0.1008, 0.085, 0.085, 0.126]) },
      'ca-central-1': { instanceHour: ec2([0.0232, 0.0464, 0.0928, 0.1856, 0.0418, 0.0835, 0.107, 0.214, 0.107, 0.214, 0.11235, 0.093, 0.093, 0.138]) },
      'eu-west-1': { instanceHour: ec2([0.0228, 0.0456, 0.0912, 0.1824, 0.0408, 0.0816, 0.107, 0.214, 0.107, 0.214, 0.11235, 0.096, 0.0912, 0.141]) },
      'eu-west-2': { instanceHour: ec2([0.0236, 0.0472, 0.0944, 0.1888, 0.0425, 0.085, 0.111, 0.222, 0.111, 0.222, 0.11655, 0.101, 0.101, 0.148]) },
      'eu-west-3': { instanceHour: ec2([0.0236, 0.0472, 0.0944, 0.1888, 0.0425, 0.085, 0.112, 0.224, 0.112, 0.224, 0.1176, 0.101, 0.101, 0.148]) },
      'eu-central-1': { instanceHour: ec2([0.024, 0.048, 0.096, 0.192, 0.0432, 0.0864, 0.115, 0.23, 0.115, 0.23, 0.12075, 0.097, 0.097, 0.152]) },
      'eu-north-1': { instanceHour: ec2([0.0216, 0.0432, 0.0864, 0.1728, NOT_OFFERED, NOT_OFFERED, 0.102, 0.204, 0.102, 0.204, 0.1071, 0.091, 0.091, 0.134]) },
      'ap-northeast-1': { instanceHour: ec2([0.0272, 0.0544, 0.1088, 0.2176, 0.049, 0.0979, 0.124, 0.248, 0.124, 0.248, 0.1302, 0.107, 0.107, 0.152]) },
      'ap-northeast-2': { instanceHour: ec2([0.026, 0.052, 0.104, 0.208, 0.0468, 0.0936, 0.118, 0.236, 0.118, 0.236, 0.1239, 0.096, 0.096, 0.152]) },
      'ap-northeast-3': { instanceHour: ec2([0.0272, 0.0544, 0.1088, 0.2176, NOT_OFFERED, NOT_OFFERED, 0.124, 0.248, 0.124, 0.248, NOT_OFFERED, 0.107, 0.107, 0.152]) },
      'ap-south-1': { instanceHour: ec2([0.0224, 0.0448, 0.0896, 0.1792, 0.0246, 0.0493, 0.101, 0.202, 0.101, 0.202, 0.10605, 0.085, 0.085, 0.13]) },
      'ap-southeast-1': { instanceHour: ec2([0.0264, 0.0528, 0.1056, 0.2112, 0.0472, 0.0944, 0.12, 0.24, 0.12, 0.24, 0.126, 0.098, 0.098, 0.152]) },
      'ap-southeast-2': { instanceHour: ec2([0.0264, 0.0528, 0.1056, 0.2112, 0.0475, 0.095, 0.12, 0.24, 0.12, 0.24, 0.126, 0.111, 0.111, 0.151]) },
    } as Readonly<Record<string, AwsRegionPrices>>,
  },
  gcp: {
    /** One price, whatever the region (see {@link PRICE_SOURCES}): Cloud NAT per VM-hour, a global forwarding rule per hour. */
    everyRegion: { gkeClusterHour: 0.1, natPerVmHour: 0.0014, globalForwardingRuleHour: 0.025 },
    // Per region: gce([e2-medium, e2-standard-2, e2-standard-4, n2-standard-2, n2-standard-4 per VM-hour], pd-balanced per GB-month).
    regions: {
      'us-central1': {
        ...gce([0.03350571, 0.06701142, 0.13402284, 0.097118, 0.194236], 0.1),
        // Recorded 2025-06 (PRICE_SOURCES.regionalForwardingRulesRecorded2025): the Cyclenerd data has no forwarding-rule prices.
        regionalForwardingRuleHour: 0.025,
      },
      'us-east1': gce([0.03350571, 0.06701142, 0.13402284, 0.097118, 0.194236], 0.1),
      'us-east4': gce([0.03773541, 0.07547082, 0.15094164, 0.109378, 0.218756], 0.11),
      'us-east5': gce([0.03350571, 0.06701142, 0.13402284, 0.097118, 0.194236], 0.1),
      'us-south1': gce([0.03953674, 0.07907348, 0.15814696, 0.11459924, 0.22919848], 0.12),
      'us-west1': gce([0.03350571, 0.06701142, 0.13402284, 0.097118, 0.194236], 0.1),
      'us-west2': gce([0.04024494, 0.08048988, 0.16097976, 0.116652, 0.233304], 0.12),
      'us-west3': gce([0.04024494, 0.08048988, 0.16097976, 0.116652, 0.233304], 0.12),
      'us-west4': gce([0.03773541, 0.07547082, 0.15094164, 0.109374, 0.218748], 0.11),
      'northamerica-northeast1': gce([0.03688602, 0.07377204, 0.14754408, 0.106916, 0.213832], 0.11),
      'northamerica-northeast2': gce([0.03688602, 0.07377204, 0.14754408, 0.106916, 0.213832], 0.11),
      'southamerica-east1': gce([0.0531852, 0.1063704, 0.2127408, 0.15416, 0.30832], 0.15),
      'europe-west1': gce([0.03685773, 0.07371546, 0.14743092, 0.106834, 0.213668], 0.1),
      'europe-west2': gce([0.04316778, 0.08633556, 0.17267112, 0.125124, 0.250248], 0.12),
      'europe-west3': gce([0.04316778, 0.08633556, 0.17267112, 0.125124, 0.250248], 0.12),
      'europe-west4': gce([0.03688602, 0.07377204, 0.14754408, 0.106916, 0.213832], 0.11),
      'europe-west6': gce([0.04389133, 0.08778266, 0.17556532, 0.127226, 0.254452], 0.13),
      'europe-west8': gce([0.038866, 0.077732, 0.155464, 0.11265688, 0.22531376], 0.116),
      'europe-west9': gce([0.038866, 0.077732, 0.155464, 0.11265688, 0.22531376], 0.116),
      'europe-west10': gce([0.04316911, 0.08633822, 0.17267644, 0.12512788, 0.25025576], 0.154),
      'europe-west12': gce([0.043222366, 0.086444732, 0.172889464, 0.12528222, 0.25056444], 0.12),
      'europe-north1': gce([0.03688878, 0.07377756, 0.14755512, 0.106924, 0.213848], 0.11),
      'europe-central2': gce([0.04054188, 0.08108376, 0.16216752, 0.117516, 0.235032], 0.13),
      'europe-southwest1': gce([0.039538, 0.079076, 0.158152, 0.11459924, 0.22919848], 0.12),
      'asia-east1': gce([0.03879594, 0.07759188, 0.15518376, 0.112452, 0.224904], 0.1),
      'asia-east2': gce([0.04688067, 0.09376134, 0.18752268, 0.135886, 0.271772], 0.11),
      'asia-northeast1': gce([0.04298286, 0.08596572, 0.17193144, 0.124588, 0.249176], 0.13),
      'asia-northeast2': gce([0.04298286, 0.08596572, 0.17193144, 0.124718, 0.249436], 0.13),
      'asia-northeast3': gce([0.04298286, 0.08596572, 0.17193144, 0.124718, 0.249436], 0.13),
      'asia-south1': gce([0.04024218, 0.08048436, 0.16096872, 0.116644, 0.233288], 0.12),
      'asia-south2': gce([0.04024218, 0.08048436, 0.16096872, 0.116644, 0.233288], 0.12),
      'asia-southeast1': gce([0.04133307, 0.08266614, 0.16533228, 0.119806, 0.239612], 0.11),
      'asia-southeast2': gce([0.045053043, 0.090106086, 0.180212172, 0.13058854, 0.26117708], 0.13),
      'australia-southeast1': gce([0.047541, 0.095082, 0.190164, 0.1378, 0.2756], 0.135),
      'australia-southeast2': gce([0.040408, 0.080816, 0.161632, 0.117128, 0.234256], 0.135),
    } as Readonly<Record<string, GcpRegionPrices>>,
  },
} as const;

/** A region's AWS prices; empty for a region the table does not hold. */
export function awsPrices(region: string): AwsRegionPrices {
  return PRICE_TABLE.aws.regions[region] ?? {};
}

/** A region's GCP prices; empty for a region the table does not hold. */
export function gcpPrices(region: string): GcpRegionPrices {
  return PRICE_TABLE.gcp.regions[region] ?? {};
}
