/**
 * What one attendee's handout says, from the deployed stacks' outputs (URLs,
 * clusters), the synthesized plan (each exposure's path, for the pictures and
 * the datapath) and the config (the attendee's identities, the GCP project).
 * Rendered to Markdown and HTML by render-handout.ts.
 */
import { AttendeeIdentities } from '../../config/attendees';
import { Cloud } from '../../model/contract';
import { APP_NAMESPACE } from '../../model/names';
import { isRefusal, parseGcpMember, parseIamPrincipal } from '../../model/identities';
import { EnvironmentOutputs, ExposureInfo } from '../../lab/files/outputs';
import { EnvironmentExplanation, ExposureExplanation } from '../../lab/anatomy/model';

/** The demo app's Deployment (lib/constructs/k8s/demo-app.ts). */
export const DEMO_DEPLOYMENT = 'echo';
/** An image with iptables, nft, ipvsadm and conntrack, for `kubectl debug node/...`. */
export const DEBUG_IMAGE = 'nicolaka/netshoot';

export const CLOUD_NAMES: Readonly<Record<Cloud, string>> = { aws: 'AWS (EKS)', gcp: 'Google Cloud (GKE)' };

/** A command to run, with what it is for. */
export interface Step {
  readonly say: string;
  readonly command?: string;
}

export interface HandoutCluster {
  readonly cloud: Cloud;
  readonly clusterName: string | null;
  /** How the attendee gets kubectl access to it, in order. */
  readonly access: readonly Step[];
  /** Who handles Service traffic on the nodes (`kube-proxy-iptables`, ..., `cilium-ebpf`), from the outputs. */
  readonly dataplane: string | null;
}

export interface HandoutExposure {
  readonly cloud: Cloud;
  readonly mode: string;
  readonly url: string | null;
  readonly info: ExposureInfo;
  /** From the synthesized plan; draws the picture. */
  readonly explanation: ExposureExplanation | null;
  readonly curl: string | null;
  /** What the reply shows: `client_address` and `X-Forwarded-For`. */
  readonly expect: string;
  readonly why: string;
}

export interface Exercise {
  readonly title: string;
  /** The lesson in one sentence. */
  readonly lesson: string;
  readonly steps: readonly Step[];
  /** What confirms it. */
  readonly observe: string;
  /** The `compare` or `watch` command that measures it, where traffic shows it. */
  readonly measure: readonly string[];
}

export interface Handout {
  readonly env: string;
  /** The attendee and their identities; unset for an environment that is not an attendee's (a single-environment lab). */
  readonly attendee?: AttendeeIdentities;
  readonly clusters: readonly HandoutCluster[];
  readonly exposures: readonly HandoutExposure[];
  readonly exercises: readonly Exercise[];
  /** Things the attendee should know (missing outputs, no identity). */
  readonly notes: readonly string[];
}

/** Where the handout's facts come from, beside the environment's outputs. */
export interface HandoutSources {
  readonly outputs: EnvironmentOutputs;
  readonly attendee?: AttendeeIdentities;
  readonly explanation?: EnvironmentExplanation;
  /** The GCP project (config `gcp.project`). */
  readonly gcpProject: string;
  /** Zone or region of the GKE cluster (the `cluster_location` output, else from the config). */
  readonly gkeLocation: string;
  /**
   * Whether the cluster shows flows with Hubble: config `aws.cilium.hubble` with `aws.datapath: "cilium"`,
   * `gcp.observability` with `gcp.datapath: "dataplane-v2"` (no stack output says so).
   * @default - off on both clouds
   */
  readonly hubble?: Readonly<Record<Cloud, boolean>>;
  /** The outputs file the attendee's `compare` command names. @default - none: compare collects the outputs itself */
  readonly outputsFile?: string;
  /** The demo app's replica count (config `app.replicas`), to scale back to. */
  readonly replicas: number;
}

