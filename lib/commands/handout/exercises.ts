/**
 * The handout's exercises, as a teacher edits them: plain data, no logic.
 * Each exercise has an id, a title, the lesson in one sentence, its steps
 * (`step(what to say, the command to run)`, or `hostStep(…)` for one only the
 * host runs), what the reply or the cluster shows that confirms it, which
 * commands measure it, and whether the host leads it. When an exercise is handed out, and against
 * which exposure, is decided in handout-model.ts; the words are here.
 *
 * `{{name}}` is filled in for each attendee:
 * - `{{ns}}` the app's namespace, `{{deployment}}` the demo app's Deployment,
 *   `{{replicas}}` the lab's replica count, `{{port}}` the app's container port;
 * - `{{mode}}` the exposure the exercise is about, `{{cloud}}` its cloud's name,
 *   `{{svc}}` its Service, `{{curl}}` the curl line that asks it who you are;
 * - `{{reply}}` (snat): what the reply shows on a Cluster NodePort path at layer 4,
 *   the same sentence as the exposure's "the reply shows" (handout-model.ts expectedReply);
 * - `{{native-curl}}` (extra-hop), `{{gate}}` (readiness-gates), `{{dataplane}}`
 *   and `{{effect}}` (datapath), as said there;
 * - `{{inspector}}`, `{{inspector-node}}`, `{{inspector-sections}}` and
 *   `{{inspector-interval}}` (datapath): the `kubectl logs` commands that read the
 *   datapath inspector (lib/model/inspector.ts) for every node and for one, what
 *   its dump holds on this datapath, and how often it prints.
 * Other braces are left as they are (`kubectl patch` JSON, jsonpath).
 *
 * Where the words differ by case (whether nodeport-l4 is deployed, the
 * datapath, the cloud), a title, lesson, `steps` or `observe` is a table by
 * that case; an exercise is handed out with its cases (for example
 * `nodeport-l4` and `cilium`), and each table takes the one of its keys among them.
 */

/** A command to run, with what it is for. */
export interface ExerciseStep {
  readonly say: string;
  readonly command?: string;
  /** Only the host runs it (the attendee's role does not reach it, or it needs the host's checkout): marked so in the handout. @default false */
  readonly hostOnly?: boolean;
}

/** What measures an exercise: `compare --probe` of the attendee's outputs, or `watch` of its exposure. */
export type Measure = 'compare' | 'watch';

/** One text, or a table of it by case. */
export type ByCase<T> = T | Readonly<Record<string, T>>;

export interface ExerciseText {
  /** Stable: other code and tests name an exercise by it. */
  readonly id: string;
  readonly title: ByCase<string>;
  /** The lesson in one sentence. */
  readonly lesson: ByCase<string>;
  /** The steps, or a table of them by case (see each exercise). */
  readonly steps: ByCase<readonly ExerciseStep[]>;
  /** What the reply or the cluster shows that confirms it, or a table of it by case. */
  readonly observe: ByCase<string>;
  /** The commands that measure it, where traffic shows it. */
  readonly measure: readonly Measure[];
  /** The host leads it on the projector (its main steps are the host's): marked so in the handout. @default false */
  readonly hostOnly?: boolean;
}

/** A step: what to say, then the command to run. */
const step = (say: string, command: string): ExerciseStep => ({ say, command });

/** A step only the host runs (ExerciseStep.hostOnly). */
const hostStep = (say: string, command: string): ExerciseStep => ({ say, command, hostOnly: true });

const HUBBLE_FLOWS = 'hubble observe --namespace {{ns}} --follow';

/**
 * SNAT on a NodePort path. Steps by setup: `nodeport-l4` deployed, or only
 * `nodeport-local` (flipped to Cluster and back). Title and lesson by datapath:
 * kube-proxy SNATs every request of a Cluster NodePort, Cilium (EKS's kube-proxy
 * replacement, GKE Dataplane V2) only those it sends to a Pod on another node
 * (docs/datapaths.md), `any-datapath` where the handout does not know which.
 */
