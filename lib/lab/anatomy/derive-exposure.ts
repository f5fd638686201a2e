/**
 * Derives an exposure's path from the load balancer shape and the Service's
 * traffic policy: the docs/design.md table, computed from the synthesized objects
 * instead of stated.
 */
import { ClientIpVia, clientIpPreserved, Cloud } from '../../model/contract';
import { ciliumWords, GKE_DATAPLANE_V2 } from '../../model/exposure-facts';
import { datapathEffect } from './datapath';
import { DatapathExplanation } from './model';
import { ExposureResources } from './exposure-resources';
import { ClusterContext, loadBalancerShape, LoadBalancerShape } from './load-balancer-shape';
import { matrixVariables } from './matrix';
import { ExposureExplanation, PathStep } from './model';
import { ClusterAddressing, exposurePlan } from './exposure-plan';
import { dig, literalNumber, SynthStack } from '../../kit/terraform/terraform-json';

function trafficPolicy(exposure: ExposureResources): { policy: 'Cluster' | 'Local' | null; note?: string } {
  const value = exposure.service?.spec.external_traffic_policy;
  if (value === 'Local' || value === 'Cluster') {
    return { policy: value };
  }
  if (value === undefined && exposure.service) {
    return { policy: 'Cluster', note: 'externalTrafficPolicy not set: Kubernetes defaults it to Cluster' };
  }
  return { policy: null };
}

/** `Ingress echo-native -> Service echo-native`, or null when the names are not literal. */
function kubernetesObjectsText(exposure: ExposureResources): string | null {
  const named = (kind: string, object: ExposureResources['service']) => (object?.name && !object.name.includes('${') ? `${kind} ${object.name}` : undefined);
  const gatewayParts = exposure.gateway ? [exposure.gateway.gateway, exposure.gateway.route].map((o) => (o?.name && !o.name.includes('${') ? `${o.kind} ${o.name}` : undefined)) : [];
  const parts = [...gatewayParts, named('Ingress', exposure.ingress), named('Service', exposure.service)].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join(' -> ') : null;
}

function nodePortText(stack: SynthStack, exposure: ExposureResources): string {
  const nodePort = literalNumber(stack, dig(exposure.service?.spec, 'port.node_port'));
  return nodePort === undefined ? 'NodePort' : `NodePort ${nodePort}`;
}

function pathOf(shape: LoadBalancerShape, policy: 'Cluster' | 'Local' | null, dataplane: string, nodePort: string): { steps: PathStep[]; summary: string } {
  const client: PathStep = { at: 'client', then: `connects to the ${shape.label}`, snat: false };
  const lbThen = shape.l7 ? 'opens its own connection (X-Forwarded-For: client)' : 'forwards the packet';
  if (shape.targets === 'pods') {
    return {
      steps: [client, { at: shape.label, then: `${lbThen} straight to a Pod IP (target type ${shape.targetType})`, snat: false }, { at: 'Pod', then: '', snat: false }],
      summary: `client -> ${shape.label} -> Pod`,
    };
  }
  if (shape.targets === 'nodes' && policy === 'Cluster') {
    return {
      steps: [
        client,
        { at: shape.label, then: `${lbThen} to any node's ${nodePort}`, snat: false },
        {
          at: `node (${nodePort})`,
          then: dataplane.startsWith('cilium')
            ? `${dataplane}: DNAT to any ready Pod + SNAT to the node address when that Pod is on another node`
            : `${dataplane}: DNAT to any ready Pod + SNAT to the node address`,
          snat: true,
        },
        { at: 'Pod (maybe on another node)', then: '', snat: false },
      ],
      summary: `client -> ${shape.label} -> any node's ${nodePort} -> DNAT+SNAT -> Pod (maybe on another node)`,
    };
  }
  if (shape.targets === 'nodes' && policy === 'Local') {
    return {
      steps: [
        client,
        { at: shape.label, then: `${lbThen} to a node with a ready Pod (${nodePort})`, snat: false },
        { at: `node (${nodePort})`, then: `${dataplane}: DNAT to a Pod on this node only (no SNAT)`, snat: false },
        { at: 'Pod (same node)', then: '', snat: false },
      ],
      summary: `client -> ${shape.label} -> node with a Pod (${nodePort}) -> DNAT -> Pod on that node`,
    };
  }
  return { steps: [], summary: 'unknown' };
}