function awsAccess(env: string, cluster: string, region: string, attendee?: AttendeeIdentities): Step[] {
  const base = `aws eks update-kubeconfig --name ${cluster} --region ${region} --alias ${env}-eks`;
  if (!attendee?.aws) {
    return [{ say: 'You have no AWS identity in this workshop: the host runs kubectl on EKS for you (or adds `aws: <your role ARN>` to your attendee entry and deploys again).' }];
  }
  const principal = parseIamPrincipal(attendee.aws);
  if (!isRefusal(principal) && principal.kind === 'role') {
    return [
      { say: `Your access entry is for the IAM role ${attendee.aws}. With credentials allowed to assume it:`, command: `${base} --role-arn ${attendee.aws}` },
      { say: 'Or, with an AWS CLI profile that is that role (SSO or `role_arn` in ~/.aws/config), the same without --role-arn:', command: `${base} --profile <your profile>` },
    ];
  }
  return [{ say: `Your access entry is for the IAM user ${attendee.aws}. With that user's credentials (e.g. a profile):`, command: `${base} --profile <your profile>` }];
}

function gcpAccess(cluster: string, location: string, project: string, attendee?: AttendeeIdentities): Step[] {
  const base = `gcloud container clusters get-credentials ${cluster} --location ${location} --project ${project}`;
  if (!attendee?.gcp) {
    return [{ say: 'You have no Google identity in this workshop: the host runs kubectl on GKE for you (or adds `gcp: user:<your email>` to your attendee entry and deploys again).' }];
  }
  const member = parseGcpMember(attendee.gcp);
  const email = isRefusal(member) ? attendee.gcp : member.email;
  const signIn = !isRefusal(member) && member.kind === 'serviceAccount' ? `gcloud config set auth/impersonate_service_account ${email}` : `gcloud auth login ${email}`;
  return [
    { say: `Sign in as ${email} (your project role is Kubernetes Engine Cluster Viewer: enough to fetch credentials, nothing more):`, command: signIn },
    { say: 'Then fetch credentials for your cluster:', command: base },
  ];
}

const CHECK = 'kubectl auth can-i patch deployments -n hoplab   # yes; and "kubectl get nodes" works, "kubectl get secrets -A" does not';

function clusters(sources: HandoutSources): HandoutCluster[] {
  const { outputs, attendee } = sources;
  const out: HandoutCluster[] = [];
  const aws = outputs.clusters.aws;
  if (aws) {
    const access = aws.cluster_name && aws.region ? awsAccess(outputs.env, aws.cluster_name, aws.region, attendee) : [{ say: 'The cluster stack has no cluster_name or region output: ask the host.' }];
    out.push({ cloud: 'aws', clusterName: aws.cluster_name, dataplane: dataplaneOf(sources, 'aws'), access: attendee?.aws ? [...access, { say: 'Check what you may do:', command: CHECK }] : access });
  }
  const gcp = outputs.clusters.gcp;
  if (gcp) {
    const access = gcp.cluster_name ? gcpAccess(gcp.cluster_name, sources.gkeLocation, sources.gcpProject, attendee) : [{ say: 'The cluster stack has no cluster_name output: ask the host.' }];
    out.push({ cloud: 'gcp', clusterName: gcp.cluster_name, dataplane: dataplaneOf(sources, 'gcp'), access: attendee?.gcp ? [...access, { say: 'Check what you may do:', command: CHECK }] : access });
  }
  return out;
}

/** What the echo server's reply shows for an exposure, and why. */
export function expectedReply(info: Pick<ExposureInfo, 'client_ip_via' | 'lb_kind' | 'external_traffic_policy'>): { readonly expect: string; readonly why: string } {
  switch (info.client_ip_via) {
    case 'x-forwarded-for':
      return {
        expect: '`client_address` is an address of the load balancer (a proxy), not yours; `x-forwarded-for` ends with your public address.',
        why: 'A layer-7 load balancer ends your TCP connection and opens its own to the target; it hands your address on in the X-Forwarded-For header.',
      };
    case 'tcp-source':
      return {
        expect: '`client_address` is your public address; there is no `x-forwarded-for`.',
        why:
          info.external_traffic_policy === 'Local'
            ? 'A passthrough load balancer keeps your packets, and with externalTrafficPolicy Local the node hands them only to a Pod on itself, so nothing rewrites the source.'
            : 'A passthrough load balancer keeps your packets and delivers them to the Pod itself, so nothing rewrites the source.',
      };
    case 'none':
      return {
        expect: '`client_address` is a node address (in the VPC), not yours; there is no `x-forwarded-for`.',
        why: 'The node that receives the packet may send it to a Pod on another node; with externalTrafficPolicy Cluster it rewrites the source to its own address (SNAT) so the reply comes back through it. Your address is gone.',
      };
    default:
      return { expect: '`client_address` and `x-forwarded-for`: not known from the outputs.', why: 'The outputs do not say where the Pod finds the client address.' };
  }
}

