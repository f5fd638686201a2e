/**
 * What the selected environments take of each quota, counted from the
 * synthesized stacks: Terraform resources of the cluster stacks, and one load
 * balancer per exposure of the `-lb` stacks as `explain` derives it (so a new
 * exposure mode counts as soon as explain knows its load-balancer kind).
 */
import { LabConfig } from '../../config/schema';
import { ExplainModel } from '../../plumbing/plan/model';
import { SynthDir } from '../../plumbing/terraform/synth-dir';
import { resourcesOf } from '../../plumbing/terraform/terraform-json';

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

/** What the selected GCP environments take (Compute Engine quota metrics). */
export interface GcpQuotaNeeds {
  /** Regional CPUS (undefined: the machine type's vCPUs are unknown). */
  readonly cpus: number | undefined;
  /** Regional IN_USE_ADDRESSES: Cloud NAT's auto-allocated address and each passthrough NLB's. */
  readonly regionalInUseAddresses: number;
  /** BACKEND_SERVICES: one per L7 exposure plus GKE Ingress's default backend per cluster, one per passthrough NLB (backend-service based). */
  readonly backendServices: number;
  /** FORWARDING_RULES: one per load balancer. */
  readonly forwardingRules: number;
  readonly notes: readonly string[];
}

export function gcpQuotaNeeds(synth: SynthDir, model: ExplainModel, config: LabConfig): GcpQuotaNeeds {
  const envs = synth.clouds.filter((c) => c.cloud === 'gcp' && c.cluster);
  const vcpus = machineTypeVcpus(config.gcp.machineType);
  const nodes = envs.length * config.gcp.nodeCount * config.gcp.zones.length;
  const lbs = countLoadBalancers(model, 'gcp');
  let l7 = 0;
  let l4 = 0;
  for (const [kind, n] of Object.entries(lbs.byKind)) {
    if (kind.startsWith('gclb')) l7 += n;
    else l4 += n;
  }
  // GKE Ingress adds one backend service for the cluster's default backend.
  const clustersWithIngress = model.environments.filter((e) => e.clouds.some((c) => c.cloud === 'gcp' && c.exposures.some((x) => x.lb_kind?.startsWith('gclb')))).length;
  const nats = envs.reduce((n, c) => n + resourcesOf(c.cluster!, 'google_compute_router_nat').length, 0);
  return {
    cpus: vcpus === undefined ? undefined : nodes * vcpus,
    regionalInUseAddresses: nats + l4,
    backendServices: l7 + clustersWithIngress + l4,
    forwardingRules: l7 + l4,
    notes: [...(vcpus === undefined ? [`machine type ${config.gcp.machineType}: vCPUs unknown, CPUS not counted`] : []), ...lbs.unknown.map((e) => `${e}: load-balancer kind unknown, not counted`)],
  };
}
