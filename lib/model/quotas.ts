/**
 * Every cloud quota an environment takes that adds up across the environments of
 * one account, region or project: the one table `synth`'s notes, preflight and
 * placement read. Per quota: its Service Quotas code (AWS) or Compute Engine
 * metric (GCP), its scope, its documented default with source and date where one
 * is published, what a fresh account or project already holds of it, and whether
 * its value varies by account (then it never sizes a slot and is never reported
 * as over a default: it is listed as a need, and checked with credentials).
 *
 * What one environment needs of each is counted from the synthesized stacks
 * (lib/lab/estimate/quotas.ts), not from the config.
 *
 * Not here: limits of one environment's own resources that do not grow with the
 * attendees (subnets per VPC, rules per security group, node groups per
 * cluster), and account-wide IAM quotas (roles, policies, OIDC providers:
 * "IAM and AWS STS quotas", IAM User Guide), which the lab's few roles per
 * environment do not approach at the 100 attendees a config may list.
 */
import { Cloud } from './contract';

/** Where a quota's limit applies: per region, per zone (each zone of a region on its own), or per project (GCP, all regions of it). */
export type QuotaScope = 'region' | 'zone' | 'project';

/** One quota of the table. */
export interface QuotaSpec {
  readonly cloud: Cloud;
  /** The key its need is counted under: the field name on AWS (`vpcs`), the metric on GCP (`NETWORKS`). */
  readonly id: string;
  /** The quota's name as the cloud's console shows it. */
  readonly name: string;
  /** A short label for narrow tables: `VPCs`, `EIPs`, `NETWORKS`. */
  readonly short: string;
  readonly scope: QuotaScope;
  /** Service Quotas service and quota codes (AWS), to read the account's own value and to ask for more. */
  readonly serviceCode?: string;
  readonly quotaCode?: string;
  /** The Compute Engine quota metric (GCP), as `regions.get` / `projects.get` list it. */
  readonly metric?: string;
  /**
   * The quota's ID in the Cloud Quotas API (GCP: `CPUS-per-project-region`), which a request for more is
   * keyed by, with its `region` dimension for a regional quota; undefined where no public source names it
   * (then found by {@link quotaMetric}, or the request is made in the console). See {@link CLOUD_QUOTA_ID_SOURCES}.
   */
  readonly cloudQuotaId?: string;
  /**
   * The quota's metric as Cloud Quotas names it (`QuotaInfo.metric`: `compute.googleapis.com/network_endpoint_groups`),
   * where no public source names its ID: `preflight --request-quotas` lists the project's quotas
   * (`quotaInfos.list`) and files under the one quota of this metric with the quota's dimensions. Compared
   * ignoring case (Google's pages write some with `LB`).
   */
  readonly quotaMetric?: string;
  /** The documented default for a new account or project; undefined where none is published. */
  readonly defaultLimit?: number;
  /** Where the default is documented and when it was read, or that none is published. */
  readonly source: string;
  /** What a fresh account (per region) or project already holds of it. */
  readonly fresh: number;
  /** That holding in words, said with the default. */
  readonly freshWhat?: string;
  /** Its value differs from account to account (EC2 vCPUs): never sizes a slot, never reported over a default. */
  readonly variesByAccount: boolean;
}

const READ = 'read 2026-12-02';
const VPC_QUOTAS = `Amazon VPC User Guide, "Amazon VPC quotas" (docs.aws.amazon.com/vpc/latest/userguide/amazon-vpc-limits.html, ${READ})`;
const DEFAULT_VPC = 'the default VPC of every region of a fresh account';
/**
 * Where the Cloud Quotas IDs of the GCP table come from (read 2026-12-02): `CPUS-per-project-region`, the
 * example of the Cloud Quotas API reference (QuotaPreference.quotaId) and of Terraform's
 * `google_cloud_quotas_quota_preference`; the per-project IDs (`NETWORKS-per-project` and the others below)
 * from Google's own gcpdiag, which lists each Compute Engine quota ID with its metric
 * (github.com/GoogleCloudPlatform/gcpdiag, gcpdiag/lint/vpc/warn_2022_001_project_level_quota.py);
 * `IN-USE-ADDRESSES-per-project-region`, `SSD-TOTAL-GB-per-project-region` and
 * `GLOBAL-EXTERNAL-PROXY-LB-BACKEND-SERVICES-per-project` from the limit names of
 * Compute Engine's quota metrics (`serviceruntime.googleapis.com/quota/limit`, limit_name) in published
 * alert policies. `DISKS-TOTAL-GB-per-project-region` (read 2026-12-07): the limit name of Compute
 * Engine's QUOTA_EXCEEDED error for DISKS_TOTAL_GB (metric `compute.googleapis.com/disks_total_storage`,
 * dimension `region`) in terraform-provider-google's error tests
 * (github.com/hashicorp/terraform-provider-google, google/services/compute/compute_operation_test.go).
 *
 * The others have no ID a public source names, so hoplab does not guess one: their `quotaMetric` is the
 * metric Cloud Load Balancing's "Quotas and limits" names for each (`compute.googleapis.com/quota/<metric>/limit`,
 * docs.cloud.google.com/load-balancing/docs/quotas, read 2026-12-07; the zonal and regional NEGs'
 * `compute.googleapis.com/network_endpoint_groups`, limited per project and region, beside the global NEGs'
 * `global_network_endpoint_groups` that gcpdiag maps to `NETWORK-ENDPOINT-GROUPS-per-project`), and
 * `--request-quotas` reads the ID from the project's own quota list (Cloud Quotas `quotaInfos.list`, which
 * needs `cloudquotas.quotas.get`, as listing quota preferences does: its REST reference, read 2026-12-07).
 */