function exposures(sources: HandoutSources): HandoutExposure[] {
  const out: HandoutExposure[] = [];
  for (const cloud of ['aws', 'gcp'] as const) {
    const explained = sources.explanation?.clouds.find((c) => c.cloud === cloud)?.exposures ?? [];
    for (const info of sources.outputs.exposures[cloud] ?? []) {
      out.push({
        cloud,
        mode: info.mode,
        url: info.url,
        info,
        explanation: explained.find((e) => e.mode === info.mode) ?? null,
        curl: info.url ? `curl -s ${info.url} | grep -Ei 'client_address|x-forwarded-for|node name|pod name'` : null,
        ...expectedReply(info),
      });
    }
  }
  return out;
}

/** The Service of an exposure, as kubectl names it (`Ingress echo-native -> Service echo-native`). */
function serviceName(exposure: HandoutExposure | undefined): string {
  const named = /Service (\S+)/.exec(exposure?.explanation?.kubernetes_objects ?? '');
  return named ? named[1] : `<the ${exposure?.mode ?? ''} Service: kubectl -n ${APP_NAMESPACE} get svc>`;
}

const watch = (env: string, mode: string) => `npm run watch -- --env ${env} --exposure ${mode} --rate 5 --duration 300`;

/** How to read a node's own rules for a Service, per dataplane. */
function datapathSteps(dataplane: string | null, svc: string): { steps: Step[]; observe: string } {
  const debug = `kubectl debug node/<node> -n ${APP_NAMESPACE} -it --profile=sysadmin --image=${DEBUG_IMAGE}`;
  const conntrack = { say: 'And the connections the node is tracking for it (while you curl):', command: 'conntrack -L -p tcp --dport <node port>   # or: conntrack -L | grep <your address>' };
  switch (dataplane) {
    case 'kube-proxy-iptables':
      return {
        steps: [
          { say: 'Open a shell on a node (the node list: kubectl get nodes):', command: debug },
          { say: "Read kube-proxy's rules for the Service:", command: `iptables-save | grep ${svc}` },
          conntrack,
        ],
        observe:
          'KUBE-SVC/KUBE-SEP chains ending in a DNAT to a Pod address; on a Cluster Service a KUBE-MARK-MASQ rule (packets from outside are marked for MASQUERADE, the SNAT); on a Local Service no mark, and KUBE-XLB/EXT chains that send only to Pods on this node.',
      };
    case 'kube-proxy-nftables':
      return {
        steps: [
          { say: 'Open a shell on a node (the node list: kubectl get nodes):', command: debug },
          { say: "Read kube-proxy's nftables rules for the Service:", command: `nft list table ip kube-proxy | grep -B2 -A6 ${svc}` },
          conntrack,
        ],
        observe:
          "A service chain with a `dnat to` a Pod address per endpoint; on a Cluster Service a jump to mark-for-masquerade (the SNAT); on a Local Service none, and only this node's Pods as endpoints.",
      };
    case 'kube-proxy-ipvs':
      return {
        steps: [
          { say: 'Open a shell on a node (the node list: kubectl get nodes):', command: debug },
          { say: 'The virtual server for the node port and its real servers (the Pods):', command: 'ipvsadm -Ln' },
          { say: 'The masquerade rules kube-proxy keeps beside IPVS:', command: 'iptables-save | grep -E "KUBE-(MARK-MASQ|NODE-PORT|POSTROUTING)"' },
          conntrack,
        ],
        observe: "For the node port, a virtual server with every Pod as a real server (Cluster) or only this node's Pods (Local); the KUBE-MARK-MASQ rules that SNAT Cluster traffic, none for Local.",
      };
    case 'cilium-ebpf':
      return {
        steps: [
          {
            say: "Service handling is in eBPF, not in iptables: the node shows no KUBE-* rules for it. The host can list the datapath's load-balancing table (you have no exec in kube-system):",
            command: 'kubectl -n kube-system exec ds/cilium -- cilium-dbg bpf lb list   # GKE Dataplane V2: ds/anetd, cilium bpf lb list',
          },
          { say: 'On a node, conntrack shows nothing for the Service either:', command: debug },
        ],
        observe: 'The node port maps to the Pod addresses in the eBPF table; `iptables-save | grep KUBE-SVC` on a node finds nothing for the Service.',
      };
    default:
      return {
        steps: [
          { say: "Open a shell on a node and look for the Service in the node's rules:", command: debug },
          { say: 'Then:', command: `iptables-save | grep ${svc}; nft list ruleset | grep ${svc}; ipvsadm -Ln` },
          conntrack,
        ],
        observe: 'The DNAT to a Pod address; the MASQUERADE mark on a Cluster Service; its absence on a Local one.',
      };
  }
}

