/**
 * The packet's journey through one exposure, step by step, as the seed
 * chapter of the lab traces it: at each point of the way (client → load
 * balancer → node → Pod, and the reply's way back) the packet's source and
 * destination (address:port), and what rewrote them on the way there (the
 * load balancer's new connection, its forwarding to a target, kube-proxy's or
 * Cilium's DNAT, the SNAT of `externalTrafficPolicy: Cluster`, connection
 * tracking undoing them on the reply), or that nothing did.
 *
 * A pure function of what explain derived from the synthesized stacks: the
 * rewrites from the exposure's facts (targets, layer, traffic policy, SNAT,
 * where the Pod finds the client: the same facts explain shows and the `-lb`
 * stacks export, lib/model/exposure-facts.ts), the datapath from the cluster
 * stack, and the addresses from its plan (lib/lab/anatomy/exposure-plan.ts):
 * ports as planned, node and Pod addresses as examples drawn from the planned
 * ranges, the client from TEST-NET-3 and the load balancer's public address
 * from TEST-NET-2 (RFC 5737's documentation ranges). Where given, a deployed
 * lab's outputs (the URL: the load balancer's name or address and port) and
 * a probe's replies (compare --probe: the prober's address, the source the
 * Pods really saw, the node of the Pod) take the examples' place. Every
 * address says where it comes from.
 *
 * The cloud facts behind the steps (read 2026-12-02):
 * - ALB: "X-Forwarded-For: client-ip-address", appended by default
 *   (docs.aws.amazon.com/elasticloadbalancing/latest/application/x-forwarded-headers.html).
 * - Google external Application Load Balancer: "X-Forwarded-For: <immediate
 *   client IP>, <global forwarding rule external IP>" and the Google Front
 *   Ends connect from 130.211.0.0/22 and 35.191.0.0/16
 *   (cloud.google.com/load-balancing/docs/https, .../docs/firewall-rules).
 * - Google passthrough Network Load Balancers deliver packets to the node
 *   with their destination unchanged and replies go from the node straight
 *   to the client (direct server return)
 *   (cloud.google.com/load-balancing/docs/network/networklb-backend-service).
 * - NLB: instance targets keep the client's address by default, ip targets
 *   when client IP preservation is on; the NLB rewrites the destination to
 *   the target's address and port
 *   (docs.aws.amazon.com/elasticloadbalancing/latest/network/edit-target-group-attributes.html).
 */
import { Cloud } from '../../model/contract';
import { EXPOSURE_MODES } from '../../model/modes';
import { GKE_DATAPLANE_V2 } from '../../model/exposure-facts';
import { cidr, hostAt, subnet } from '../../model/cidr';
import { ExposureExplanation, ExposurePlan } from '../anatomy/model';
import { pathShape } from './path-diagram';
import { MeasuredAddresses } from '../probe/measured';

/** Where a value on the journey comes from. */
export type Origin = 'plan' | 'example' | 'outputs' | 'measured';

/** An address or a port, and where it comes from. */
export interface JourneyValue {
  readonly text: string;
  readonly origin: Origin;
  /** Where it was drawn from or read, e.g. `from 10.0.0.0/19, the node subnet`. */
  readonly why: string;
}

/** Who holds an address on the way. */
export type JourneyRole = 'client' | 'load balancer' | "load balancer's own address" | 'node 1' | 'node 2' | 'Pod';

/** One end of a packet: who, address, port. */
export interface JourneyEndpoint {
  readonly role: JourneyRole;
  readonly address: JourneyValue;
  readonly port: JourneyValue;
}

/** What happened to the packet on its way to this step. */
export type RewriteKind = 'none' | 'new-connection' | 'lb-forward' | 'dnat' | 'dnat+snat' | 'undo';

export interface JourneyRewrite {
  readonly kind: RewriteKind;
  /** Who rewrote it (`the ALB`, `kube-proxy (iptables rules) on node 1`), null when nothing did. */
  readonly by: string | null;
  readonly words: string;
  /** The source was rewritten here. */
  readonly source: boolean;
  /** The destination was rewritten here. */
  readonly destination: boolean;
}

