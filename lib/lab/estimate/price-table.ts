/**
 * On-demand list prices (USD) hoplab's cost estimate uses, per region, each
 * with where it comes from and when it was read. Prices are per hour unless
 * the name says otherwise. They leave out data transfer, load-balancer capacity
 * units and taxes, and they change: check before you quote them.
 *
 * A price is in this table for a region only where a public source gives it
 * for that region (or says it is the same in every region); the estimate names
 * each region and item it has no price for, and prices it at nothing, rather
 * than borrowing another region's. Add a region by adding its prices with
 * their source.
 */

/** When the sources below were read (the estimate prints it). */
export const PRICES_READ = '2026-12-02';

/** Where the prices come from. */
export const PRICE_SOURCES = {
  eks: 'Amazon EKS control plane, standard support: $0.10 per cluster per hour, stated for every cluster (AWS Containers Blog, "Amazon EKS extended support for Kubernetes versions pricing", aws.amazon.com/blogs/containers/amazon-eks-extended-support-for-kubernetes-versions-pricing)',
  publicIpv4:
    'AWS public IPv4 addresses: $0.005 per IP per hour for all public IPv4 addresses, from February 1, 2024 (AWS News Blog, "New - AWS Public IPv4 Address Charge + Public IP Insights", 2023-07-28)',
  ec2UsEast1:
    'EC2 Linux on-demand, us-east-1: the AWS Pricing API as Karpenter records it (github.com/aws/karpenter-provider-aws, pkg/providers/pricing/zz_generated.pricing_aws.go at 6fc13b5, "generated at 2026-07-20T13:44:30Z for us-east-1")',
  albUsEast1: 'Application Load Balancer, us-east-1: $0.0225 per hour, the US-East-1 examples of aws.amazon.com/elasticloadbalancing/pricing (as transcribed 2026-09-20)',
  awsRecorded2025:
    "us-east-1 NAT gateway ($0.045/h), Network Load Balancer ($0.0225/h) and gp3 volume ($0.08 per GB-month): this table's first values, recorded 2025-06 from AWS's price pages, which render their regional prices with JavaScript; not re-read since",
  gke: 'GKE cluster management fee: $0.10 per cluster per hour, irrespective of cluster size or topology (cloud.google.com/kubernetes-engine/pricing); the free tier credit of one zonal cluster per billing account is not subtracted',
  gce: 'Compute Engine on-demand machine types and pd-balanced disks, per region: the Cloud Billing Catalog API as github.com/Cyclenerd/google-cloud-pricing-cost-calculator records it (pricing.yml at fd66b26, generated 2026-07-30)',
  gcpRecorded2025:
    "us-central1 Cloud NAT ($0.0014 per VM-hour) and forwarding rules ($0.025/h for the first five): this table's first values, recorded 2025-06 from Google's price pages; the Cloud NAT price per VM was read again on Google's page as reported 2026-10-16 (github.com/ChiefGyk3D/Clouds-Against-Humanity wiki, Provider GCP Cost Lesson)",
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
  /** Cloud NAT, per VM using the gateway, per hour. */
  readonly natPerVmHour?: number;
  /** Forwarding rules: the first five of a project together, per hour (one per load balancer here). */
  readonly forwardingRuleHour?: number;
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
    regions: {
      'us-east-1': { instanceHour: US_EAST_1_INSTANCES, gp3GbMonth: 0.08, natGatewayHour: 0.045, albHour: 0.0225, nlbHour: 0.0225 },
    } as Readonly<Record<string, AwsRegionPrices>>,
  },
  gcp: {
    everyRegion: { gkeClusterHour: 0.1 },
    regions: {
      'us-central1': {
        machineHour: { 'e2-medium': 0.03350571, 'e2-standard-2': 0.06701142, 'e2-standard-4': 0.13402284, 'n2-standard-2': 0.097118, 'n2-standard-4': 0.194236 },
        pdBalancedGbMonth: 0.1,
        // Recorded 2025-06 (PRICE_SOURCES.gcpRecorded2025): the Cyclenerd data has no per-VM Cloud NAT or forwarding-rule prices.
        natPerVmHour: 0.0014,
        forwardingRuleHour: 0.025,
      },
      'us-east1': { machineHour: { 'e2-medium': 0.03350571, 'e2-standard-2': 0.06701142, 'e2-standard-4': 0.13402284, 'n2-standard-2': 0.097118, 'n2-standard-4': 0.194236 }, pdBalancedGbMonth: 0.1 },
      'us-east4': { machineHour: { 'e2-medium': 0.03773541, 'e2-standard-2': 0.07547082, 'e2-standard-4': 0.15094164, 'n2-standard-2': 0.109378, 'n2-standard-4': 0.218756 }, pdBalancedGbMonth: 0.11 },
      'us-east5': { machineHour: { 'e2-medium': 0.03350571, 'e2-standard-2': 0.06701142, 'e2-standard-4': 0.13402284, 'n2-standard-2': 0.097118, 'n2-standard-4': 0.194236 }, pdBalancedGbMonth: 0.1 },
      'us-south1': {
        machineHour: { 'e2-medium': 0.03953674, 'e2-standard-2': 0.07907348, 'e2-standard-4': 0.15814696, 'n2-standard-2': 0.11459924, 'n2-standard-4': 0.22919848 },
        pdBalancedGbMonth: 0.12,
      },
      'us-west1': { machineHour: { 'e2-medium': 0.03350571, 'e2-standard-2': 0.06701142, 'e2-standard-4': 0.13402284, 'n2-standard-2': 0.097118, 'n2-standard-4': 0.194236 }, pdBalancedGbMonth: 0.1 },
      'us-west2': { machineHour: { 'e2-medium': 0.04024494, 'e2-standard-2': 0.08048988, 'e2-standard-4': 0.16097976, 'n2-standard-2': 0.116652, 'n2-standard-4': 0.233304 }, pdBalancedGbMonth: 0.12 },
      'us-west3': { machineHour: { 'e2-medium': 0.04024494, 'e2-standard-2': 0.08048988, 'e2-standard-4': 0.16097976, 'n2-standard-2': 0.116652, 'n2-standard-4': 0.233304 }, pdBalancedGbMonth: 0.12 },
      'us-west4': { machineHour: { 'e2-medium': 0.03773541, 'e2-standard-2': 0.07547082, 'e2-standard-4': 0.15094164, 'n2-standard-2': 0.109374, 'n2-standard-4': 0.218748 }, pdBalancedGbMonth: 0.11 },
      'northamerica-northeast1': {
        machineHour: { 'e2-medium': 0.03688602, 'e2-standard-2': 0.07377204, 'e2-standard-4': 0.14754408, 'n2-standard-2': 0.106916, 'n2-standard-4': 0.213832 },
        pdBalancedGbMonth: 0.11,
      },
      'northamerica-northeast2': {
        machineHour: { 'e2-medium': 0.03688602, 'e2-standard-2': 0.07377204, 'e2-standard-4': 0.14754408, 'n2-standard-2': 0.106916, 'n2-standard-4': 0.213832 },
        pdBalancedGbMonth: 0.11,
      },
      'southamerica-east1': {
        machineHour: { 'e2-medium': 0.0531852, 'e2-standard-2': 0.1063704, 'e2-standard-4': 0.2127408, 'n2-standard-2': 0.15416, 'n2-standard-4': 0.30832 },
        pdBalancedGbMonth: 0.15,
      },
      'europe-west1': {
        machineHour: { 'e2-medium': 0.03685773, 'e2-standard-2': 0.07371546, 'e2-standard-4': 0.14743092, 'n2-standard-2': 0.106834, 'n2-standard-4': 0.213668 },
        pdBalancedGbMonth: 0.1,
      },
      'europe-west2': {
        machineHour: { 'e2-medium': 0.04316778, 'e2-standard-2': 0.08633556, 'e2-standard-4': 0.17267112, 'n2-standard-2': 0.125124, 'n2-standard-4': 0.250248 },
        pdBalancedGbMonth: 0.12,
      },
      'europe-west3': {
        machineHour: { 'e2-medium': 0.04316778, 'e2-standard-2': 0.08633556, 'e2-standard-4': 0.17267112, 'n2-standard-2': 0.125124, 'n2-standard-4': 0.250248 },
        pdBalancedGbMonth: 0.12,
      },
      'europe-west4': {
        machineHour: { 'e2-medium': 0.03688602, 'e2-standard-2': 0.07377204, 'e2-standard-4': 0.14754408, 'n2-standard-2': 0.106916, 'n2-standard-4': 0.213832 },
        pdBalancedGbMonth: 0.11,
      },
      'europe-west6': {
        machineHour: { 'e2-medium': 0.04389133, 'e2-standard-2': 0.08778266, 'e2-standard-4': 0.17556532, 'n2-standard-2': 0.127226, 'n2-standard-4': 0.254452 },
        pdBalancedGbMonth: 0.13,
      },
      'europe-west8': {
        machineHour: { 'e2-medium': 0.038866, 'e2-standard-2': 0.077732, 'e2-standard-4': 0.155464, 'n2-standard-2': 0.11265688, 'n2-standard-4': 0.22531376 },
        pdBalancedGbMonth: 0.116,
      },
      'europe-west9': {
        machineHour: { 'e2-medium': 0.038866, 'e2-standard-2': 0.077732, 'e2-standard-4': 0.155464, 'n2-standard-2': 0.11265688, 'n2-standard-4': 0.22531376 },
        pdBalancedGbMonth: 0.116,
      },
      'europe-west10': {
        machineHour: { 'e2-medium': 0.04316911, 'e2-standard-2': 0.08633822, 'e2-standard-4': 0.17267644, 'n2-standard-2': 0.12512788, 'n2-standard-4': 0.25025576 },
        pdBalancedGbMonth: 0.154,
      },
      'europe-west12': {
        machineHour: { 'e2-medium': 0.043222366, 'e2-standard-2': 0.086444732, 'e2-standard-4': 0.172889464, 'n2-standard-2': 0.12528222, 'n2-standard-4': 0.25056444 },
        pdBalancedGbMonth: 0.12,
      },
      'europe-north1': {
        machineHour: { 'e2-medium': 0.03688878, 'e2-standard-2': 0.07377756, 'e2-standard-4': 0.14755512, 'n2-standard-2': 0.106924, 'n2-standard-4': 0.213848 },
        pdBalancedGbMonth: 0.11,
      },
      'europe-central2': {
        machineHour: { 'e2-medium': 0.04054188, 'e2-standard-2': 0.08108376, 'e2-standard-4': 0.16216752, 'n2-standard-2': 0.117516, 'n2-standard-4': 0.235032 },
        pdBalancedGbMonth: 0.13,
      },
      'europe-southwest1': {
        machineHour: { 'e2-medium': 0.039538, 'e2-standard-2': 0.079076, 'e2-standard-4': 0.158152, 'n2-standard-2': 0.11459924, 'n2-standard-4': 0.22919848 },
        pdBalancedGbMonth: 0.12,
      },
      'asia-east1': {
        machineHour: { 'e2-medium': 0.03879594, 'e2-standard-2': 0.07759188, 'e2-standard-4': 0.15518376, 'n2-standard-2': 0.112452, 'n2-standard-4': 0.224904 },
        pdBalancedGbMonth: 0.1,
      },
      'asia-east2': {
        machineHour: { 'e2-medium': 0.04688067, 'e2-standard-2': 0.09376134, 'e2-standard-4': 0.18752268, 'n2-standard-2': 0.135886, 'n2-standard-4': 0.271772 },
        pdBalancedGbMonth: 0.11,
      },
      'asia-northeast1': {
        machineHour: { 'e2-medium': 0.04298286, 'e2-standard-2': 0.08596572, 'e2-standard-4': 0.17193144, 'n2-standard-2': 0.124588, 'n2-standard-4': 0.249176 },
        pdBalancedGbMonth: 0.13,
      },
      'asia-northeast2': {
        machineHour: { 'e2-medium': 0.04298286, 'e2-standard-2': 0.08596572, 'e2-standard-4': 0.17193144, 'n2-standard-2': 0.124718, 'n2-standard-4': 0.249436 },
        pdBalancedGbMonth: 0.13,
      },
      'asia-northeast3': {
        machineHour: { 'e2-medium': 0.04298286, 'e2-standard-2': 0.08596572, 'e2-standard-4': 0.17193144, 'n2-standard-2': 0.124718, 'n2-standard-4': 0.249436 },
        pdBalancedGbMonth: 0.13,
      },
      'asia-south1': {
        machineHour: { 'e2-medium': 0.04024218, 'e2-standard-2': 0.08048436, 'e2-standard-4': 0.16096872, 'n2-standard-2': 0.116644, 'n2-standard-4': 0.233288 },
        pdBalancedGbMonth: 0.12,
      },
      'asia-south2': {
        machineHour: { 'e2-medium': 0.04024218, 'e2-standard-2': 0.08048436, 'e2-standard-4': 0.16096872, 'n2-standard-2': 0.116644, 'n2-standard-4': 0.233288 },
        pdBalancedGbMonth: 0.12,
      },
      'asia-southeast1': {
        machineHour: { 'e2-medium': 0.04133307, 'e2-standard-2': 0.08266614, 'e2-standard-4': 0.16533228, 'n2-standard-2': 0.119806, 'n2-standard-4': 0.239612 },
        pdBalancedGbMonth: 0.11,
      },
      'asia-southeast2': {
        machineHour: { 'e2-medium': 0.045053043, 'e2-standard-2': 0.090106086, 'e2-standard-4': 0.180212172, 'n2-standard-2': 0.13058854, 'n2-standard-4': 0.26117708 },
        pdBalancedGbMonth: 0.13,
      },
      'australia-southeast1': {
        machineHour: { 'e2-medium': 0.047541, 'e2-standard-2': 0.095082, 'e2-standard-4': 0.190164, 'n2-standard-2': 0.1378, 'n2-standard-4': 0.2756 },
        pdBalancedGbMonth: 0.135,
      },
      'australia-southeast2': {
        machineHour: { 'e2-medium': 0.040408, 'e2-standard-2': 0.080816, 'e2-standard-4': 0.161632, 'n2-standard-2': 0.117128, 'n2-standard-4': 0.234256 },
        pdBalancedGbMonth: 0.135,
      },
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