export const CLOUD_QUOTA_ID_SOURCES =
  'Cloud Quotas API reference; GoogleCloudPlatform/gcpdiag (gcpdiag/lint/vpc/warn_2022_001_project_level_quota.py); hashicorp/terraform-provider-google (google/services/compute/compute_operation_test.go); read 2026-12-02 and 2026-12-07';

/** A Compute Engine quota metric as Cloud Quotas names it (`QuotaInfo.metric`). */
const cloudMetric = (name: string) => `compute.googleapis.com/${name}`;

const GOOGLE_NONE = 'Google publishes no default (Compute Engine "Quotas and limits": quotas vary by project); the need is the lab\'s own count';

/** The AWS quotas, per region (NAT gateways per zone). */
export const AWS_QUOTAS = [
  {
    cloud: 'aws',
    id: 'vpcs',
    short: 'VPCs',
    name: 'VPCs per Region',
    scope: 'region',
    serviceCode: 'vpc',
    quotaCode: 'L-F678F1CE',
    defaultLimit: 5,
    source: VPC_QUOTAS,
    fresh: 1,
    freshWhat: DEFAULT_VPC,
    variesByAccount: false,
  },
  {
    cloud: 'aws',
    id: 'internetGateways',
    short: 'IGWs',
    name: 'Internet gateways per Region',
    scope: 'region',
    serviceCode: 'vpc',
    quotaCode: 'L-A4707A72',
    defaultLimit: 5,
    source: VPC_QUOTAS,
    fresh: 1,
    freshWhat: "the default VPC's internet gateway",
    variesByAccount: false,
  },
  {
    cloud: 'aws',
    id: 'natGatewaysPerAz',
    short: 'NAT/AZ',
    name: 'NAT gateways per Availability Zone',
    scope: 'zone',
    serviceCode: 'vpc',
    quotaCode: 'L-FE5A380F',
    defaultLimit: 5,
    source: VPC_QUOTAS,
    fresh: 0,
    variesByAccount: false,
  },
  {
    cloud: 'aws',
    id: 'elasticIps',
    short: 'EIPs',
    name: 'EC2-VPC Elastic IPs',
    scope: 'region',
    serviceCode: 'ec2',
    quotaCode: 'L-0263D0A3',
    defaultLimit: 5,
    source: VPC_QUOTAS,
    fresh: 0,
    variesByAccount: false,
  },
  {
    cloud: 'aws',
    id: 'eksClusters',
    short: 'EKS',
    name: 'EKS clusters',
    scope: 'region',
    serviceCode: 'eks',
    quotaCode: 'L-1194D53C',
    defaultLimit: 100,
    source: `Amazon EKS User Guide, "View and manage Amazon EKS and Fargate service quotas" (docs.aws.amazon.com/eks/latest/userguide/service-quotas.html, ${READ})`,
    fresh: 0,
    variesByAccount: false,
  },
  {
    cloud: 'aws',
    id: 'albs',
    short: 'ALBs',
    name: 'Application Load Balancers per Region',
    scope: 'region',
    serviceCode: 'elasticloadbalancing',
    quotaCode: 'L-53DA6B97',
    defaultLimit: 50,
    source: `Elastic Load Balancing, "Quotas for your Application Load Balancers" (docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-limits.html, ${READ})`,
    fresh: 0,
    variesByAccount: false,
  },
  {
    cloud: 'aws',
    id: 'nlbs',
    short: 'NLBs',
    name: 'Network Load Balancers per Region',
    scope: 'region',
    serviceCode: 'elasticloadbalancing',
    quotaCode: 'L-69A177A2',
    defaultLimit: 50,
    source: `Elastic Load Balancing, "Quotas for your Network Load Balancers" (docs.aws.amazon.com/elasticloadbalancing/latest/network/load-balancer-limits.html, ${READ})`,
    fresh: 0,
    variesByAccount: false,
  },
  {
    cloud: 'aws',
    id: 'vcpus',
    short: 'vCPUs',
    name: 'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances (vCPUs)',
    scope: 'region',
    serviceCode: 'ec2',
    quotaCode: 'L-1216C47A',
    source: `Amazon EC2 User Guide, On-Demand Instance quotas (${READ}): counted in vCPUs, with a value AWS sets per account (new accounts differ); no default is used`,
    fresh: 0,
    variesByAccount: true,
  },
] as const satisfies readonly QuotaSpec[];