function exercises(sources: HandoutSources, all: readonly HandoutExposure[]): Exercise[] {
  const env = sources.outputs.env;
  const ns = APP_NAMESPACE;
  const compare = `npm run compare -- ${sources.outputsFile ? `--outputs ${sources.outputsFile} ` : ''}--probe --my-ip <your public address>`;
  const out: Exercise[] = [];
  const clouds = clustersWithExposures(sources, all).map((c) => c.cloud);
  const mode = (cloud: Cloud, m: string) => all.find((e) => e.cloud === cloud && e.mode === m);
  const first = (m: string) => clouds.map((c) => mode(c, m)).find((e) => e !== undefined);

  // 1. SNAT: nodeport-l4 when deployed, else flip nodeport-local to Cluster.
  const l4 = first('nodeport-l4');
  const local = first('nodeport-local');
  if (l4 || local) {
    const target = l4 ?? local!;
    const svc = serviceName(target);
    out.push({
      title: `SNAT on a NodePort path: your address is gone (${target.mode}, ${CLOUD_NAMES[target.cloud]})`,
      lesson:
        'A passthrough load balancer to node ports with externalTrafficPolicy Cluster lets the receiving node forward to a Pod elsewhere, and it rewrites the source to its own address to do it.',
      steps: l4
        ? [{ say: 'Ask the nodeport-l4 exposure who you are:', command: l4.curl ?? `curl -s <${l4.mode} URL>` }]
        : [
            {
              say: 'nodeport-l4 is not deployed in this lab; make nodeport-local behave like it: flip its Service to Cluster.',
              command: `kubectl -n ${ns} patch service ${svc} -p '{"spec":{"externalTrafficPolicy":"Cluster"}}'`,
            },
            { say: 'Ask it who you are:', command: target.curl ?? `curl -s <${target.mode} URL>` },
            { say: 'Flip it back:', command: `kubectl -n ${ns} patch service ${svc} -p '{"spec":{"externalTrafficPolicy":"Local"}}'` },
          ],
      observe: '`client_address` is a node address (10.x), not your public address, and no `x-forwarded-for`: the client IP is lost. Back on Local it is yours again.',
      measure: [compare, watch(env, target.mode)],
    });
  }
  // 2. nodeport-local: health checks fail on nodes without a Pod.
  if (local) {
    out.push({
      title: `nodeport-local: nodes without a Pod fail the health check (${CLOUD_NAMES[local.cloud]})`,
      lesson:
        "With externalTrafficPolicy Local a node answers the load balancer's health check (the Service's healthCheckNodePort) only while it runs a ready Pod, so the load balancer stops sending to the others.",
      steps: [
        { say: 'See where the Pods run:', command: `kubectl -n ${ns} get pods -o wide` },
        { say: 'Scale down to one Pod:', command: `kubectl -n ${ns} scale deployment ${DEMO_DEPLOYMENT} --replicas=1` },
        { say: 'Send requests and look at the node names:', command: local.curl ?? `curl -s <${local.mode} URL>` },
        { say: "Scale back to the lab's replica count:", command: `kubectl -n ${ns} scale deployment ${DEMO_DEPLOYMENT} --replicas=${sources.replicas}` },
      ],
      observe:
        "Every reply names the one node that has the Pod; your address stays in `client_address`. The load balancer's target health shows the other nodes unhealthy (that is the health check failing, by design), and no request fails once they are out.",
      measure: [watch(env, local.mode)],
    });
  }
  // 3. Readiness gates during a rollout (Pod targets).
  const native = first('native');
  if (native) {
    const gate = native.cloud === 'aws' ? 'target-health.elbv2.k8s.aws/…' : 'cloud.google.com/load-balancer-neg-ready';
    out.push({
      title: `Readiness gates hold a Pod out during a rollout (native, ${CLOUD_NAMES[native.cloud]})`,
      lesson:
        'When the load balancer targets Pods, a new Pod is not Ready until the load balancer has registered it and finds it healthy (a readiness gate), so a rollout never runs ahead of the load balancer.',
      steps: [
        { say: 'Start a rollout:', command: `kubectl -n ${ns} rollout restart deployment ${DEMO_DEPLOYMENT}` },
        { say: 'Watch the Pods: READINESS GATES shows 0/1 for a while after the container is running:', command: `kubectl -n ${ns} get pods -o wide -w` },
        { say: `Read a new Pod's conditions (the gate ${gate}):`, command: `kubectl -n ${ns} get pod <new pod> -o jsonpath='{range .status.conditions[*]}{.type}={.status}{"\\n"}{end}'` },
      ],
      observe: "The gate's condition is False, then True once the target is healthy; only then does the old Pod go. Requests keep succeeding through the whole rollout.",
      measure: [watch(env, native.mode)],
    });
  }
  // 4. The extra hop of NodePort paths.
  const nodeport = first('nodeport');
  if (nodeport && native) {
    out.push({
      title: 'The extra hop of NodePort paths (native against nodeport)',
      lesson: 'Targeting node ports adds a hop: the load balancer sends to any node, and kube-proxy (or eBPF) sends on to a Pod, often on another node. Targeting Pods skips it.',
      steps: [
        { say: 'Ask the native exposure a few times:', command: native.curl ?? `curl -s <native URL>` },
        { say: 'Then the nodeport exposure:', command: nodeport.curl ?? `curl -s <nodeport URL>` },
      ],
      observe: "Both spread over the Pods; compare shows the nodeport path's replies often come from a Pod on another node than the one the load balancer chose, and a slightly higher p50.",
      measure: [compare, watch(env, nodeport.mode)],
    });
  }
  // 5. Drain a node.
  if (native || nodeport) {
    const m = (nodeport ?? native)!.mode;
    out.push({
      title: 'Drain a node while traffic flows',
      lesson: "Draining evicts the node's Pods through the Eviction API (respecting the PodDisruptionBudget) after cordoning it; what the clients see depends on how fast each load balancer notices.",
      steps: [
        { say: 'Pick a node that runs a Pod:', command: `kubectl -n ${ns} get pods -o wide` },
        { say: 'Drain it (your role allows cordon and drain on your own cluster):', command: 'kubectl drain <node> --ignore-daemonsets --delete-emptydir-data' },
        { say: 'Put it back:', command: 'kubectl uncordon <node>' },
      ],
      observe: 'The Pods move to other nodes; the exposures that target Pods keep answering; a NodePort exposure may show errors until the load balancer marks the drained node out.',
      measure: [watch(env, m)],
    });
  }
  // 6. The datapath, seen from inside a node.
  for (const cluster of clustersWithExposures(sources, all)) {
    const target = mode(cluster.cloud, 'nodeport-local') ?? mode(cluster.cloud, 'nodeport');
    if (!target) continue;
    const { steps, observe } = datapathSteps(cluster.dataplane, serviceName(target));
    const effect = target.explanation?.datapath_effect;
    out.push({
      title: `The datapath in ${CLOUD_NAMES[cluster.cloud]}: ${cluster.dataplane ?? 'unknown'} (${target.mode})`,
      lesson: `What the datapath does to this path: ${effect ?? 'whoever handles Service traffic on the node does the DNAT to a Pod and, on Cluster, the SNAT'}.`,
      steps,
      observe,
      measure: [watch(env, target.mode)],
    });
  }
  // 7. Flows inside the cluster, where the datapath shows them (Hubble).
  for (const cluster of clustersWithExposures(sources, all)) {
    if (!sources.hubble?.[cluster.cloud]) continue;
    const target = mode(cluster.cloud, 'nodeport-local') ?? mode(cluster.cloud, 'nodeport') ?? mode(cluster.cloud, 'native');
    if (!target) continue;
    out.push({
      title: `Flows inside the cluster in ${CLOUD_NAMES[cluster.cloud]}: Hubble (${target.mode})`,
      lesson:
        'Hubble shows each connection as the eBPF datapath handled it: which node it entered, the translation of the Service address to a Pod, and where it was forwarded or dropped, so the path is seen from inside, not only from the client.',
      steps: [...hubbleSteps(cluster.cloud), { say: 'Meanwhile, send requests through the exposure:', command: target.curl ?? `curl -s <${target.mode} URL>` }],
      observe: `One flow per request to the ${DEMO_DEPLOYMENT} Pods in namespace ${APP_NAMESPACE}, FORWARDED, with the source the Pod sees: a node address on a Cluster NodePort path (the SNAT), your address where the path keeps it; with \`--all\` the Service translation (pre-xlate-fwd, then post-xlate-fwd TRANSLATED) to the Pod; DROPPED flows while a node has no Pod or a Pod is not ready.`,
      measure: [watch(env, target.mode)],
    });
  }
  return out;
}

