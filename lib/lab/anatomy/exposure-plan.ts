/**
 * What the synthesized stacks say about the addresses and ports on an
 * exposure's way, read from the plan and never guessed: the ranges nodes,
 * Pods and the load balancer's own side take their addresses from (AWS: the
 * node group's subnets and the subnets tagged for internet-facing load
 * balancers; GKE: the node subnet, the Pod secondary range with its per-node
 * alias ranges, and the Google Front End ranges the L7 firewall rule admits),
 * the port the load balancer listens on, the Pod's port (a named target port
 * resolved through the Deployment) and the Service's nodePort when the plan
 * sets one. The packet's journey (lib/lab/pictures/journey.ts) draws its
 * example addresses from these; `null` and empty lists mean the plan does not
 * say.
 */
import { Cloud } from '../../model/contract';
import { Dataplane } from '../../model/datapaths';
import { GOOGLE_L7_SOURCE_RANGES } from '../../constructs/gcp/gke-health-check-firewall';
import { ExposureResources } from './exposure-resources';
import { ExposurePlan } from './model';
import { PodCapacity } from './model';
import { block, dig, isRecord, literalNumber, literalString, resourcesOf, stringMap, SynthStack } from '../../kit/terraform/terraform-json';

/** The cluster's part of every exposure's plan. */
export type ClusterAddressing = Pick<ExposurePlan, 'node_ranges' | 'pod_ranges' | 'per_node_pod_prefix' | 'lb_ranges'>;

/** The tag the AWS Load Balancer Controller finds internet-facing load balancers' subnets by. */
const ELB_SUBNET_TAG = 'kubernetes.io/role/elb';

const NO_ADDRESSING: ClusterAddressing = { node_ranges: [], pod_ranges: [], per_node_pod_prefix: null, lb_ranges: [] };

/** The `cidr_block` of each `aws_subnet` a list of `${aws_subnet.<key>.id}` references names, in list order. */
function referencedSubnets(stack: SynthStack, references: unknown): string[] {
  const keys = (Array.isArray(references) ? references : [])
    .flatMap((r) => (typeof r === 'string' ? [/^\$\{aws_subnet\.([A-Za-z0-9_-]+)\.id\}$/.exec(r)?.[1]] : []))
    .filter((k): k is string => k !== undefined);
  const subnets = resourcesOf(stack, 'aws_subnet');
  return keys.flatMap((key) => {
    const text = literalString(stack, subnets.find((s) => s.key === key)?.config.cidr_block);
    return text === undefined ? [] : [text];
  });
}

/** EKS: nodes in the node group's subnets (where the VPC CNI gives Pods their addresses too); load balancers in the subnets tagged for them. */
export function awsAddressing(stack: SynthStack | undefined, capacity: PodCapacity | null): ClusterAddressing {
  if (!stack) return NO_ADDRESSING;
  const nodeGroup = resourcesOf(stack, 'aws_eks_node_group')[0];
  const nodes = nodeGroup ? referencedSubnets(stack, nodeGroup.config.subnet_ids) : [];
  const lbSubnets = resourcesOf(stack, 'aws_subnet').flatMap((s) => {
    const text = literalString(stack, s.config.cidr_block);
    return text !== undefined && stringMap(stack, s.config.tags)[ELB_SUBNET_TAG] === '1' ? [text] : [];
  });
  return { node_ranges: nodes, pod_ranges: capacity?.pod_address_range ?? [], per_node_pod_prefix: null, lb_ranges: lbSubnets };
}