/** The GCP quotas (Compute Engine metrics), per region or per project. */
export const GCP_QUOTAS = [
  gcp('CPUS', 'vCPUs (CPUS)', 'region', { variesByAccount: true, cloudQuotaId: 'CPUS-per-project-region' }),
  gcp('CPUS_ALL_REGIONS', 'vCPUs in all regions (CPUS_ALL_REGIONS)', 'project', { variesByAccount: true, cloudQuotaId: 'CPUS-ALL-REGIONS-per-project' }),
  gcp('SSD_TOTAL_GB', 'SSD persistent disk (SSD_TOTAL_GB)', 'region', { variesByAccount: true, cloudQuotaId: 'SSD-TOTAL-GB-per-project-region' }),
  gcp('DISKS_TOTAL_GB', 'Persistent disk standard (DISKS_TOTAL_GB)', 'region', { variesByAccount: true, cloudQuotaId: 'DISKS-TOTAL-GB-per-project-region' }),
  {
    cloud: 'gcp',
    id: 'NETWORKS',
    short: 'NETWORKS',
    metric: 'NETWORKS',
    cloudQuotaId: 'NETWORKS-per-project',
    name: 'VPC networks (NETWORKS)',
    scope: 'project',
    defaultLimit: 5,
    source: `Compute Engine API reference, Network resource: "you can have up to five networks per project by default" (${READ})`,
    fresh: 1,
    freshWhat: 'the "default" network of a new project',
    variesByAccount: false,
  },
  gcp('SUBNETWORKS', 'Subnetworks (SUBNETWORKS)', 'project', { cloudQuotaId: 'SUBNETWORKS-per-project', freshWhat: 'the "default" network\'s subnet in every region' }),
  gcp('ROUTERS', 'Cloud Routers (ROUTERS)', 'project', { cloudQuotaId: 'ROUTERS-per-project' }),
  gcp('FIREWALLS', 'Firewall rules (FIREWALLS)', 'project', {
    cloudQuotaId: 'FIREWALLS-per-project',
    fresh: 4,
    freshWhat: 'the "default" network\'s four rules (default-allow-icmp, -internal, -rdp, -ssh)',
  }),
  // Global, regional (the passthrough NLBs') and legacy health checks alike (Cloud Load Balancing, "Quotas and limits",
  // Health checks: "a per-project quota covering all health check types (global, regional, and legacy)";
  // docs.cloud.google.com/load-balancing/docs/quotas, read 2026-12-07): projects.get lists it, regions.get has no such metric.
  gcp('HEALTH_CHECKS', 'Health checks (HEALTH_CHECKS)', 'project', { cloudQuotaId: 'HEALTH-CHECKS-per-project' }),
  gcp('TARGET_HTTP_PROXIES', 'Target HTTP proxies (TARGET_HTTP_PROXIES)', 'project', { cloudQuotaId: 'TARGET-HTTP-PROXIES-per-project' }),
  gcp('URL_MAPS', 'URL maps (URL_MAPS)', 'project', { cloudQuotaId: 'URL-MAPS-per-project' }),
  // Zonal NEGs (GKE's) count in the region of their zone; the project-wide NETWORK_ENDPOINT_GROUPS of projects.get is
  // the global NEGs' quota (Cloud Load Balancing, "Quotas and limits", Backends: "Zonal and regional NEGs per project
  // ... per-project and per-region ... Zonal NEGs charge the region containing the NEG's zone"; "Global NEGs per
  // project ... covers global internet NEGs, Private Service Connect NEGs, and serverless NEGs";
  // docs.cloud.google.com/load-balancing/docs/quotas, read 2026-12-07).
  gcp('NETWORK_ENDPOINT_GROUPS', 'Network endpoint groups, zonal and regional (NETWORK_ENDPOINT_GROUPS)', 'region', { quotaMetric: cloudMetric('network_endpoint_groups') }),
  gcp('SECURITY_POLICIES', 'Cloud Armor security policies (SECURITY_POLICIES)', 'project', { cloudQuotaId: 'SECURITY-POLICIES-per-project' }),
  gcp('SECURITY_POLICY_RULES', 'Cloud Armor security policy rules (SECURITY_POLICY_RULES)', 'project', { cloudQuotaId: 'SECURITY-POLICY-RULES-per-project' }),
  gcp('IN_USE_ADDRESSES', 'In-use external IPv4 addresses (IN_USE_ADDRESSES)', 'region', { cloudQuotaId: 'IN-USE-ADDRESSES-per-project-region' }),
  gcp('FORWARDING_RULES', 'Forwarding rules, classic Application LB (FORWARDING_RULES)', 'project', { cloudQuotaId: 'FORWARDING-RULES-per-project' }),
  gcp('GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES', 'Backend services, classic Application LB (GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES)', 'project', {
    cloudQuotaId: 'GLOBAL-EXTERNAL-PROXY-LB-BACKEND-SERVICES-per-project',
  }),
  gcp('GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES', 'Forwarding rules, global external Application LB (GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES)', 'project', {
    cloudQuotaId: 'GLOBAL-EXTERNAL-MANAGED-FORWARDING-RULES-per-project',
  }),
  gcp('GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', 'Backend services, global external Application LB (GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES)', 'project', {
    quotaMetric: cloudMetric('global_external_managed_backend_services'),
  }),
  gcp('EXTERNAL_NETWORK_LB_FORWARDING_RULES', 'Forwarding rules, external passthrough NLB (EXTERNAL_NETWORK_LB_FORWARDING_RULES)', 'region', {
    quotaMetric: cloudMetric('external_network_lb_forwarding_rules'),
  }),
  gcp('REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES', 'Backend services, external passthrough NLB (REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES)', 'region', {
    quotaMetric: cloudMetric('regional_external_network_LB_backend_services'),
  }),
] as const satisfies readonly QuotaSpec[];

