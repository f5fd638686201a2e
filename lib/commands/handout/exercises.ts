/**
 * The handout's exercises, as a teacher edits them: plain data, no logic.
 * Each exercise has an id, a title, the lesson in one sentence, its steps
 * (what to say, the command to run), what the reply or the cluster shows that
 * confirms it, which commands measure it, and whether only the host can do it.
 * When an exercise is handed out, and against which exposure, is decided in
 * handout-model.ts; the words are here.
 *
 * `{{name}}` is filled in for each attendee:
 * - `{{ns}}` the app's namespace, `{{deployment}}` the demo app's Deployment,
 *   `{{replicas}}` the lab's replica count, `{{debug-image}}` the node-debugging image;
 * - `{{mode}}` the exposure the exercise is about, `{{cloud}}` its cloud's name,
 *   `{{svc}}` its Service, `{{curl}}` the curl line that asks it who you are;
 * - `{{native-curl}}` (extra-hop), `{{gate}}` (readiness-gates), `{{dataplane}}`
 *   and `{{effect}}` (datapath), as said there.
 * Other braces are left as they are (`kubectl patch` JSON, jsonpath).
 *
 * Where the words differ by case (whether nodeport-l4 is deployed, the
 * datapath, the cloud), `steps` or `observe` is a table by that case.
 */

/** A command to run, with what it is for. */
export interface ExerciseStep {
  readonly say: string;
  readonly command?: string;
}

/** What measures an exercise: `compare --probe` of the attendee's outputs, or `watch` of its exposure. */
export type Measure = 'compare' | 'watch';

export interface ExerciseText {
  /** Stable: other code and tests name an exercise by it. */
  readonly id: string;
  readonly title: string;
  /** The lesson in one sentence. */
  readonly lesson: string;
  /** The steps, or a table of them by case (see each exercise). */
  readonly steps: readonly ExerciseStep[] | Readonly<Record<string, readonly ExerciseStep[]>>;
  /** What the reply or the cluster shows that confirms it, or a table of it by case. */
  readonly observe: string | Readonly<Record<string, string>>;
  /** The commands that measure it, where traffic shows it. */
  readonly measure: readonly Measure[];
  /** Only the host can do it (the attendee's role does not reach it): it is shown on the projector. @default false */
  readonly hostOnly?: boolean;
}

const DEBUG_NODE = 'kubectl debug node/<node> -n {{ns}} -it --profile=sysadmin --image={{debug-image}}';
const OPEN_NODE_SHELL: ExerciseStep = { say: 'Open a shell on a node (the node list: kubectl get nodes):', command: DEBUG_NODE };
const CONNTRACK: ExerciseStep = {
  say: 'And the connections the node is tracking for it (while you curl):',
  command: 'conntrack -L -p tcp --dport <node port>   # or: conntrack -L | grep <your address>',
};
const HUBBLE_FLOWS = 'hubble observe --namespace {{ns}} --follow';

/** SNAT on a NodePort path. Steps by case: `nodeport-l4` deployed, or only `nodeport-local` (flipped to Cluster and back). */
export const SNAT: ExerciseText = {
  id: 'snat',
  title: 'SNAT on a NodePort path: your address is gone ({{mode}}, {{cloud}})',
  lesson: 'A passthrough load balancer to node ports with externalTrafficPolicy Cluster lets the receiving node forward to a Pod elsewhere, and it rewrites the source to its own address to do it.',
  steps: {
    'nodeport-l4': [{ say: 'Ask the nodeport-l4 exposure who you are:', command: '{{curl}}' }],
    'nodeport-local': [
      {
        say: 'nodeport-l4 is not deployed in this lab; make nodeport-local behave like it: flip its Service to Cluster.',
        command: `kubectl -n {{ns}} patch service {{svc}} -p '{"spec":{"externalTrafficPolicy":"Cluster"}}'`,
      },
      { say: 'Ask it who you are:', command: '{{curl}}' },
      { say: 'Flip it back:', command: `kubectl -n {{ns}} patch service {{svc}} -p '{"spec":{"externalTrafficPolicy":"Local"}}'` },
    ],
  },
  observe: '`client_address` is a node address (10.x), not your public address, and no `x-forwarded-for`: the client IP is lost. Back on Local it is yours again.',
  measure: ['compare', 'watch'],
};