/** How to watch the flows, per cloud (docs/datapaths.md, "Flows inside the cluster: Hubble"). Relay and UI live outside namespace hoplab, where attendees have no port-forward or exec: the host runs these on the projector. */
function hubbleSteps(cloud: Cloud): Step[] {
  const flows = `hubble observe --namespace ${APP_NAMESPACE} --follow`;
  if (cloud === 'aws') {
    return [
      { say: 'The host forwards Hubble Relay (in kube-system, where you have no port-forward) to localhost:4245, with the cilium CLI:', command: 'cilium hubble port-forward &' },
      { say: `Then follows the flows of namespace ${APP_NAMESPACE} (add --verdict DROPPED, --pod ${APP_NAMESPACE}/<pod> or --all):`, command: flows },
      { say: 'Or opens the Hubble UI on http://localhost:12000:', command: 'kubectl -n kube-system port-forward svc/hubble-ui 12000:80' },
    ];
  }
  return [
    {
      say: `The host follows the flows of namespace ${APP_NAMESPACE} with the hubble CLI inside the managed relay (namespace gke-managed-dpv2-observability, where you have no exec):`,
      command: `kubectl -n gke-managed-dpv2-observability exec -it deployment/hubble-relay -c hubble-cli -- ${flows}`,
    },
  ];
}