export const SNAT: ExerciseText = {
  id: 'snat',
  title: {
    'kube-proxy': 'SNAT on a NodePort path: your address is gone ({{mode}}, {{cloud}})',
    cilium: 'SNAT on a NodePort path: your address is gone when the Pod is on another node ({{mode}}, {{cloud}})',
    'any-datapath': "SNAT on a NodePort path: a node's address instead of yours ({{mode}}, {{cloud}})",
  },
  lesson: {
    'kube-proxy':
      "A passthrough load balancer to node ports with externalTrafficPolicy Cluster lets the receiving node forward to a Pod elsewhere, and kube-proxy rewrites the source to the node's own address to do it, even when the Pod it picks is on that node.",
    cilium:
      "A passthrough load balancer to node ports with externalTrafficPolicy Cluster lets the receiving node forward to a Pod elsewhere; Cilium's eBPF rewrites the source to the node's own address only when the Pod it picks is on another node, so the requests that land on the Pod's own node keep your address.",
    'any-datapath':
      'A passthrough load balancer to node ports with externalTrafficPolicy Cluster lets the receiving node forward to a Pod elsewhere, and the node rewrites the source to its own address to do it (kube-proxy for every request, Cilium only when the Pod is on another node).',
  },
  steps: {
    'nodeport-l4': [step('Ask the nodeport-l4 exposure who you are:', '{{curl}}')],
    'nodeport-local': [
      step(
        'nodeport-l4 is not deployed in this lab; make nodeport-local behave like it: flip its Service to Cluster.',
        `kubectl -n {{ns}} patch service {{svc}} -p '{"spec":{"externalTrafficPolicy":"Cluster"}}'`,
      ),
      step('Ask it who you are:', '{{curl}}'),
      step('Flip it back:', `kubectl -n {{ns}} patch service {{svc}} -p '{"spec":{"externalTrafficPolicy":"Local"}}'`),
    ],
  },
  observe: {
    'nodeport-l4': '{{reply}}',
    'nodeport-local': '{{reply}} Back on Local, `client_address` is your public address again.',
  },
  measure: ['compare', 'watch'],
};

/** nodeport-local's health checks. */
export const LOCAL_HEALTH_CHECK: ExerciseText = {
  id: 'local-health-check',
  title: 'nodeport-local: nodes without a Pod fail the health check ({{cloud}})',
  lesson:
    "With externalTrafficPolicy Local a node answers the load balancer's health check (the Service's healthCheckNodePort) only while it runs a ready Pod, so the load balancer stops sending to the others.",
  steps: [
    step('See where the Pods run:', 'kubectl -n {{ns}} get pods -o wide'),
    step('Scale down to one Pod:', 'kubectl -n {{ns}} scale deployment {{deployment}} --replicas=1'),
    step('Send requests and look at the node names:', '{{curl}}'),
    step("Scale back to the lab's replica count:", 'kubectl -n {{ns}} scale deployment {{deployment}} --replicas={{replicas}}'),
  ],
  observe:
    "Every reply names the one node that has the Pod; your address stays in `client_address`. The load balancer's target health shows the other nodes unhealthy (that is the health check failing, by design), and no request fails once they are out.",
  measure: ['watch'],
};

/** The readiness gate a load balancer that targets Pods sets on them, by cloud (`{{gate}}`). */
export const READINESS_GATES = { aws: 'target-health.elbv2.k8s.aws/…', gcp: 'cloud.google.com/load-balancer-neg-ready' } as const;

/** Readiness gates during a rollout (Pod targets: the native exposure). */
export const READINESS_GATES_EXERCISE: ExerciseText = {
  id: 'readiness-gates',
  title: 'Readiness gates hold a Pod out during a rollout (native, {{cloud}})',
  lesson:
    'When the load balancer targets Pods, a new Pod is not Ready until the load balancer has registered it and finds it healthy (a readiness gate), so a rollout never runs ahead of the load balancer.',
  steps: [
    step('Start a rollout:', 'kubectl -n {{ns}} rollout restart deployment {{deployment}}'),
    step('Watch the Pods: READINESS GATES shows 0/1 for a while after the container is running:', 'kubectl -n {{ns}} get pods -o wide -w'),
    step("Read a new Pod's conditions (the gate {{gate}}):", `kubectl -n {{ns}} get pod <new pod> -o jsonpath='{range .status.conditions[*]}{.type}={.status}{"\\n"}{end}'`),
  ],
  observe: "The gate's condition is False, then True once the target is healthy; only then does the old Pod go. Requests keep succeeding through the whole rollout.",
  measure: ['watch'],
};