/** The packet on one stretch of the way. */
export interface JourneyStep {
  readonly direction: 'request' | 'reply';
  readonly from: string;
  readonly to: string;
  readonly source: JourneyEndpoint;
  readonly destination: JourneyEndpoint;
  /** The X-Forwarded-For header the packet carries (L7 after the proxy), else null. */
  readonly forwardedFor: string | null;
  readonly rewrite: JourneyRewrite;
  /** Which hop from the load balancer to the Pod this stretch is (1 or 2); null for the client's stretch, a stretch inside a node, and the reply. */
  readonly hop: number | null;
}

export interface Journey {
  readonly cloud: Cloud | null;
  readonly mode: string;
  readonly steps: readonly JourneyStep[];
  /** What a reader should know: the worst case shown, what an example stands for, measured differences. */
  readonly notes: readonly string[];
  /** Why there are no steps (the path or the plan is not known), else null. */
  readonly unknown: string | null;
}

/** What a deployed lab adds. */
export interface JourneyGiven {
  /** The exposure's URL from the outputs. */
  readonly url?: string | null;
  readonly measured?: MeasuredAddresses;
}

/** TEST-NET-3 (RFC 5737): the client of every example. */
export const EXAMPLE_CLIENT_BLOCK = '203.0.113.0/24';
/** TEST-NET-2 (RFC 5737): the load balancers' public addresses of the examples. */
export const EXAMPLE_LB_BLOCK = '198.51.100.0/24';
/** Example ports: the client's and the load balancer's own ephemeral ports, the port a node's SNAT picks, and NodePorts (Kubernetes allocates them from 30000-32767). */
const EXAMPLE_PORTS = { client: 51000, lbOwn: 41000, snat: 42000, nodePort: 30080 } as const;

const example = (text: string | number, why: string): JourneyValue => ({ text: String(text), origin: 'example', why });
const planned = (text: string | number, why: string): JourneyValue => ({ text: String(text), origin: 'plan', why });

/** Who does the NodePort DNAT and SNAT on a node, in words. */
export function natPerformer(plan: Pick<ExposurePlan, 'cloud' | 'dataplane'>): string {
  switch (plan.dataplane) {
    case 'kube-proxy-iptables':
      return 'kube-proxy (iptables rules)';
    case 'kube-proxy-nftables':
      return 'kube-proxy (nftables rules)';
    case 'kube-proxy-ipvs':
      return 'kube-proxy (IPVS, with an iptables rule for the SNAT)';
    case 'cilium-ebpf':
      return plan.cloud === 'gcp' ? GKE_DATAPLANE_V2.replace(/\)$/, ', in place of kube-proxy)') : 'Cilium (eBPF, in place of kube-proxy)';
    default:
      return 'kube-proxy';
  }
}

/** The mode's place in the mode list, for examples that differ per exposure. */
function modeIndex(mode: string): number {
  const i = (EXPOSURE_MODES as readonly string[]).indexOf(mode);
  return i === -1 ? EXPOSURE_MODES.length : i;
}

/** Node `n` (0: the one the load balancer picked, 1: another): AWS spreads nodes over the node group's subnets (one per zone); GKE's share one subnet. */
function nodeAddress(plan: ExposurePlan, n: number): JourneyValue {
  const ranges = plan.node_ranges;
  if (ranges.length === 0) return example(`node ${n + 1}'s address`, 'the plan names no node range');
  const block = ranges[n % ranges.length];
  return example(hostAt(block, 10 + Math.floor(n / ranges.length) + (ranges.length === 1 ? n : 0)), `drawn from ${block}, the node subnet`);
}

/** A Pod on node `n`: GKE gives each node an alias range of the Pod range (node `n` the `n`-th); the VPC CNI gives it an address of its node's subnet. */
function podAddress(plan: ExposurePlan, n: number): JourneyValue {
  const ranges = plan.pod_ranges;
  if (ranges.length === 0) return example("the Pod's address", 'the plan names no Pod range');
  if (plan.per_node_pod_prefix !== null && ranges.length === 1) {
    const outer = cidr(ranges[0]);
    if (plan.per_node_pod_prefix >= outer.prefix) {
      const own = subnet(outer, plan.per_node_pod_prefix - outer.prefix, n).text;
      return example(hostAt(own, 5), `drawn from ${own}, node ${n + 1}'s alias range in the Pod range ${ranges[0]}`);
    }
  }
  const block = plan.node_ranges.length === ranges.length ? ranges[n % ranges.length] : ranges[0];
  return example(
    hostAt(block, 100 + n),
    `drawn from ${block}, ${plan.node_ranges.includes(block) ? 'node ' + String(n + 1) + "'s subnet, where the VPC CNI takes Pod addresses from" : 'the Pod range'}`,
  );
}

