/**
 * What one attendee's handout says, from the deployed stacks' outputs (URLs,
 * clusters), the synthesized plan (each exposure's path, for the pictures and
 * the datapath) and the config (the attendee's identities, the GCP project).
 * Rendered to Markdown and HTML by render-handout.ts.
 */
import { AttendeeIdentities } from '../../config/attendees';
import { Cloud } from '../../model/contract';
import { APP_NAMESPACE, DEMO_DEPLOYMENT } from '../../model/names';
import { EnvironmentOutputs, ExposureInfo } from '../../lab/files/outputs';
import { EnvironmentExplanation, ExposureExplanation } from '../../lab/anatomy/model';
import { DATAPATH, DEFAULT_DATAPATH_EFFECT, DRAIN, EXTRA_HOP, ExerciseStep, ExerciseText, HUBBLE, LOCAL_HEALTH_CHECK, Measure, READINESS_GATES, READINESS_GATES_EXERCISE, SNAT } from './exercises';

export { DEMO_DEPLOYMENT } from '../../model/names';
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
  /** Its id in exercises.ts, and the exposure it is about (progress checks name exercises by them). */
  readonly id: string;
  readonly cloud: Cloud;
  readonly mode: string;
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
  /** How the attendee reaches each cluster (handout-access.ts: where it is, their kubeconfig). @default - "ask the host" */
  readonly access?: Partial<Record<Cloud, readonly Step[]>>;
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

function clusters(sources: HandoutSources): HandoutCluster[] {
  const { outputs } = sources;
  return (['aws', 'gcp'] as const)
    .filter((cloud) => outputs.clusters[cloud] !== undefined)
    .map((cloud) => ({
      cloud,
      clusterName: outputs.clusters[cloud]!.cluster_name,
      dataplane: dataplaneOf(sources, cloud),
      access: sources.access?.[cloud] ?? [{ say: 'The handout has no access steps for this cluster: ask the host.' }],
    }));
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

/** `text` with its `{{name}}`s filled from `values`; a name without a value is a slip in exercises.ts, and an error. */
export function fillExerciseText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{([a-z][a-z-]*)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`exercises.ts: {{${name}}} has no value here (${text})`);
    return value;
  });
}

/** One case of a text that is either one thing or a table of them by case. */
function byCase<T>(id: string, table: T | Readonly<Record<string, T>>, isOne: (x: T | Readonly<Record<string, T>>) => x is T, key: string): T {
  if (isOne(table)) return table;
  const chosen = table[key];
  if (chosen === undefined) throw new Error(`exercises.ts: ${id} has nothing for the case "${key}"`);
  return chosen;
}

/** One exercise for one attendee: `text` about `target`, in case `key` where its steps or observe are a table by case. */
function exercise(text: ExerciseText, target: HandoutExposure, values: Readonly<Record<string, string>>, measure: Readonly<Record<Measure, string>>, key = ''): Exercise {
  const all = { ...values, cloud: CLOUD_NAMES[target.cloud], mode: target.mode, curl: target.curl ?? `curl -s <${target.mode} URL>` };
  const steps = byCase(text.id, text.steps, (x): x is readonly ExerciseStep[] => Array.isArray(x), key);
  const observe = byCase(text.id, text.observe, (x): x is string => typeof x === 'string', key);
  return {
    id: text.id,
    cloud: target.cloud,
    mode: target.mode,
    title: fillExerciseText(text.title, all),
    lesson: fillExerciseText(text.lesson, all),
    steps: steps.map((step) => ({ say: fillExerciseText(step.say, all), ...(step.command === undefined ? {} : { command: fillExerciseText(step.command, all) }) })),
    observe: fillExerciseText(observe, all),
    measure: text.measure.map((m) => measure[m]),
  };
}

/** Which exercises a handout has, and about which exposure; their words are in exercises.ts. */
function exercises(sources: HandoutSources, all: readonly HandoutExposure[]): Exercise[] {
  const env = sources.outputs.env;
  const compare = `npm run compare -- ${sources.outputsFile ? `--outputs ${sources.outputsFile} ` : ''}--probe --my-ip <your public address>`;
  const out: Exercise[] = [];
  const clouds = clustersWithExposures(sources, all).map((c) => c.cloud);
  const mode = (cloud: Cloud, m: string) => all.find((e) => e.cloud === cloud && e.mode === m);
  const first = (m: string) => clouds.map((c) => mode(c, m)).find((e) => e !== undefined);
  const base = { ns: APP_NAMESPACE, deployment: DEMO_DEPLOYMENT, replicas: String(sources.replicas), 'debug-image': DEBUG_IMAGE };
  const add = (text: ExerciseText, target: HandoutExposure, values: Readonly<Record<string, string>> = {}, key?: string) =>
    out.push(exercise(text, target, { ...base, svc: serviceName(target), ...values }, { compare, watch: watch(env, target.mode) }, key));

  // SNAT: nodeport-l4 when deployed, else flip nodeport-local to Cluster.
  const l4 = first('nodeport-l4');
  const local = first('nodeport-local');
  if (l4 || local) add(SNAT, (l4 ?? local)!, {}, l4 ? 'nodeport-l4' : 'nodeport-local');
  // nodeport-local: health checks fail on nodes without a Pod.
  if (local) add(LOCAL_HEALTH_CHECK, local);
  // Readiness gates during a rollout (Pod targets).
  const native = first('native');
  if (native) add(READINESS_GATES_EXERCISE, native, { gate: READINESS_GATES[native.cloud] });
  // The extra hop of NodePort paths.
  const nodeport = first('nodeport');
  if (nodeport && native) add(EXTRA_HOP, nodeport, { 'native-curl': native.curl ?? 'curl -s <native URL>' });
  // Drain a node.
  if (native || nodeport) add(DRAIN, (nodeport ?? native)!);
  // The datapath, seen from inside a node.
  for (const cluster of clustersWithExposures(sources, all)) {
    const target = mode(cluster.cloud, 'nodeport-local') ?? mode(cluster.cloud, 'nodeport');
    if (!target) continue;
    const known = cluster.dataplane !== null && Object.hasOwn(DATAPATH.steps, cluster.dataplane);
    add(DATAPATH, target, { dataplane: cluster.dataplane ?? 'unknown', effect: target.explanation?.datapath_effect ?? DEFAULT_DATAPATH_EFFECT }, known ? cluster.dataplane! : 'unknown');
  }
  // Flows inside the cluster, where the datapath shows them (Hubble).
  for (const cluster of clustersWithExposures(sources, all)) {
    if (!sources.hubble?.[cluster.cloud]) continue;
    const target = mode(cluster.cloud, 'nodeport-local') ?? mode(cluster.cloud, 'nodeport') ?? mode(cluster.cloud, 'native');
    if (target) add(HUBBLE, target, {}, cluster.cloud);
  }
  return out;
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