function clustersWithExposures(sources: HandoutSources, all: readonly HandoutExposure[]): { cloud: Cloud; dataplane: string | null }[] {
  return (['aws', 'gcp'] as const).filter((c) => all.some((e) => e.cloud === c)).map((cloud) => ({ cloud, dataplane: dataplaneOf(sources, cloud) }));
}

/** The dataplane from the cluster's outputs, else from the synthesized plan (outputs of stacks deployed before the output existed lack it). */
function dataplaneOf(sources: HandoutSources, cloud: Cloud): string | null {
  return sources.outputs.clusters[cloud]?.dataplane ?? sources.explanation?.clouds.find((c) => c.cloud === cloud)?.dataplane ?? null;
}

/** One attendee's handout. */
export function buildHandout(sources: HandoutSources): Handout {
  const all = exposures(sources);
  const notes: string[] = [];
  if (all.length === 0) notes.push('No exposures in the outputs for this environment: was its lb stack deployed?');
  for (const e of all) if (!e.url) notes.push(`${CLOUD_NAMES[e.cloud]} ${e.mode} has no URL yet (the load balancer may still be provisioning).`);
  return { env: sources.outputs.env, ...(sources.attendee ? { attendee: sources.attendee } : {}), clusters: clusters(sources), exposures: all, exercises: exercises(sources, all), notes };
}
