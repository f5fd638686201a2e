/**
 * Quotas: what the selected environments take of each cloud quota, counted from the synthesized
 * stacks (Terraform resources of the cluster stacks, and one load balancer per exposure of the
 * `-lb` stacks), and each cloud's documented default limit with its source. `preflight` compares
 * the needs with the account's quotas (with credentials) and with the defaults (without);
 * `synth` notes the defaults a config obviously exceeds.
 */
import { LabConfig } from '../../config/schema';
import { ExplainModel } from '../anatomy/model';
import { SynthDir } from '../files/synth-dir';
import { block, isRecord, literalNumber, literalString, resourcesOf, SynthStack, TfResource } from '../../kit/terraform/terraform-json';

/** One exposure's load balancer, by the `lb_kind` its facts name. */
export interface QuotaExposure {
  readonly env: string;
  readonly cloud: 'aws' | 'gcp';
  readonly mode: string;
  /** `alb`, `nlb`, `clb`, `gclb-application`, `gcp-passthrough-nlb`, ...; null when unknown. */
  readonly lb_kind: string | null;
}

/** The exposures of an explanation, with the load-balancer kind `explain` derives from the resources (preflight). */
export function exposuresOfModel(model: ExplainModel): QuotaExposure[] {
  return model.environments.flatMap((e) => e.clouds.flatMap((c) => c.exposures.map((x) => ({ env: e.env, cloud: c.cloud, mode: x.mode, lb_kind: x.lb_kind }))));
}

/**
 * The exposures the `-lb` stacks export (`exposure_<mode>` outputs, with the facts' `lb_kind`):
 * what `synth` has at hand without explaining every stack (a test holds the two sources together).
 */
export function exposuresOfOutputs(synth: SynthDir): QuotaExposure[] {
  return synth.clouds.flatMap((c) => {
    const outputs = c.lb?.json.output;
    if (!isRecord(outputs)) return [];
    return Object.entries(outputs).flatMap(([name, output]) => {
      const value = isRecord(output) ? output.value : undefined;
      if (!name.startsWith('exposure_') || !isRecord(value)) return [];
      return [{ env: c.env, cloud: c.cloud, mode: String(value.mode ?? name.slice('exposure_'.length)), lb_kind: typeof value.lb_kind === 'string' ? value.lb_kind : null }];
    });
  });
}

/** Load balancers the controllers will make. */
export interface LoadBalancerCount {
  /** `lb_kind` -> how many (all environments). */
  readonly byKind: Readonly<Record<string, number>>;
  /** Exposures whose load-balancer kind is unknown (counted nowhere; said as a warning). */
  readonly unknown: readonly string[];
}

/** Counts the load balancers of one cloud's exposures. */
export function countLoadBalancers(exposures: readonly QuotaExposure[], cloud: 'aws' | 'gcp'): LoadBalancerCount {
  const byKind: Record<string, number> = {};
  const unknown: string[] = [];
  for (const exposure of exposures.filter((x) => x.cloud === cloud)) {
    if (exposure.lb_kind === null) unknown.push(`${exposure.env} ${cloud} ${exposure.mode}`);
    else byKind[exposure.lb_kind] = (byKind[exposure.lb_kind] ?? 0) + 1;
  }
  return { byKind, unknown };
}

/** What the selected AWS environments take in the region. */
export interface AwsQuotaNeeds {
  readonly vpcs: number;
  readonly internetGateways: number;
  /** The most NAT gateways in any one AZ. */
  readonly natGatewaysPerAz: number;
  readonly elasticIps: number;
  readonly eksClusters: number;
  readonly albs: number;
  readonly nlbs: number;
  /** Classic load balancers (a Service without the controller's annotations). */
  readonly clbs: number;
  readonly notes: readonly string[];
}