/** The extra hop of NodePort paths: about the nodeport exposure, against native (`{{native-curl}}`). */
export const EXTRA_HOP: ExerciseText = {
  id: 'extra-hop',
  title: 'The extra hop of NodePort paths (native against nodeport)',
  lesson: 'Targeting node ports adds a hop: the load balancer sends to any node, and kube-proxy (or eBPF) sends on to a Pod, often on another node. Targeting Pods skips it.',
  steps: [step('Ask the native exposure a few times:', '{{native-curl}}'), step('Then the nodeport exposure:', '{{curl}}')],
  observe: "Both spread over the Pods; compare shows the nodeport path's replies often come from a Pod on another node than the one the load balancer chose, and a slightly higher p50.",
  measure: ['compare', 'watch'],
};

/**
 * Draining a node while traffic flows. The evicted Pod does not wait Pending: the demo app's zone spread
 * (lib/constructs/k8s/demo-app.ts) counts only nodes whose taints it tolerates (`nodeTaintsPolicy: Honor`),
 * and cordoning taints the node `node.kubernetes.io/unschedulable`, so a zone whose one node is drained drops out of the count.
 */
export const DRAIN: ExerciseText = {
  id: 'drain',
  title: 'Drain a node while traffic flows',
  lesson: "Draining evicts the node's Pods through the Eviction API (respecting the PodDisruptionBudget) after cordoning it; what the clients see depends on how fast each load balancer notices.",
  steps: [
    step('Pick a node that runs a Pod:', 'kubectl -n {{ns}} get pods -o wide'),
    step('Drain it (your role allows cordon and drain on your own cluster):', 'kubectl drain <node> --ignore-daemonsets --delete-emptydir-data'),
    step('See where the evicted Pod went:', 'kubectl -n {{ns}} get pods -o wide'),
    step('Put the node back:', 'kubectl uncordon <node>'),
  ],
  observe:
    "The evicted Pod starts on another node, in another zone if the drained node was its zone's only one: the app's zone spread leaves out nodes that are cordoned (it honours their taint), so the Pod does not wait Pending for the drained node. The exposures that target Pods keep answering; a NodePort exposure may show errors until the load balancer marks the drained node out. Uncordoning does not move the Pod back.",
  measure: ['watch'],
};

/** What the datapath does, when the plan does not say (`{{effect}}`). */
export const DEFAULT_DATAPATH_EFFECT = 'whoever handles Service traffic on the node does the DNAT to a Pod and, on Cluster, the SNAT';

/** What the inspector's dump holds when the handout does not know the datapath (`{{inspector-sections}}`). */
export const UNKNOWN_INSPECTOR_SECTIONS = 'what this datapath shows (the handout does not know which datapath the cluster runs)';

/** The connection tracking part of a dump (kube-proxy datapaths), in the observe's words. */
const CONNTRACK_SEEN =
  "In the connection tracking part, one line per connection of port {{port}}: first as it arrived (`src=` your address or the load balancer's, `dport=` the node port), then the reply (`src=` the Pod's address, `sport={{port}}`, and `dst=` the node's own address where the node SNATed, the original source where it did not).";

/**
 * The datapath seen from inside a node, through the datapath inspector's log
 * (lib/model/inspector.ts: a read-only DaemonSet of the host's stack; attendees
 * need no root on the node, which Pod Security baseline refuses them in `hoplab`).
 * Observe by the cluster's dataplane (`{{dataplane}}`), in the words of what a
 * dump prints there; `unknown` for any other.
 */
