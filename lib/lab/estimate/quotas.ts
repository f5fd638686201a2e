/**
 * Quotas: what the selected environments take of each quota of the table (lib/model/quotas.ts),
 * counted from the synthesized stacks (Terraform resources of the cluster stacks, one load
 * balancer per exposure of the `-lb` stacks, and what the controllers make for each, as their
 * documentation says), per slot. `preflight` compares the needs with the account's quotas (with
 * credentials) and with the defaults (without); `synth` notes each slot's needs over a default.
 */
import { ExplainModel } from '../anatomy/model';
import { SynthDir } from '../files/synth-dir';
import { block, isRecord, literalNumber, literalString, resourcesOf, SynthStack, TfResource } from '../../kit/terraform/terraform-json';
import { INSTANCE_VCPUS } from '../../model/eni-limits';
import { AWS_QUOTAS, AwsQuotaId, GCP_QUOTAS, GcpQuotaMetric, overDefault, QuotaSpec, sizesSlots, VCPU_QUOTA } from '../../model/quotas';
import { Slot, slotGroup } from '../../model/slots';

/** One exposure's load balancer, by the `lb_kind` its facts name. */
export interface QuotaExposure {
  readonly env: string;
  readonly cloud: 'aws' | 'gcp';
  readonly mode: string;
  /** `alb`, `nlb`, `clb`, `gclb-application`, `gcp-passthrough-nlb`, ...; null when unknown. */
  readonly lb_kind: string | null;
  /** `ip`, `instance`, `neg`, `instance-group`; null when unknown. */
  readonly target_type: string | null;
  readonly external_traffic_policy: 'Cluster' | 'Local' | null;
}

/** The exposures of an explanation, with the load-balancer kind `explain` derives from the resources (preflight). */
export function exposuresOfModel(model: ExplainModel): QuotaExposure[] {
  return model.environments.flatMap((e) =>
    e.clouds.flatMap((c) => c.exposures.map((x) => ({ env: e.env, cloud: c.cloud, mode: x.mode, lb_kind: x.lb_kind, target_type: x.target_type, external_traffic_policy: x.external_traffic_policy }))),
  );
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
      const text = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : null);
      const policy = text('external_traffic_policy');
      return [
        {
          env: c.env,
          cloud: c.cloud,
          mode: String(value.mode ?? name.slice('exposure_'.length)),
          lb_kind: text('lb_kind'),
          target_type: text('target_type'),
          external_traffic_policy: policy === 'Cluster' || policy === 'Local' ? policy : null,
        },
      ];
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

/** What the selected AWS environments take in the region: one field per quota of the table. */
export type AwsQuotaNeeds = { readonly [K in AwsQuotaId]: number } & {
  /** Classic load balancers (a Service without the controller's annotations): no quota of the table counts them. */
  readonly clbs: number;
  readonly notes: readonly string[];
};

/** The vCPUs of an EKS managed node group (desired size x the instance type's vCPUs), or undefined for a type the table does not know. */
function nodeGroupVcpus(stack: SynthStack, r: TfResource): { readonly type: string; readonly nodes: number; readonly vcpus: number | undefined } {
  const types = r.config.instance_types;
  const type = (Array.isArray(types) ? literalString(stack, types[0]) : undefined) ?? 't3.medium';
  const nodes = literalNumber(stack, block(r.config.scaling_config)?.desired_size) ?? 0;
  const each = INSTANCE_VCPUS[type];
  return { type, nodes, vcpus: each === undefined ? undefined : nodes * each };
}