/** The AWS needs of the cluster stacks in `synth` and the load balancers of `exposures`. */
export function awsQuotaNeeds(synth: SynthDir, exposures: readonly QuotaExposure[]): AwsQuotaNeeds {
  const clusters = synth.clouds.filter((c) => c.cloud === 'aws' && c.cluster).map((c) => c.cluster!);
  const count = (type: string) => clusters.reduce((n, s) => n + resourcesOf(s, type).length, 0);
  // Each NAT gateway sits in one AZ; with one per AZ an environment puts one in each.
  const natPerAz = clusters.reduce((n, s) => n + (resourcesOf(s, 'aws_nat_gateway').length > 0 ? 1 : 0), 0);
  const lbs = countLoadBalancers(exposures, 'aws');
  return {
    vpcs: count('aws_vpc'),
    internetGateways: count('aws_internet_gateway'),
    natGatewaysPerAz: natPerAz,
    elasticIps: count('aws_eip'),
    eksClusters: count('aws_eks_cluster'),
    albs: lbs.byKind.alb ?? 0,
    nlbs: lbs.byKind.nlb ?? 0,
    clbs: lbs.byKind.clb ?? 0,
    notes: lbs.unknown.map((e) => `${e}: load-balancer kind unknown, not counted`),
  };
}

/** vCPUs of a Compute Engine machine type, or undefined when the name does not say. */
export function machineTypeVcpus(machineType: string): number | undefined {
  if (/^e2-(micro|small|medium)$/.test(machineType)) return 2;
  const custom = /-custom-(\d+)-\d+/.exec(machineType);
  if (custom) return Number(custom[1]);
  const standard = /^[a-z0-9]+-(standard|highmem|highcpu|highgpu|megamem|ultramem)-(\d+)/.exec(machineType);
  return standard ? Number(standard[2]) : undefined;
}

/** One Compute Engine quota metric the selected GCP environments take. */
export interface GcpQuotaNeed {
  /** The `quotas[].metric` of `regions.get` (scope `region`) or `projects.get` (scope `project`). */
  readonly metric: string;
  readonly scope: 'region' | 'project';
  readonly need: number;
  /** What was counted, in words (said in the finding). */
  readonly counted: string;
}

/** What the selected GCP environments take (Compute Engine quota metrics). */
export interface GcpQuotaNeeds {
  /** Every metric counted, in a fixed order; a need of 0 is not checked. */
  readonly quotas: readonly GcpQuotaNeed[];
  readonly notes: readonly string[];
}

/**
 * GKE's node defaults where the synthesized node config leaves them out (the
 * google provider's `node_config` docs, 6.x): the default node pool of a
 * cluster is one such node per zone.
 */
export const GKE_NODE_DEFAULTS = { machineType: 'e2-medium', diskSizeGb: 100, diskType: 'pd-balanced' } as const;

/** Persistent disk types that count against SSD_TOTAL_GB (balanced and SSD persistent disks); pd-standard counts against DISKS_TOTAL_GB. */
const SSD_DISK_TYPES = new Set(['pd-balanced', 'pd-ssd']);

interface NodeGroup {
  readonly nodes: number;
  readonly machineType: string;
  readonly diskGb: number;
  readonly diskType: string;
}

/**
 * The node VMs a GKE cluster stack makes: each node pool (`node_count` per
 * zone of `node_locations`), and the cluster's default pool
 * (`initial_node_count` per zone), which exists from the cluster's creation
 * until `remove_default_node_pool` deletes it: other environments' node pools
 * may be running by then, so it is counted too.
 */
function gkeNodeGroups(stack: SynthStack): NodeGroup[] {
  const group = (r: TfResource, perZone: number | undefined): NodeGroup => {
    const zones = Array.isArray(r.config.node_locations) ? r.config.node_locations.length : 1;
    const config = block(r.config.node_config);
    return {
      nodes: (perZone ?? 0) * zones,
      machineType: literalString(stack, config?.machine_type) ?? GKE_NODE_DEFAULTS.machineType,
      diskGb: literalNumber(stack, config?.disk_size_gb) ?? GKE_NODE_DEFAULTS.diskSizeGb,
      diskType: literalString(stack, config?.disk_type) ?? GKE_NODE_DEFAULTS.diskType,
    };
  };
  return [
    ...resourcesOf(stack, 'google_container_node_pool').map((r) => group(r, literalNumber(stack, r.config.node_count) ?? literalNumber(stack, r.config.initial_node_count))),
    ...resourcesOf(stack, 'google_container_cluster').map((r) => group(r, literalNumber(stack, r.config.initial_node_count) ?? 1)),
  ];
}