/** GKE: nodes in the cluster's subnet; Pods in the Pod range, each node's from its own alias range; Google Front Ends from the ranges the L7 firewall rule admits. */
export function gcpAddressing(stack: SynthStack | undefined, capacity: PodCapacity | null): ClusterAddressing {
  if (!stack) return NO_ADDRESSING;
  const cluster = resourcesOf(stack, 'google_container_cluster')[0];
  const subnetKey = typeof cluster?.config.subnetwork === 'string' ? /^\$\{google_compute_subnetwork\.([A-Za-z0-9_-]+)\./.exec(cluster.config.subnetwork)?.[1] : undefined;
  const subnet = resourcesOf(stack, 'google_compute_subnetwork').find((s) => s.key === subnetKey);
  const nodeRange = subnet ? literalString(stack, subnet.config.ip_cidr_range) : undefined;
  const l7 = resourcesOf(stack, 'google_compute_firewall').some((f) => {
    const ranges = f.config.source_ranges;
    return Array.isArray(ranges) && ranges.length === GOOGLE_L7_SOURCE_RANGES.length && GOOGLE_L7_SOURCE_RANGES.every((r) => ranges.includes(r));
  });
  const prefix = /^\/(\d+)$/.exec(capacity?.per_node_range ?? '')?.[1];
  return {
    node_ranges: nodeRange === undefined ? [] : [nodeRange],
    pod_ranges: capacity?.pod_address_range ?? [],
    per_node_pod_prefix: prefix === undefined ? null : Number(prefix),
    lb_ranges: l7 ? [...GOOGLE_L7_SOURCE_RANGES] : [],
  };
}

/** The Service's first port block. */
function servicePort(exposure: ExposureResources): Record<string, unknown> | undefined {
  return block(exposure.service?.spec.port);
}

/** The container port named `name` in the stack's Deployments, or undefined. */
function namedContainerPort(stack: SynthStack, name: string): number | undefined {
  for (const deployment of resourcesOf(stack, 'kubernetes_deployment_v1')) {
    const containers = dig(deployment.config, 'spec.template.spec');
    const list = isRecord(containers) ? containers.container : undefined;
    for (const container of Array.isArray(list) ? list : [list]) {
      const ports = isRecord(container) ? container.port : undefined;
      for (const port of Array.isArray(ports) ? ports : [ports]) {
        if (isRecord(port) && literalString(stack, port.name) === name) {
          const found = literalNumber(stack, port.container_port);
          if (found !== undefined) return found;
        }
      }
    }
  }
  return undefined;
}

/** The Pod's port: a numeric targetPort, or a named one resolved through the Deployment's container ports. */
function targetPortNumber(stack: SynthStack, exposure: ExposureResources): number | null {
  const port = servicePort(exposure);
  const target = port?.target_port ?? port?.port;
  const number = literalNumber(stack, target);
  if (number !== undefined) return number;
  const name = literalString(stack, target);
  return name === undefined ? null : namedContainerPort(stack, name) ?? null;
}

/** The first port of an ALB `listen-ports` annotation (`[{"HTTP": 80}]`). */
function listenPort(annotation: string | undefined): number | undefined {
  if (annotation === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(annotation);
    const first = Array.isArray(parsed) && isRecord(parsed[0]) ? Object.values(parsed[0])[0] : undefined;
    return typeof first === 'number' ? first : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The port the load balancer listens on: a Gateway's first listener; an
 * Ingress's `alb.ingress.kubernetes.io/listen-ports`, else HTTP's 80 (the
 * default of the AWS Load Balancer Controller and of GKE's Ingress); a
 * Service of type LoadBalancer's port.
 */
function listenerPort(stack: SynthStack, exposure: ExposureResources): number | null {
  if (exposure.gateway) {
    const port = dig(exposure.gateway.gateway.spec, 'listeners.port');
    return typeof port === 'number' ? port : null;
  }
  if (exposure.ingress) {
    return listenPort(exposure.service?.annotations['alb.ingress.kubernetes.io/listen-ports'] ?? exposure.ingress.annotations['alb.ingress.kubernetes.io/listen-ports']) ?? 80;
  }
  return literalNumber(stack, servicePort(exposure)?.port) ?? null;
}

/** The plan of one exposure of a `-lb` stack. */
export function exposurePlan(
  cloud: Cloud,
  stack: SynthStack,
  exposure: ExposureResources,
  ctx: { readonly dataplane: Dataplane | null; readonly keepsClientAsSource: boolean | null; readonly addressing: ClusterAddressing },
): ExposurePlan {
  return {
    cloud,
    dataplane: ctx.dataplane,
    listener_port: listenerPort(stack, exposure),
    target_port: targetPortNumber(stack, exposure),
    node_port: literalNumber(stack, servicePort(exposure)?.node_port) ?? null,
    lb_keeps_client: ctx.keepsClientAsSource,
    ...ctx.addressing,
  };
}