/** The load balancer's own address when it connects to the targets itself. */
function lbOwnAddress(plan: ExposurePlan, lbName: string): JourneyValue {
  const block = plan.lb_ranges[0];
  if (block === undefined) return example(`the ${lbName}'s own address`, 'the plan names no range for it');
  return example(
    hostAt(block, 10),
    plan.cloud === 'gcp' ? `drawn from ${block}, a Google Front End range the L7 firewall rule admits` : `drawn from ${block}, a subnet tagged for internet-facing load balancers`,
  );
}

/** The load balancer's public side: the outputs' URL where given, else an example of TEST-NET-2 and the planned listener port. */
function lbFront(plan: ExposurePlan, mode: string, url: string | null | undefined): { address: JourneyValue; port: JourneyValue } {
  let parsed: URL | undefined;
  try {
    parsed = url ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  const address =
    parsed && parsed.hostname !== ''
      ? {
          text: parsed.hostname,
          origin: 'outputs' as const,
          why: /^\d+(\.\d+){3}$/.test(parsed.hostname) ? "the load balancer's address, from the outputs' URL" : "the load balancer's DNS name, from the outputs' URL (it resolves to its addresses)",
        }
      : example(hostAt(EXAMPLE_LB_BLOCK, 10 + modeIndex(mode)), `drawn from ${EXAMPLE_LB_BLOCK} (TEST-NET-2, for documentation): the real one is in the outputs' URL`);
  const urlPort = parsed ? parsed.port || (parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '') : '';
  const port =
    urlPort !== ''
      ? { text: urlPort, origin: 'outputs' as const, why: "from the outputs' URL" }
      : plan.listener_port !== null
      ? planned(plan.listener_port, "the load balancer's listener port")
      : example(80, 'HTTP; the plan does not say');
  return { address, port };
}

const exampleClient = () => example(hostAt(EXAMPLE_CLIENT_BLOCK, 10), `drawn from ${EXAMPLE_CLIENT_BLOCK} (TEST-NET-3, for documentation): your own public address`);

const NOTHING: JourneyRewrite = { kind: 'none', by: null, words: 'nothing rewrote it', source: false, destination: false };

/**
 * The packet's journey through `exposure`, request and reply. Without a path
 * or a plan the journey has no steps and says why.
 */
export function packetJourney(exposure: ExposureExplanation, given: JourneyGiven = {}): Journey {
  const e = exposure;
  const plan = e.plan;
  const shape = pathShape(e);
  if (!plan || shape === 'unknown' || e.layer === null || e.snat === null || e.client_ip_via === null) {
    return {
      cloud: plan?.cloud ?? null,
      mode: e.mode,
      steps: [],
      notes: [],
      unknown: !plan ? 'the synthesized plan of this exposure is not known' : 'explain could not derive the path from the synthesized stacks',
    };
  }
  const l7 = e.layer === 'L7';
  const lbName = e.path[1]?.at ?? 'load balancer';
  const the = `the ${lbName}`;
  const who = natPerformer(plan);
  const measured = given.measured ?? {};
  const notes: string[] = [];
  const cluster = shape === 'nodes-cluster';

  // What the Pod sees as its TCP source, per the facts; a measurement of that kind takes the example's place.
  const podSees: 'client' | 'node' | 'load balancer' = e.snat ? 'node' : l7 || !plan.lb_keeps_client ? 'load balancer' : 'client';
  const seen = measured.seenByPod;
  const seenAs = { client: 'client', node: 'node', 'load balancer': 'load-balancer' }[podSees];
  const seenValue = (what: string): JourneyValue | undefined =>
    seen && seen.peer === seenAs ? { text: seen.address, origin: 'measured', why: `${what} (${seen.replies} of ${seen.of} replies, compare --probe)` } : undefined;
  if (seen && seen.peer !== seenAs) {
    const kind = seen.peer === 'mixed' ? 'sources of more than one kind' : `a ${seen.peer === 'load-balancer' ? 'load balancer' : seen.peer} address`;
    const claimed = podSees === 'client' ? "the client's" : podSees === 'node' ? "a node's" : `the ${lbName}'s`;
    notes.push(
      `Measured: the Pods saw ${seen.address} (${kind}) as the TCP source in ${seen.replies} of ${seen.of} replies, where the plan says ${claimed}: compare --probe shows the claim against the measurement.`,
    );
  }

  // The addresses of this journey.
  const client: JourneyEndpoint = {
    role: 'client',
    address: measured.client
      ? { text: measured.client, origin: 'measured', why: "the prober's own address (compare --probe)" }
      : podSees === 'client'
      ? seenValue('the client address the Pods saw') ?? exampleClient()
      : exampleClient(),
    port: example(EXAMPLE_PORTS.client, 'an ephemeral port the client picks'),
  };
  const lb: JourneyEndpoint = { role: 'load balancer', ...lbFront(plan, e.mode, given.url) };
  const lbOwn: JourneyEndpoint = {
    role: "load balancer's own address",
    address: (podSees === 'load balancer' ? seenValue(`the ${lbName}'s address the Pods saw as the source`) : undefined) ?? lbOwnAddress(plan, lbName),
    port: example(EXAMPLE_PORTS.lbOwn, `an ephemeral port the ${lbName} picks`),
  };
  const node1 =
    (podSees === 'node' ? seenValue('the node address the Pods saw as the source') : undefined) ??
    (!cluster && measured.podNode ? { text: measured.podNode, origin: 'measured' as const, why: 'the node of the Pod that answered (its name carries the address)' } : nodeAddress(plan, 0));
  const nodePort: JourneyValue =
    plan.node_port !== null ? planned(plan.node_port, "the Service's nodePort") : example(EXAMPLE_PORTS.nodePort + modeIndex(e.mode), 'Kubernetes allocates the NodePort from 30000-32767');
  const targetPort: JourneyValue = plan.target_port !== null ? planned(plan.target_port, "the Pod's port") : example(8080, 'the plan does not say');
  const node1End: JourneyEndpoint = { role: 'node 1', address: node1, port: nodePort };
  const pod: JourneyEndpoint = { role: 'Pod', address: podAddress(plan, cluster ? 1 : 0), port: targetPort };
  const xff = l7 ? (plan.cloud === 'gcp' ? `${client.address.text}, ${lb.address.text}` : client.address.text) : null;
  const steps: JourneyStep[] = [];
  const request = (step: Omit<JourneyStep, 'direction'>) => steps.push({ direction: 'request', ...step });
  const reply = (step: Omit<JourneyStep, 'direction' | 'hop' | 'forwardedFor'>) => steps.push({ direction: 'reply', hop: null, forwardedFor: null, ...step });
  const lbAnswers: JourneyRewrite = l7
    ? { kind: 'undo', by: the, words: `${the} answers on the client's own connection: from its address and listener port`, source: true, destination: true }
    : { kind: 'undo', by: the, words: `${the} rewrites the source back to its own address and listener port`, source: true, destination: !plan.lb_keeps_client };

  request({
    from: 'client',
    to: lbName,
    source: client,
    destination: lb,
    forwardedFor: null,
    rewrite: { ...NOTHING, words: `the client's own packet: from its address and a port it picked, to ${the}'s address and listener port` },
    hop: null,
  });

  // The load balancer's stretch: a proxy's new connection, an NLB's forwarding to its target, or a passthrough load balancer's packet as it was.
  const lbSource = l7 || !plan.lb_keeps_client ? lbOwn : client;
  const keptWords = plan.lb_keeps_client ? "the source stays the client's (client IP preservation)" : `the source becomes ${the}'s own address (it does not keep the client's)`;
  const target = `${shape === 'pods' ? "the Pod's IP" : "node 1's NodePort"} (target type ${e.target_type ?? 'unknown'})`;
  const passthrough = !l7 && shape !== 'pods' && plan.cloud === 'gcp';
  const lbTarget = shape === 'pods' ? pod : passthrough ? lb : node1End;
  request({
    from: lbName,
    to: shape === 'pods' ? 'Pod' : 'node 1',
    source: lbSource,
    destination: lbTarget,
    forwardedFor: xff,
    rewrite: l7
      ? {
          kind: 'new-connection',
          by: the,
          words: `${the} ends the client's TCP connection and opens its own to ${target}: a new source and destination; the client's address goes on in X-Forwarded-For`,
          source: true,
          destination: true,
        }
      : passthrough
      ? {
          ...NOTHING,
          words: `a passthrough load balancer delivers the packet to node 1 as it was, still addressed to ${the}'s IP and port; ${who} on node 1 matches that address as the Service's external IP`,
        }
      : { kind: 'lb-forward', by: the, words: `${the} forwards the packet to ${target}: the destination becomes its address and port; ${keptWords}`, source: !plan.lb_keeps_client, destination: true },
    hop: 1,
  });

  if (shape === 'pods') {
    reply({ from: 'Pod', to: lbName, source: pod, destination: lbSource, rewrite: { ...NOTHING, words: `the Pod answers the address it saw as the source${l7 ? `: ${the}'s own connection` : ''}` } });
    reply({ from: lbName, to: 'client', source: lb, destination: client, rewrite: lbAnswers });
    return { cloud: plan.cloud, mode: e.mode, steps, notes, unknown: null };
  }

  // On node 1: DNAT to a Pod (anywhere, with SNAT, under Cluster; on node 1 itself under Local).
  const podAt = cluster ? 'Pod on node 2' : 'Pod on node 1';
  const podSource: JourneyEndpoint = cluster ? { role: 'node 1', address: node1, port: example(EXAMPLE_PORTS.snat, "a port node 1's SNAT picks") } : lbSource;
  request({
    from: 'node 1',
    to: podAt,
    source: podSource,
    destination: pod,
    forwardedFor: xff,
    rewrite: cluster
      ? {
          kind: 'dnat+snat',
          by: `${who} on node 1`,
          words:
            `${who} on node 1: DNAT, the destination becomes a ready Pod it picks, here one on node 2; ` +
            "SNAT (externalTrafficPolicy: Cluster), the source becomes node 1's own address, so the reply comes back through node 1" +
            (plan.dataplane === 'cilium-ebpf'
              ? '; it SNATs because the Pod is on another node: a Pod on node 1 itself would see the source as it arrived'
              : '; it SNATs even when the Pod it picks is on node 1 itself'),
          source: true,
          destination: true,
        }
      : {
          kind: 'dnat',
          by: `${who} on node 1`,
          words:
            `${who} on node 1: DNAT to a Pod on node 1 itself (externalTrafficPolicy: Local: only local Pods, and the load balancer sends only to nodes whose health check says they have one); ` +
            'no SNAT, the source stays as it arrived; inside node 1, so no second hop',
          source: false,
          destination: true,
        },
    hop: cluster ? 2 : null,
  });
  reply({
    from: podAt,
    to: 'node 1',
    source: pod,
    destination: podSource,
    rewrite: {
      ...NOTHING,
      words: cluster ? 'the Pod answers the address it saw as the source: node 1' : 'the Pod answers the address it saw as the source; the reply leaves through node 1, where the DNAT was done',
    },
  });
  reply({
    from: 'node 1',
    to: passthrough ? 'client' : lbName,
    source: lbTarget,
    destination: lbSource,
    rewrite: {
      kind: 'undo',
      by: `${who} on node 1`,
      words:
        `connection tracking on node 1 undoes the ${cluster ? 'DNAT and the SNAT' : 'DNAT'}: the source becomes ${passthrough ? `${the}'s IP and port` : "node 1's address and NodePort"} again` +
        (cluster ? `, the destination ${lbSource.role === 'client' ? "the client's address" : `${the}'s own address`}` : '') +
        (passthrough ? "; a passthrough load balancer's replies go from the node straight to the client (direct server return), not back through it" : ''),
      source: true,
      destination: cluster,
    },
  });
  if (!passthrough) reply({ from: lbName, to: 'client', source: lb, destination: client, rewrite: lbAnswers });

  if (cluster) {
    notes.push(
      plan.dataplane === 'cilium-ebpf'
        ? `The worst case is shown: the Pod on another node. When node 1 serves the request with a Pod of its own, ${who} does not SNAT, and that Pod sees the source as it arrived.`
        : `The worst case is shown: the Pod on another node. When the Pod picked is on node 1 itself, the second stretch stays inside node 1, and ${who} still SNATs.`,
    );
  }
  return { cloud: plan.cloud, mode: e.mode, steps, notes, unknown: null };
}