/**
 * What the selected GCP environments take, each load balancer counted
 * against the metric it really uses (Cloud Load Balancing "Quotas and
 * limits"):
 * - a GKE Ingress is a classic Application Load Balancer: `FORWARDING_RULES`
 *   and `GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES` (its backend service, and
 *   one per cluster for GKE Ingress's default backend);
 * - the Gateway (`gke-l7-global-external-managed`, mode `gateway`) is a global
 *   external Application Load Balancer: `GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES`
 *   and `GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES` (its HTTPRoute's backend, and
 *   the controller's default 404 backend, `gw-serve404`, seen in a Gateway's
 *   `networking.gke.io/backend-services` annotation);
 * - a passthrough NLB Service is regional: `EXTERNAL_NETWORK_LB_FORWARDING_RULES`
 *   and `REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES` in the region, and an
 *   ephemeral external address (`IN_USE_ADDRESSES`);
 * and the nodes: `CPUS`, `CPUS_ALL_REGIONS`, `SSD_TOTAL_GB` (or
 * `DISKS_TOTAL_GB` for pd-standard), one VPC network each (`NETWORKS`), and
 * Cloud NAT's address. The nodes are private: they take no external address.
 */
export function gcpQuotaNeeds(synth: SynthDir, exposures: readonly QuotaExposure[]): GcpQuotaNeeds {
  const stacks = synth.clouds.filter((c) => c.cloud === 'gcp' && c.cluster).map((c) => c.cluster!);
  const notes: string[] = [];
  const groups = stacks.flatMap(gkeNodeGroups);
  const nodes = groups.reduce((n, g) => n + g.nodes, 0);
  let cpus = 0;
  for (const g of groups) {
    const vcpus = machineTypeVcpus(g.machineType);
    if (vcpus === undefined) notes.push(`machine type ${g.machineType}: vCPUs unknown, its ${g.nodes} nodes not counted in CPUS`);
    else cpus += g.nodes * vcpus;
  }
  const disk = (ssd: boolean) => groups.filter((g) => SSD_DISK_TYPES.has(g.diskType) === ssd).reduce((n, g) => n + g.nodes * g.diskGb, 0);
  const count = (type: string) => stacks.reduce((n, s) => n + resourcesOf(s, type).length, 0);

  let ingresses = 0;
  let gateways = 0;
  let passthrough = 0;
  const clustersWithIngress = new Set<string>();
  for (const exposure of exposures.filter((x) => x.cloud === 'gcp')) {
    if (exposure.lb_kind === 'gclb-application' && exposure.mode === 'gateway') gateways += 1;
    else if (exposure.lb_kind === 'gclb-application') {
      ingresses += 1;
      clustersWithIngress.add(exposure.env);
    } else if (exposure.lb_kind === 'gcp-passthrough-nlb') passthrough += 1;
    else notes.push(`${exposure.env} gcp ${exposure.mode}: load-balancer kind ${exposure.lb_kind ?? 'unknown'}, not counted`);
  }
  const nats = count('google_compute_router_nat');
  const need = (metric: string, scope: GcpQuotaNeed['scope'], n: number, counted: string): GcpQuotaNeed => ({ metric, scope, need: n, counted });
  const vms = `${nodes} node VMs, the default pools' included`;
  return {
    quotas: [
      need('CPUS', 'region', cpus, vms),
      need('CPUS_ALL_REGIONS', 'project', cpus, vms),
      need('SSD_TOTAL_GB', 'region', disk(true), `boot disks of ${vms}`),
      need('DISKS_TOTAL_GB', 'region', disk(false), `pd-standard boot disks of ${vms}`),
      need('NETWORKS', 'project', count('google_compute_network'), 'one VPC network per environment'),
      need('IN_USE_ADDRESSES', 'region', nats + passthrough, `${nats} Cloud NAT, ${passthrough} passthrough NLB; the nodes are private`),
      need('FORWARDING_RULES', 'project', ingresses, `${ingresses} GKE Ingress (classic Application Load Balancer)`),
      need('GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES', 'project', ingresses + clustersWithIngress.size, `${ingresses} GKE Ingress, ${clustersWithIngress.size} Ingress default backend`),
      need('GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES', 'project', gateways, `${gateways} Gateway`),
      need('GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', 'project', 2 * gateways, `${gateways} Gateway: its route's backend and the default 404 backend`),
      need('EXTERNAL_NETWORK_LB_FORWARDING_RULES', 'region', passthrough, `${passthrough} passthrough NLB`),
      need('REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES', 'region', passthrough, `${passthrough} passthrough NLB`),
    ],
    notes,
  };
}

