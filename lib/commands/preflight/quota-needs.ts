/**
 * What the selected environments take of each quota, counted from the
 * synthesized stacks: Terraform resources of the cluster stacks, and one load
 * balancer per exposure of the `-lb` stacks as `explain` derives it (so a new
 * exposure mode counts as soon as explain knows its load-balancer kind).
 */
import { ExplainModel } from '../../plumbing/plan/model';
import { SynthDir } from '../../plumbing/terraform/synth-dir';
import { block, literalNumber, literalString, resourcesOf, SynthStack, TfResource } from '../../plumbing/terraform/terraform-json';

/** Load balancers the controllers will make, by the `lb_kind` explain derives. */
export interface LoadBalancerCount {
  /** `lb_kind` -> how many (all environments). */
  readonly byKind: Readonly<Record<string, number>>;
  /** Exposures whose load-balancer kind explain could not derive (counted nowhere; said as a warning). */
  readonly unknown: readonly string[];
}

/** Counts the load balancers of every exposure in the explained `-lb` stacks, per cloud. */
export function countLoadBalancers(model: ExplainModel, cloud: 'aws' | 'gcp'): LoadBalancerCount {
  const byKind: Record<string, number> = {};
  const unknown: string[] = [];
  for (const env of model.environments) {
    for (const c of env.clouds.filter((x) => x.cloud === cloud)) {
      for (const exposure of c.exposures) {
        if (exposure.lb_kind === null) unknown.push(`${env.env} ${cloud} ${exposure.mode}`);
        else byKind[exposure.lb_kind] = (byKind[exposure.lb_kind] ?? 0) + 1;
      }
    }
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

export function awsQuotaNeeds(synth: SynthDir, model: ExplainModel): AwsQuotaNeeds {
  const clusters = synth.clouds.filter((c) => c.cloud === 'aws' && c.cluster).map((c) => c.cluster!);
  const count = (type: string) => clusters.reduce((n, s) => n + resourcesOf(s, type).length, 0);
  // Each NAT gateway sits in one AZ; with one per AZ an environment puts one in each.
  const natPerAz = clusters.reduce((n, s) => n + (resourcesOf(s, 'aws_nat_gateway').length > 0 ? 1 : 0), 0);
  const lbs = countLoadBalancers(model, 'aws');
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
 * - the Gateway (`gke-l7-global-external-managed`) is a global external
 *   Application Load Balancer: `GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES` and
 *   `GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES` (its HTTPRoute's backend, and
 *   the controller's default 404 backend, `gw-serve404`, seen in a Gateway's
 *   `networking.gke.io/backend-services` annotation);
 * - a passthrough NLB Service is regional: `EXTERNAL_NETWORK_LB_FORWARDING_RULES`
 *   and `REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES` in the region, and an
 *   ephemeral external address (`IN_USE_ADDRESSES`);
 * and the nodes: `CPUS`, `CPUS_ALL_REGIONS`, `SSD_TOTAL_GB` (or
 * `DISKS_TOTAL_GB` for pd-standard), one VPC network each (`NETWORKS`), and
 * Cloud NAT's address. The nodes are private: they take no external address.
 */
export function gcpQuotaNeeds(synth: SynthDir, model: ExplainModel): GcpQuotaNeeds {
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
  for (const env of model.environments) {
    for (const cloud of env.clouds.filter((c) => c.cloud === 'gcp')) {
      for (const exposure of cloud.exposures) {
        if (exposure.lb_kind === 'gclb-application' && exposure.api === 'Gateway API') gateways += 1;
        else if (exposure.lb_kind === 'gclb-application') {
          ingresses += 1;
          clustersWithIngress.add(env.env);
        } else if (exposure.lb_kind === 'gcp-passthrough-nlb') passthrough += 1;
        else notes.push(`${env.env} gcp ${exposure.mode}: load-balancer kind ${exposure.lb_kind ?? 'unknown'}, not counted`);
      }
    }
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