/** The AWS needs of the cluster stacks in `synth` and the load balancers of `exposures`. */
export function awsQuotaNeeds(synth: SynthDir, exposures: readonly QuotaExposure[]): AwsQuotaNeeds {
  const clusters = synth.clouds.filter((c) => c.cloud === 'aws' && c.cluster).map((c) => c.cluster!);
  const count = (type: string) => clusters.reduce((n, s) => n + resourcesOf(s, type).length, 0);
  // Each NAT gateway sits in one AZ; with one per AZ an environment puts one in each.
  const natPerAz = clusters.reduce((n, s) => n + (resourcesOf(s, 'aws_nat_gateway').length > 0 ? 1 : 0), 0);
  const lbs = countLoadBalancers(exposures, 'aws');
  const notes = lbs.unknown.map((e) => `${e}: load-balancer kind unknown, not counted`);
  let vcpus = 0;
  for (const stack of clusters) {
    for (const group of resourcesOf(stack, 'aws_eks_node_group').map((r) => nodeGroupVcpus(stack, r))) {
      if (group.vcpus === undefined) notes.push(`${stack.name}: instance type ${group.type} has no vCPU count in lib/model/eni-limits.ts, its ${group.nodes} nodes not counted in vCPUs`);
      else vcpus += group.vcpus;
    }
  }
  return {
    vpcs: count('aws_vpc'),
    internetGateways: count('aws_internet_gateway'),
    natGatewaysPerAz: natPerAz,
    elasticIps: count('aws_eip'),
    eksClusters: count('aws_eks_cluster'),
    albs: lbs.byKind.alb ?? 0,
    nlbs: lbs.byKind.nlb ?? 0,
    vcpus,
    clbs: lbs.byKind.clb ?? 0,
    notes,
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

/** What environments take of one quota: a Compute Engine metric's ({@link GcpQuotaNeed}), or a quota of the table's in a slot ({@link QuotaNeed}). */
interface Need {
  /** What the environments take (without what a fresh account or project holds). */
  readonly need: number;
  /** What was counted, in words (said in preflight's finding; GCP only). */
  readonly counted?: string;
}

/** One Compute Engine quota metric the selected GCP environments take. */
export interface GcpQuotaNeed extends Need {
  /** The `quotas[].metric` of `regions.get` (scope `region`) or `projects.get` (scope `project`). */
  readonly metric: string;
  readonly scope: 'region' | 'project';
  /** Always said for a metric. */
  readonly counted: string;
  /** The region a region-scoped need is in, when the needs are a project's over several regions (preflight). */
  readonly region?: string;
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
 * Firewall rules GKE makes for each cluster of the lab ("Automatically created firewall rules", GKE
 * documentation, read 2026-12-02): `gke-<cluster>-<hash>-master` (private nodes: the control plane
 * to the kubelet), `-vms` (node to node) and `-all` (Pod to Pod).
 */
export const GKE_CLUSTER_FIREWALL_RULES = 3;

/**
 * What the selected GCP environments take, each load balancer counted
 * against the metrics it really uses (Cloud Load Balancing "Quotas and
 * limits"; GKE's "Automatically created firewall rules" for the rules the
 * controllers make):
 * - a GKE Ingress is a classic Application Load Balancer: `FORWARDING_RULES`,
 *   one backend service (`GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES`: the
 *   Ingress's `defaultBackend` is the app's Service, so GKE makes no default
 *   backend of its own), its health check, URL map and target HTTP proxy; with
 *   NEGs (`native`) one NEG per zone; and one `k8s-fw-l7-*` firewall rule per
 *   cluster for the load balancer's health checks;
 * - the Gateway (`gke-l7-global-external-managed`, mode `gateway`) is a global
 *   external Application Load Balancer: `GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES`,
 *   two `GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES` (its HTTPRoute's backend, and
 *   the controller's default 404 backend, `gw-serve404`, seen in a Gateway's
 *   `networking.gke.io/backend-services` annotation), a health check, URL map,
 *   target HTTP proxy, one NEG per zone, and one `gkegw1-l7-*` firewall rule;
 * - a passthrough NLB Service is regional: `EXTERNAL_NETWORK_LB_FORWARDING_RULES`,
 *   `REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES`, an ephemeral external
 *   address (`IN_USE_ADDRESSES`), its own `k8s-fw-*` firewall rule and a
 *   health-check rule (one per cluster for `Cluster` Services, one per `Local`
 *   Service), and, as GCE_VM_IP NEGs of the nodes from GKE 1.32.2 on, one NEG
 *   per zone (counted always: instance groups before that take none, so the
 *   count is the most it takes); and a regional health check that GKE's L4
 *   NetLB controller makes in the cluster's region, one per `Local` Service
 *   (`k8s2-<uid>-<ns>-<svc>-<hash>`) and one per cluster shared by its
 *   `Cluster` Services (`k8s2-<uid>-l4-shared-hc`; kubernetes/ingress-gce
 *   `pkg/l4/resources/l4netlb.go`, `pkg/l4/healthchecks/healthchecksl4.go`,
 *   `pkg/utils/namer/l4_namer.go`). Regional as they are, these count in the
 *   project's `HEALTH_CHECKS` (Cloud Load Balancing "Quotas and limits",
 *   Health checks: "a per-project quota covering all health check types
 *   (global, regional, and legacy)", docs.cloud.google.com/load-balancing/docs/quotas,
 *   read 2026-12-07); Compute Engine has no regional health-check metric (the
 *   `Quota.metric` enum of its v1 discovery document lists `HEALTH_CHECKS` only);
 * and from the cluster stack: the nodes (`CPUS`, `CPUS_ALL_REGIONS`, `SSD_TOTAL_GB`
 * or `DISKS_TOTAL_GB` for pd-standard), the VPC network and subnet, the Cloud
 * Router and Cloud NAT's address, the lab's own firewall rules with the three
 * GKE makes per cluster, and the Cloud Armor policy with its rules. The nodes
 * are private: they take no external address.
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
  // The zones of each environment's cluster (its node pool's node_locations, else the one zone of a zonal cluster): NEGs are per zone.
  const zonesOf = new Map(synth.clouds.filter((c) => c.cloud === 'gcp' && c.cluster).map((c) => [c.env, clusterZones(c.cluster!)]));
  const policyRules = stacks.reduce((n, s) => n + resourcesOf(s, 'google_compute_security_policy').reduce((m, r) => m + (Array.isArray(r.config.rule) ? r.config.rule.length : 0), 0), 0);

  let ingresses = 0;
  let gateways = 0;
  let passthrough = 0;
  let negs = 0;
  let controllerRules = 0;
  let localServices = 0;
  const byCluster = new Map<string, { ingress: boolean; gateway: boolean; clusterPolicy: boolean }>();
  for (const exposure of exposures.filter((x) => x.cloud === 'gcp')) {
    const zones = zonesOf.get(exposure.env) ?? 1;
    const cluster = byCluster.get(exposure.env) ?? { ingress: false, gateway: false, clusterPolicy: false };
    byCluster.set(exposure.env, cluster);
    if (exposure.lb_kind === 'gclb-application' && exposure.mode === 'gateway') {
      gateways += 1;
      negs += zones;
      cluster.gateway = true;
    } else if (exposure.lb_kind === 'gclb-application') {
      ingresses += 1;
      if (exposure.target_type === 'neg') negs += zones;
      cluster.ingress = true;
    } else if (exposure.lb_kind === 'gcp-passthrough-nlb') {
      passthrough += 1;
      negs += zones;
      // Its own traffic rule, and a health-check rule: shared by the cluster's Cluster Services, one per Local Service.
      controllerRules += exposure.external_traffic_policy === 'Local' ? 2 : 1;
      if (exposure.external_traffic_policy === 'Local') localServices += 1;
      else cluster.clusterPolicy = true;
    } else notes.push(`${exposure.env} gcp ${exposure.mode}: load-balancer kind ${exposure.lb_kind ?? 'unknown'}, not counted`);
  }
  for (const cluster of byCluster.values()) controllerRules += Number(cluster.ingress) + Number(cluster.gateway) + Number(cluster.clusterPolicy);
  const clusters = count('google_container_cluster');
  const labRules = count('google_compute_firewall');
  const nats = count('google_compute_router_nat');
  const l7 = ingresses + gateways;
  // The passthrough NLBs' regional health checks: a Local Service's own, and the one a cluster's Cluster Services share.
  const l4HealthChecks = localServices + [...byCluster.values()].filter((c) => c.clusterPolicy).length;
  const need = (metric: GcpQuotaMetric, scope: GcpQuotaNeed['scope'], n: number, counted: string): GcpQuotaNeed => ({ metric, scope, need: n, counted });
  const vms = `${nodes} node VMs, the default pools' included`;
  return {
    quotas: [
      need('CPUS', 'region', cpus, vms),
      need('CPUS_ALL_REGIONS', 'project', cpus, vms),
      need('SSD_TOTAL_GB', 'region', disk(true), `boot disks of ${vms}`),
      need('DISKS_TOTAL_GB', 'region', disk(false), `pd-standard boot disks of ${vms}`),
      need('NETWORKS', 'project', count('google_compute_network'), 'one VPC network per environment'),
      need('SUBNETWORKS', 'project', count('google_compute_subnetwork'), 'one node subnet per environment'),
      need('ROUTERS', 'project', count('google_compute_router'), 'one Cloud Router (for Cloud NAT) per environment'),
      need(
        'FIREWALLS',
        'project',
        labRules + GKE_CLUSTER_FIREWALL_RULES * clusters + controllerRules,
        `${labRules} of the lab, ${GKE_CLUSTER_FIREWALL_RULES * clusters} GKE makes per cluster, ${controllerRules} the load balancer controllers make`,
      ),
      need(
        'HEALTH_CHECKS',
        'project',
        l7 + l4HealthChecks,
        `${ingresses} GKE Ingress, ${gateways} Gateway backend, ${l4HealthChecks} passthrough NLB (regional: one per Local Service, one per cluster for its Cluster Services)`,
      ),
      need('TARGET_HTTP_PROXIES', 'project', l7, `${ingresses} GKE Ingress, ${gateways} Gateway`),
      need('URL_MAPS', 'project', l7, `${ingresses} GKE Ingress, ${gateways} Gateway`),
      need('NETWORK_ENDPOINT_GROUPS', 'region', negs, 'one per zone for each NEG-backed Ingress, Gateway and passthrough NLB (GCE_VM_IP NEGs from GKE 1.32.2)'),
      need('SECURITY_POLICIES', 'project', count('google_compute_security_policy'), 'the Cloud Armor policy of a narrowed app.allowedSourceCidrs'),
      need('SECURITY_POLICY_RULES', 'project', policyRules, "the Cloud Armor policy's rules, its default rule included"),
      need('IN_USE_ADDRESSES', 'region', nats + passthrough, `${nats} Cloud NAT, ${passthrough} passthrough NLB; the nodes are private`),
      need('FORWARDING_RULES', 'project', ingresses, `${ingresses} GKE Ingress (classic Application Load Balancer)`),
      need('GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES', 'project', ingresses, `${ingresses} GKE Ingress (its defaultBackend is the app's Service: no default backend of GKE's own)`),
      need('GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES', 'project', gateways, `${gateways} Gateway`),
      need('GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', 'project', 2 * gateways, `${gateways} Gateway: its route's backend and the default 404 backend`),
      need('EXTERNAL_NETWORK_LB_FORWARDING_RULES', 'region', passthrough, `${passthrough} passthrough NLB`),
      need('REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES', 'region', passthrough, `${passthrough} passthrough NLB`),
    ],
    notes,
  };
}

/** The zones a GKE cluster stack's nodes run in: its node pool's `node_locations`, else the one zone of a zonal cluster. */
function clusterZones(stack: SynthStack): number {
  const pool = resourcesOf(stack, 'google_container_node_pool')[0];
  return Array.isArray(pool?.config.node_locations) ? pool.config.node_locations.length : 1;
}

/** A quota of the table with a documented default, as preflight's credential checks read it (`need`: the field or metric it limits). */
export type DefaultQuota = QuotaSpec & { readonly need: string; readonly defaultLimit: number };

/** The AWS quotas with a documented default (all but vCPUs), with the fields of {@link AwsQuotaNeeds} they limit. */
export const AWS_DEFAULT_QUOTAS: readonly (DefaultQuota & { readonly need: Exclude<AwsQuotaId, 'vcpus'>; readonly serviceCode: string; readonly quotaCode: string })[] = AWS_QUOTAS.flatMap((q) =>
  sizesSlots(q) && q.id !== 'vcpus' ? [{ ...q, need: q.id, defaultLimit: q.defaultLimit, serviceCode: q.serviceCode, quotaCode: q.quotaCode }] : [],
);

/** The GCP quotas with a documented default (Google publishes one for networks only). */
export const GCP_DEFAULT_QUOTAS: readonly DefaultQuota[] = GCP_QUOTAS.flatMap((q) => (sizesSlots(q) ? [{ ...q, need: q.id, defaultLimit: q.defaultLimit }] : []));

/** The environments placed in one slot. */
export interface SlotEnvironments {
  readonly slot: Slot;
  readonly envs: readonly string[];
}

/**
 * One quota's need where its limit applies: in one slot (scopes `region` and `zone`), or over all
 * the slots of one project (scope `project`).
 */
export interface QuotaNeed extends Need {
  readonly quota: QuotaSpec;
  /** The slots it adds up over: one, or every slot of the project. */
  readonly slots: readonly Slot[];
  /** Where, in words: `us-east-1`, `us-east-2 of account 111122223333`, `project my-lab`. */
  readonly where: string;
  readonly environments: number;
}

/** The needs of every quota of the table, per slot (or per project), and the notes of what could not be counted. */
export interface LabQuotaNeeds {
  readonly needs: readonly QuotaNeed[];
  readonly notes: readonly string[];
}

/** Where a slot's region-scoped quota applies, in words. */
function slotWhere(slot: Slot): string {
  if (slot.cloud === 'aws') return slot.account ? `${slot.region} of account ${slot.account.id}` : slot.region;
  return `${slot.region} of project ${slot.project}`;
}

/**
 * Counts every quota of the table for the environments of each slot, from the synthesized stacks:
 * region- and zone-scoped quotas per slot, project-scoped ones over the slots of each project.
 * `exposures` are the load balancers the controllers will make (the selected `-lb` stacks').
 */
export function labQuotaNeeds(synth: SynthDir, exposures: readonly QuotaExposure[], slots: readonly SlotEnvironments[]): LabQuotaNeeds {
  const notes: string[] = [];
  const perSlot = slots.map(({ slot, envs }) => {
    const clouds = synth.clouds.filter((c) => c.cloud === slot.cloud && envs.includes(c.env));
    const mine = exposures.filter((x) => x.cloud === slot.cloud && envs.includes(x.env));
    const part = { ...synth, clouds };
    if (slot.cloud === 'aws') {
      const aws = awsQuotaNeeds(part, mine);
      notes.push(...aws.notes);
      return { slot, envs: new Set(clouds.map((c) => c.env)).size, counts: new Map<string, { need: number; counted?: string }>(AWS_QUOTAS.map((q) => [q.id, { need: aws[q.id] }])) };
    }
    const gcp = gcpQuotaNeeds(part, mine);
    notes.push(...gcp.notes);
    return { slot, envs: new Set(clouds.map((c) => c.env)).size, counts: new Map(gcp.quotas.map((q) => [q.metric as string, { need: q.need, counted: q.counted }])) };
  });
  const needs: QuotaNeed[] = [];
  for (const cloud of ['aws', 'gcp'] as const) {
    const mine = perSlot.filter((p) => p.slot.cloud === cloud);
    for (const quota of cloud === 'aws' ? AWS_QUOTAS : GCP_QUOTAS) {
      const groups =
        quota.scope === 'project'
          ? [...new Set(mine.map((p) => slotGroup(p.slot)))].map((group) => ({ where: `project ${group}`, parts: mine.filter((p) => slotGroup(p.slot) === group) }))
          : mine.map((p) => ({ where: slotWhere(p.slot), parts: [p] }));
      for (const { where, parts } of groups) {
        const counts = parts.map((p) => p.counts.get(quota.id));
        needs.push({
          quota,
          slots: parts.map((p) => p.slot),
          where,
          environments: parts.reduce((n, p) => n + p.envs, 0),
          need: counts.reduce((n, c) => n + (c?.need ?? 0), 0),
          counted: parts.length === 1 ? counts[0]?.counted : undefined,
        });
      }
    }
  }
  return { needs, notes };
}

/** Every need over its quota's documented default once a fresh account or project holds its part, in table order. A need exactly at the limit is not over it. */
export function overDefaultLimits(needs: readonly QuotaNeed[]): QuotaNeed[] {
  return needs.filter((n) => overDefault(n.quota, n.need));
}

/** `VPCs per Region: 6 environments need 6 in us-east-1, 7 with the default VPC ..., over AWS's default limit of 5: ...`. */
export function formatOverDefault(over: QuotaNeed): string {
  const { quota, need, where, environments } = over;
  const cloud = quota.cloud === 'aws' ? "AWS's" : "Google Cloud's";
  const codes = quota.quotaCode ? `; Service Quotas ${quota.serviceCode} ${quota.quotaCode}` : '';
  const fresh = quota.fresh > 0 ? `, ${need + quota.fresh} with ${quota.freshWhat ?? 'what a fresh account holds'} (${quota.fresh})` : '';
  return (
    `${quota.name}: ${environments} environment${environments === 1 ? '' : 's'} need ${need} in ${where}${fresh}, ` +
    `over ${cloud} default limit of ${quota.defaultLimit}: a default limit, not your account's${codes}`
  );
}

/**
 * `Running On-Demand Standard ... (vCPUs): 30 environments need 180 in us-east-1; its value is set per account, not a published default (Service Quotas ec2 L-1216C47A)`,
 * or on GCP `vCPUs (CPUS): 30 environments need 180 in us-central1 of project p; its value is set per project, not a published default (Cloud Quotas CPUS-per-project-region)`.
 */
export function formatPerAccountNeed(need: QuotaNeed): string {
  const { quota } = need;
  const codes = quota.quotaCode ? ` (Service Quotas ${quota.serviceCode} ${quota.quotaCode})` : quota.cloudQuotaId ? ` (Cloud Quotas ${quota.cloudQuotaId})` : '';
  const per = quota.cloud === 'aws' ? 'account' : 'project';
  return `${quota.name}: ${need.environments} environment${need.environments === 1 ? '' : 's'} need ${need.need} in ${need.where}; its value is set per ${per}, not a published default${codes}`;
}

/**
 * The notes `synth` prints: each slot's need over a documented default, and with them the vCPU needs
 * (EC2 vCPUs, Compute Engine CPUS: values set per account or project, with no published default) in
 * the slots that have a note, so a host who reads about quotas sees those too (preflight with
 * credentials checks them). Counted from the stacks alone: no credentials, no explain run.
 */
export function defaultLimitNotes(synth: SynthDir, slots: readonly SlotEnvironments[]): string[] {
  const { needs } = labQuotaNeeds(synth, exposuresOfOutputs(synth), slots);
  const over = overDefaultLimits(needs);
  const noted = new Set(over.flatMap((o) => o.slots.map((s) => s.id)));
  const perAccount = needs.filter((n) => n.quota.id === VCPU_QUOTA[n.quota.cloud] && n.need > 0 && n.slots.some((s) => noted.has(s.id)));
  return [...over.map(formatOverDefault), ...perAccount.map(formatPerAccountNeed)].map((note) => `${note} (npx hoplab preflight checks your own)`);
}