/** A quota the lab uses, with the cloud's documented default for a new account or project. */
export interface DefaultQuota {
  readonly cloud: 'aws' | 'gcp';
  /** The field of {@link AwsQuotaNeeds} it limits, or the metric of a {@link GcpQuotaNeed}. */
  readonly need: string;
  /** The quota's name as the cloud's console shows it. */
  readonly name: string;
  /** Its scope, for messages: `in us-east-1`, `in project my-lab`. */
  readonly scope: 'region' | 'project';
  readonly defaultLimit: number;
  /** Where the default is documented. */
  readonly source: string;
  /** Service Quotas codes (AWS), to read the account's own value and to ask for more. */
  readonly serviceCode?: string;
  readonly quotaCode?: string;
  /** What else counts against it, said with the default. */
  readonly also?: string;
}

const AWS_VPC_QUOTAS = 'Amazon VPC User Guide, "Amazon VPC quotas" (docs.aws.amazon.com/vpc/latest/userguide/amazon-vpc-limits.html)';

/**
 * AWS's documented defaults, each adjustable in Service Quotas: the pages named in each `source`
 * (the Amazon VPC, Amazon EKS and Elastic Load Balancing quota pages on docs.aws.amazon.com, cited
 * 2026-11). The quota codes are those Service Quotas uses (`aws service-quotas list-service-quotas
 * --service-code vpc`, likewise ec2, eks, elasticloadbalancing, lists an account's). The codes of
 * NAT gateways per AZ (L-FE5A380F) and EKS clusters (L-1194D53C) are taken from public code that
 * asks Service Quotas for them (cortexlabs/cortex, pkg/types/clusterconfig/network_validations.go;
 * Terraform configurations of `aws_servicequotas_template`), not from AWS's docs, which do not list
 * them: preflight falls back to the default if a code does not answer.
 */
export const AWS_DEFAULT_QUOTAS: readonly (DefaultQuota & { readonly need: keyof Omit<AwsQuotaNeeds, 'notes' | 'clbs'>; readonly serviceCode: string; readonly quotaCode: string })[] = [
  { cloud: 'aws', need: 'vpcs', name: 'VPCs per Region', scope: 'region', defaultLimit: 5, source: AWS_VPC_QUOTAS, serviceCode: 'vpc', quotaCode: 'L-F678F1CE' },
  {
    cloud: 'aws',
    need: 'internetGateways',
    name: 'Internet gateways per Region',
    scope: 'region',
    defaultLimit: 5,
    source: AWS_VPC_QUOTAS,
    serviceCode: 'vpc',
    quotaCode: 'L-A4707A72',
  },
  {
    cloud: 'aws',
    need: 'natGatewaysPerAz',
    name: 'NAT gateways per Availability Zone',
    scope: 'region',
    defaultLimit: 5,
    source: AWS_VPC_QUOTAS,
    serviceCode: 'vpc',
    quotaCode: 'L-FE5A380F',
  },
  { cloud: 'aws', need: 'elasticIps', name: 'EC2-VPC Elastic IPs', scope: 'region', defaultLimit: 5, source: AWS_VPC_QUOTAS, serviceCode: 'ec2', quotaCode: 'L-0263D0A3' },
  {
    cloud: 'aws',
    need: 'eksClusters',
    name: 'EKS clusters',
    scope: 'region',
    defaultLimit: 100,
    source: 'Amazon EKS User Guide, "View and manage Amazon EKS and Fargate service quotas" (docs.aws.amazon.com/eks/latest/userguide/service-quotas.html)',
    serviceCode: 'eks',
    quotaCode: 'L-1194D53C',
  },
  {
    cloud: 'aws',
    need: 'albs',
    name: 'Application Load Balancers per Region',
    scope: 'region',
    defaultLimit: 50,
    source: 'Elastic Load Balancing, "Quotas for your Application Load Balancers" (docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-limits.html)',
    serviceCode: 'elasticloadbalancing',
    quotaCode: 'L-53DA6B97',
  },
  {
    cloud: 'aws',
    need: 'nlbs',
    name: 'Network Load Balancers per Region',
    scope: 'region',
    defaultLimit: 50,
    source: 'Elastic Load Balancing, "Quotas for your Network Load Balancers" (docs.aws.amazon.com/elasticloadbalancing/latest/network/load-balancer-limits.html)',
    serviceCode: 'elasticloadbalancing',
    quotaCode: 'L-69A177A2',
  },
];