export const DATAPATH: ExerciseText = {
  id: 'datapath',
  title: 'The datapath in {{cloud}}: {{dataplane}} ({{mode}})',
  lesson: 'What the datapath does to this path: {{effect}}.',
  steps: [
    step('See which nodes run a Pod:', 'kubectl -n {{ns}} get pods -o wide'),
    step('Send a few requests, so the nodes have connections to show:', '{{curl}}'),
    step(
      "Read the datapath inspector: a read-only DaemonSet the host's stack runs on every node prints there, every {{inspector-interval}} seconds, what the node's datapath does with the {{ns}} Services. A dump holds {{inspector-sections}}. The latest dump of every node, each line prefixed with its Pod:",
      '{{inspector}}',
    ),
    step('Or the latest dump of one node (a name from kubectl get nodes):', '{{inspector-node}}'),
  ],
  observe: {
    'kube-proxy-iptables':
      "In the NAT rules, the lines of `{{ns}}/{{svc}}`: the node port (KUBE-NODEPORTS) jumps to the Service's external chain (KUBE-EXT-…). On a Cluster Service that chain marks your packets for masquerade (`masquerade traffic for … external destinations`, KUBE-MARK-MASQ), and the KUBE-SVC-… chain picks one Pod's KUBE-SEP-… chain at random; on a Local Service it marks only the node's own traffic (`--src-type LOCAL`), and the KUBE-SVL-… lines list this node's Pods only. Each KUBE-SEP-… chain ends in `DNAT --to-destination <Pod address>:{{port}}`, and KUBE-POSTROUTING's MASQUERADE rewrites the source of marked packets to the node's address: the SNAT. " +
      CONNTRACK_SEEN,
    'kube-proxy-nftables':
      "The rules part says they are not shown: kube-proxy's nftables mode keeps them in a native nftables table, and the inspector's image has no nft. The translation shows all the same. " +
      CONNTRACK_SEEN,
    'kube-proxy-ipvs':
      "In the IPVS part, each virtual server (address and port in hex, as the kernel lists them; the part's title says how port {{port}} is written) with its real servers, the Pods: the Service's cluster address lists every Pod; its node port every Pod on a Cluster Service, only this node's on a Local one, and nothing on a node without a Pod. The NAT rules part holds the shared SNAT chains (KUBE-MARK-MASQ, KUBE-POSTROUTING's MASQUERADE); which node-port packets they mark is kept in ipsets the dump does not print. " +
      CONNTRACK_SEEN,
    'cilium-ebpf':
      "In Cilium's Service table, the entries whose backends are the app's Pods: the Service's cluster address and `0.0.0.0:<node port>` of type NodePort, each with its backends `<Pod address>:{{port}}/TCP`. That table is the DNAT, done in eBPF: there is no NAT rules or connection tracking part, as no kube-proxy writes any. The SNAT is not in the table either: Cilium rewrites the source only when it sends a request to a Pod on another node.",
    unknown:
      "The DNAT to a Pod address (a rule, an IPVS real server or a Service table backend); a masquerade mark on a Cluster Service and none on a Local one; in connection tracking, the reply's `dst=` is the node's own address where the node SNATed.",
  },
  measure: ['watch'],
};

/**
 * Flows inside the cluster with Hubble (docs/datapaths.md, "Flows inside the cluster: Hubble"). Steps by cloud:
 * Relay and UI live outside namespace hoplab, where attendees have no port-forward or exec: the host runs these on the projector.
 */
export const HUBBLE: ExerciseText = {
  id: 'hubble',
  title: 'Flows inside the cluster in {{cloud}}: Hubble ({{mode}})',
  lesson:
    'Hubble shows each connection as the eBPF datapath handled it: which node it entered, the translation of the Service address to a Pod, and where it was forwarded or dropped, so the path is seen from inside, not only from the client.',
  steps: {
    aws: [
      hostStep('The host forwards Hubble Relay (in kube-system, where you have no port-forward) to localhost:4245, with the cilium CLI:', 'cilium hubble port-forward &'),
      hostStep('Then follows the flows of namespace {{ns}} (add --verdict DROPPED, --pod {{ns}}/<pod> or --all):', HUBBLE_FLOWS),
      hostStep('Or opens the Hubble UI on http://localhost:12000:', 'kubectl -n kube-system port-forward svc/hubble-ui 12000:80'),
      step('Meanwhile, send requests through the exposure:', '{{curl}}'),
    ],
    gcp: [
      hostStep(
        'The host follows the flows of namespace {{ns}} with the hubble CLI inside the managed relay (namespace gke-managed-dpv2-observability, where you have no exec):',
        `kubectl -n gke-managed-dpv2-observability exec -it deployment/hubble-relay -c hubble-cli -- ${HUBBLE_FLOWS}`,
      ),
      step('Meanwhile, send requests through the exposure:', '{{curl}}'),
    ],
  },
  observe:
    'One flow per request to the {{deployment}} Pods in namespace {{ns}}, FORWARDED, with the source the Pod sees: a node address on a Cluster NodePort path (the SNAT), your address where the path keeps it; with `--all` the Service translation (pre-xlate-fwd, then post-xlate-fwd TRANSLATED) to the Pod; DROPPED flows while a node has no Pod or a Pod is not ready.',
  measure: ['watch'],
  hostOnly: true,
};

/** Every exercise, in the order a handout lists them. */
export const EXERCISES: readonly ExerciseText[] = [SNAT, LOCAL_HEALTH_CHECK, READINESS_GATES_EXERCISE, EXTRA_HOP, DRAIN, DATAPATH, HUBBLE];