function clientSeenAs(shape: LoadBalancerShape, snat: boolean | null, dataplane: string): string {
  if (snat === null || shape.targets === null) {
    return 'unknown';
  }
  if (snat) {
    return shape.l7
      ? `a node address (SNAT by ${dataplane}) as TCP peer; only the L7 X-Forwarded-For header still names the client`
      : dataplane.startsWith('cilium')
      ? `a node address (SNAT by ${dataplane}) as TCP source when the Pod is on another node; the client address when it is on the receiving node`
      : `a node address (SNAT by ${dataplane}) as TCP source; the client address is lost`;
  }
  if (shape.l7) {
    return `X-Forwarded-For; the TCP peer is the ${shape.label}`;
  }
  if (shape.keepsClientAsSource) {
    return 'TCP source address (no proxy, no SNAT)';
  }
  return shape.keepsClientAsSource === false ? `the ${shape.label}'s address as TCP source (the load balancer does not keep the client address)` : 'unknown';
}

/**
 * Where the Pod finds the client: an L7 proxy always names it in
 * X-Forwarded-For (whatever a node does to the TCP source afterwards); an L4
 * load balancer leaves it as the TCP source unless a node SNATs or the load
 * balancer itself does not keep it.
 */
export function clientIpVia(shape: Pick<LoadBalancerShape, 'l7' | 'targets' | 'keepsClientAsSource'>, snat: boolean | null): ClientIpVia | null {
  if (shape.targets === null || snat === null) {
    return null;
  }
  if (shape.l7) {
    return 'x-forwarded-for';
  }
  if (snat) {
    return 'none';
  }
  return shape.keepsClientAsSource === null ? null : shape.keepsClientAsSource ? 'tcp-source' : 'none';
}

/** The health check's words; with a Cilium dataplane no kube-proxy answers the node health port (worded as the `-lb` stack's output). */
function healthCheckOf(cloud: Cloud, words: string, datapath: DatapathExplanation | null): string {
  return datapath?.dataplane === 'cilium-ebpf' ? ciliumWords.healthCheck(words, cloud === 'gcp' ? GKE_DATAPLANE_V2 : 'Cilium (eBPF)') : words;
}

/** Explains one exposure of a `-lb` stack. */
export function deriveExposure(
  cloud: Cloud,
  stack: SynthStack,
  exposure: ExposureResources,
  ctx: ClusterContext & { readonly dataplane: string; readonly datapath?: DatapathExplanation | null; readonly addressing?: ClusterAddressing },
): ExposureExplanation {
  const shape = loadBalancerShape(cloud, exposure, ctx);
  const { policy, note } = trafficPolicy(exposure);
  // The traffic policy only matters when the load balancer targets nodes.
  const notes = [...exposure.notes, ...shape.notes, ...(note && shape.targets === 'nodes' ? [note] : [])];
  let hops: number | null = null;
  let snat: boolean | null = null;
  if (shape.targets === 'pods') {
    hops = 1;
    snat = false;
  } else if (shape.targets === 'nodes' && policy !== null) {
    snat = policy === 'Cluster';
    hops = snat ? 2 : 1;
  }
  const via = clientIpVia(shape, snat);
  const path = pathOf(shape, policy, ctx.dataplane, shape.nodeEntry ?? nodePortText(stack, exposure));
  const layer = shape.targets === null && shape.lbKind === null ? null : shape.l7 ? 'L7' : 'L4';
  const api = exposure.gateway ? 'Gateway API' : exposure.ingress || exposure.service ? 'core API' : null;
  return {
    mode: exposure.mode,
    entry: exposure.gateway?.gateway.address ?? exposure.ingress?.resource.address ?? exposure.service?.resource.address ?? null,
    service: exposure.service?.resource.address ?? null,
    kubernetes_objects: kubernetesObjectsText(exposure),
    lb_kind: shape.lbKind,
    target_type: shape.targetType,
    targets: shape.targets,
    external_traffic_policy: policy,
    expected_hops: hops,
    snat,
    source_nat: snat,
    client_ip_via: via,
    client_ip_preserved: via === null ? null : clientIpPreserved(via),
    client_ip_seen_as: clientSeenAs(shape, snat, ctx.dataplane),
    health_check: shape.targets === null ? 'unknown' : healthCheckOf(cloud, shape.healthCheck(policy), ctx.datapath ?? null),
    datapath_effect: datapathEffect(ctx.datapath ?? null, { targets: shape.targets, external_traffic_policy: policy, client_ip_via: via }),
    path: path.steps,
    path_summary: path.summary,
    layer,
    api,
    variables: matrixVariables({ layer, api, targets: shape.targets, external_traffic_policy: policy }),
    // Filled in by explainDir, which sees every exposure of the cloud.
    differs_in_one: [],
    notes,
    ...(ctx.addressing
      ? { plan: exposurePlan(cloud, stack, exposure, { dataplane: ctx.datapath?.dataplane ?? null, keepsClientAsSource: shape.keepsClientAsSource, addressing: ctx.addressing }) }
      : {}),
  };
}