/**
 * Google Cloud's defaults. Google's quota pages list the quotas without numbers and send you to
 * the console's Quotas page for a project's own (VPC "Quotas and limits",
 * https://cloud.google.com/vpc/docs/quota: "Networks ... This includes the default network";
 * cited 2026-11). The one stated default the lab meets is the networks per project: "you can have
 * up to five networks per project by default", from the description of the Network resource in
 * the Compute Engine API reference (https://cloud.google.com/compute/docs/reference/rest/v1/networks).
 * Other GCP quotas are only checked with credentials.
 */
export const GCP_DEFAULT_QUOTAS: readonly DefaultQuota[] = [
  {
    cloud: 'gcp',
    need: 'NETWORKS',
    name: 'VPC networks (NETWORKS)',
    scope: 'project',
    defaultLimit: 5,
    source: 'Compute Engine API reference, Network resource: "up to five networks per project by default" (cloud.google.com/compute/docs/reference/rest/v1/networks)',
    also: 'the project\'s "default" network counts too',
  },
];

/** A need above a cloud's default limit. */
export interface OverDefault {
  readonly quota: DefaultQuota;
  readonly need: number;
}

/** Every need above its cloud's documented default, AWS first, in table order. */
export function overDefaultLimits(aws: AwsQuotaNeeds | undefined, gcp: GcpQuotaNeeds | undefined): OverDefault[] {
  return [
    ...(aws ? AWS_DEFAULT_QUOTAS.map((quota) => ({ quota, need: aws[quota.need] })) : []),
    ...(gcp ? GCP_DEFAULT_QUOTAS.map((quota) => ({ quota, need: gcp.quotas.find((q) => q.metric === quota.need)?.need ?? 0 })) : []),
  ].filter((o) => o.need > o.quota.defaultLimit);
}

/** `where` is the region (AWS) or project (GCP) the lab deploys to. */
export function formatOverDefault(over: OverDefault, where: string, environments: number): string {
  const { quota, need } = over;
  const cloud = quota.cloud === 'aws' ? "AWS's" : "Google Cloud's";
  const codes = quota.quotaCode ? `; Service Quotas ${quota.serviceCode} ${quota.quotaCode}` : '';
  return (
    `${quota.name}: ${environments} environment${environments === 1 ? '' : 's'} need ${need} in ${quota.scope === 'region' ? where : `project ${where}`}, ` +
    `over ${cloud} default limit of ${quota.defaultLimit}${quota.also ? ` (${quota.also})` : ''}: a default limit, not your account's${codes}`
  );
}

/**
 * The notes `synth` prints: each documented default the synthesized stacks exceed. Counted from
 * the stacks alone, so no credentials and no explain run.
 */
export function defaultLimitNotes(synth: SynthDir, config: LabConfig): string[] {
  const exposures = exposuresOfOutputs(synth);
  const environments = new Set(synth.clouds.map((c) => c.env)).size;
  const over = overDefaultLimits(awsQuotaNeeds(synth, exposures), gcpQuotaNeeds(synth, exposures));
  return over.map((o) => `${formatOverDefault(o, o.quota.cloud === 'aws' ? config.aws.region : config.gcp.project, environments)} (npx hoplab preflight checks your own)`);
}