/** nodeport-local's health checks. */
export const LOCAL_HEALTH_CHECK: ExerciseText = {
  id: 'local-health-check',
  title: 'nodeport-local: nodes without a Pod fail the health check ({{cloud}})',
  lesson:
    "With externalTrafficPolicy Local a node answers the load balancer's health check (the Service's healthCheckNodePort) only while it runs a ready Pod, so the load balancer stops sending to the others.",
  steps: [
    { say: 'See where the Pods run:', command: 'kubectl -n {{ns}} get pods -o wide' },
    { say: 'Scale down to one Pod:', command: 'kubectl -n {{ns}} scale deployment {{deployment}} --replicas=1' },
    { say: 'Send requests and look at the node names:', command: '{{curl}}' },
    { say: "Scale back to the lab's replica count:", command: 'kubectl -n {{ns}} scale deployment {{deployment}} --replicas={{replicas}}' },
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
    { say: 'Start a rollout:', command: 'kubectl -n {{ns}} rollout restart deployment {{deployment}}' },
    { say: 'Watch the Pods: READINESS GATES shows 0/1 for a while after the container is running:', command: 'kubectl -n {{ns}} get pods -o wide -w' },
    { say: "Read a new Pod's conditions (the gate {{gate}}):", command: `kubectl -n {{ns}} get pod <new pod> -o jsonpath='{range .status.conditions[*]}{.type}={.status}{"\\n"}{end}'` },
  ],
  observe: "The gate's condition is False, then True once the target is healthy; only then does the old Pod go. Requests keep succeeding through the whole rollout.",
  measure: ['watch'],
};

/** The extra hop of NodePort paths: about the nodeport exposure, against native (`{{native-curl}}`). */
export const EXTRA_HOP: ExerciseText = {
  id: 'extra-hop',
  title: 'The extra hop of NodePort paths (native against nodeport)',
  lesson: 'Targeting node ports adds a hop: the load balancer sends to any node, and kube-proxy (or eBPF) sends on to a Pod, often on another node. Targeting Pods skips it.',
  steps: [
    { say: 'Ask the native exposure a few times:', command: '{{native-curl}}' },
    { say: 'Then the nodeport exposure:', command: '{{curl}}' },
  ],
  observe: "Both spread over the Pods; compare shows the nodeport path's replies often come from a Pod on another node than the one the load balancer chose, and a slightly higher p50.",
  measure: ['compare', 'watch'],
};

/** Draining a node while traffic flows. */
export const DRAIN: ExerciseText = {
  id: 'drain',
  title: 'Drain a node while traffic flows',
  lesson: "Draining evicts the node's Pods through the Eviction API (respecting the PodDisruptionBudget) after cordoning it; what the clients see depends on how fast each load balancer notices.",
  steps: [
    { say: 'Pick a node that runs a Pod:', command: 'kubectl -n {{ns}} get pods -o wide' },
    { say: 'Drain it (your role allows cordon and drain on your own cluster):', command: 'kubectl drain <node> --ignore-daemonsets --delete-emptydir-data' },
    { say: 'Put it back:', command: 'kubectl uncordon <node>' },
  ],
  observe: 'The Pods move to other nodes; the exposures that target Pods keep answering; a NodePort exposure may show errors until the load balancer marks the drained node out.',
  measure: ['watch'],
};

/** What the datapath does, when the plan does not say (`{{effect}}`). */
export const DEFAULT_DATAPATH_EFFECT = 'whoever handles Service traffic on the node does the DNAT to a Pod and, on Cluster, the SNAT';