/** A GCP quota without a published default. */
function gcp<const M extends string>(
  metric: M,
  name: string,
  scope: 'region' | 'project',
  extra: { readonly fresh?: number; readonly freshWhat?: string; readonly variesByAccount?: boolean; readonly cloudQuotaId?: string; readonly quotaMetric?: string } = {},
): QuotaSpec & { readonly id: M; readonly metric: M; readonly scope: 'region' | 'project' } {
  return {
    cloud: 'gcp',
    id: metric,
    short: metric,
    metric,
    ...(extra.cloudQuotaId ? { cloudQuotaId: extra.cloudQuotaId } : {}),
    ...(extra.quotaMetric ? { quotaMetric: extra.quotaMetric } : {}),
    name,
    scope,
    source: GOOGLE_NONE,
    fresh: extra.fresh ?? 0,
    freshWhat: extra.freshWhat,
    variesByAccount: extra.variesByAccount ?? false,
  };
}

/**
 * The quota each cloud's node vCPUs count against (EC2 on-demand standard vCPUs; Compute Engine `CPUS` in the
 * region): set per account or project, so it never sizes a slot; listed as a need beside the default-limit
 * notes and in the placement table.
 */
export const VCPU_QUOTA = { aws: 'vcpus', gcp: 'CPUS' } as const satisfies Record<Cloud, string>;

/** An AWS quota's id (a field of the AWS needs). */
export type AwsQuotaId = (typeof AWS_QUOTAS)[number]['id'];
/** A GCP quota's metric. */
export type GcpQuotaMetric = (typeof GCP_QUOTAS)[number]['id'];

/** Every quota of a cloud. */
export function quotasOf(cloud: Cloud): readonly QuotaSpec[] {
  return cloud === 'aws' ? AWS_QUOTAS : GCP_QUOTAS;
}

/** Whether a quota can size a slot: it has a documented default and the same value in every new account. */
export function sizesSlots(quota: QuotaSpec): quota is QuotaSpec & { readonly defaultLimit: number } {
  return quota.defaultLimit !== undefined && !quota.variesByAccount;
}

/**
 * Whether `need` (the environments' total, with what a fresh account or project holds) is over the
 * quota's documented default. A need exactly at the limit is not over it. Quotas without a default,
 * or whose value varies by account, are never over.
 */
export function overDefault(quota: QuotaSpec, need: number): boolean {
  return sizesSlots(quota) && need + quota.fresh > quota.defaultLimit;
}

/**
 * How many environments needing `perEnvironment` each fit the documented default once a fresh
 * account or project holds its part: floor((default - fresh) / per environment). Undefined when
 * the quota does not size slots or an environment needs none of it.
 */
export function environmentsWithin(quota: QuotaSpec, perEnvironment: number): number | undefined {
  if (!sizesSlots(quota) || perEnvironment <= 0) return undefined;
  return Math.max(0, Math.floor((quota.defaultLimit - quota.fresh) / perEnvironment));
}