/** The datapath seen from inside a node. Steps and observe by the cluster's dataplane (`{{dataplane}}`); `unknown` for any other. */
export const DATAPATH: ExerciseText = {
  id: 'datapath',
  title: 'The datapath in {{cloud}}: {{dataplane}} ({{mode}})',
  lesson: 'What the datapath does to this path: {{effect}}.',
  steps: {
    'kube-proxy-iptables': [OPEN_NODE_SHELL, { say: "Read kube-proxy's rules for the Service:", command: 'iptables-save | grep {{svc}}' }, CONNTRACK],
    'kube-proxy-nftables': [OPEN_NODE_SHELL, { say: "Read kube-proxy's nftables rules for the Service:", command: 'nft list table ip kube-proxy | grep -B2 -A6 {{svc}}' }, CONNTRACK],
    'kube-proxy-ipvs': [
      OPEN_NODE_SHELL,
      { say: 'The virtual server for the node port and its real servers (the Pods):', command: 'ipvsadm -Ln' },
      { say: 'The masquerade rules kube-proxy keeps beside IPVS:', command: 'iptables-save | grep -E "KUBE-(MARK-MASQ|NODE-PORT|POSTROUTING)"' },
      CONNTRACK,
    ],
    'cilium-ebpf': [
      {
        say: "Service handling is in eBPF, not in iptables: the node shows no KUBE-* rules for it. The host can list the datapath's load-balancing table (you have no exec in kube-system):",
        command: 'kubectl -n kube-system exec ds/cilium -- cilium-dbg bpf lb list   # GKE Dataplane V2: ds/anetd, cilium bpf lb list',
      },
      { say: 'On a node, conntrack shows nothing for the Service either:', command: DEBUG_NODE },
    ],
    unknown: [
      { say: "Open a shell on a node and look for the Service in the node's rules:", command: DEBUG_NODE },
      { say: 'Then:', command: 'iptables-save | grep {{svc}}; nft list ruleset | grep {{svc}}; ipvsadm -Ln' },
      CONNTRACK,
    ],
  },
  observe: {
    'kube-proxy-iptables':
      'KUBE-SVC/KUBE-SEP chains ending in a DNAT to a Pod address; on a Cluster Service a KUBE-MARK-MASQ rule (packets from outside are marked for MASQUERADE, the SNAT); on a Local Service no mark, and KUBE-XLB/EXT chains that send only to Pods on this node.',
    'kube-proxy-nftables':
      "A service chain with a `dnat to` a Pod address per endpoint; on a Cluster Service a jump to mark-for-masquerade (the SNAT); on a Local Service none, and only this node's Pods as endpoints.",
    'kube-proxy-ipvs':
      "For the node port, a virtual server with every Pod as a real server (Cluster) or only this node's Pods (Local); the KUBE-MARK-MASQ rules that SNAT Cluster traffic, none for Local.",
    'cilium-ebpf': 'The node port maps to the Pod addresses in the eBPF table; `iptables-save | grep KUBE-SVC` on a node finds nothing for the Service.',
    unknown: 'The DNAT to a Pod address; the MASQUERADE mark on a Cluster Service; its absence on a Local one.',
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
      { say: 'The host forwards Hubble Relay (in kube-system, where you have no port-forward) to localhost:4245, with the cilium CLI:', command: 'cilium hubble port-forward &' },
      { say: 'Then follows the flows of namespace {{ns}} (add --verdict DROPPED, --pod {{ns}}/<pod> or --all):', command: HUBBLE_FLOWS },
      { say: 'Or opens the Hubble UI on http://localhost:12000:', command: 'kubectl -n kube-system port-forward svc/hubble-ui 12000:80' },
      { say: 'Meanwhile, send requests through the exposure:', command: '{{curl}}' },
    ],
    gcp: [
      {
        say: 'The host follows the flows of namespace {{ns}} with the hubble CLI inside the managed relay (namespace gke-managed-dpv2-observability, where you have no exec):',
        command: `kubectl -n gke-managed-dpv2-observability exec -it deployment/hubble-relay -c hubble-cli -- ${HUBBLE_FLOWS}`,
      },
      { say: 'Meanwhile, send requests through the exposure:', command: '{{curl}}' },
    ],
  },
  observe:
    'One flow per request to the {{deployment}} Pods in namespace {{ns}}, FORWARDED, with the source the Pod sees: a node address on a Cluster NodePort path (the SNAT), your address where the path keeps it; with `--all` the Service translation (pre-xlate-fwd, then post-xlate-fwd TRANSLATED) to the Pod; DROPPED flows while a node has no Pod or a Pod is not ready.',
  measure: ['watch'],
  hostOnly: true,
};

/** Every exercise, in the order a handout lists them. */
export const EXERCISES: readonly ExerciseText[] = [SNAT, LOCAL_HEALTH_CHECK, READINESS_GATES_EXERCISE, EXTRA_HOP, DRAIN, DATAPATH, HUBBLE];
