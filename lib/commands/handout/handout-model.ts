/**
 * What one attendee's handout says, from the deployed stacks' outputs (URLs,
 * clusters), the synthesized plan (each exposure's path, for the pictures and
 * the datapath) and the config (the attendee's identities, the GCP project).
 * Rendered to Markdown and HTML by render-handout.ts.
 */
import { AttendeeIdentities } from '../../config/attendees';
import { DEMO_APP_PORT } from '../../constructs/k8s/demo-app';
import { Cloud } from '../../model/contract';
import { DATAPLANES, Dataplane } from '../../model/datapaths';
import { EXPOSURE_FACTS } from '../../model/exposure-facts';
import { APP_NAMESPACE, DEMO_DEPLOYMENT } from '../../model/names';
import { INSPECTOR_INTERVAL_SECONDS, inspectorLogCommands } from '../../model/inspector';
import { EnvironmentOutputs, ExposureInfo } from '../../lab/files/outputs';
import { EnvironmentExplanation, ExposureExplanation } from '../../lab/anatomy/model';
import { MeasuredAddresses, MeasuredByExposure, measuredOfExposure } from '../../lab/probe/measured';
import {
  ByCase,
  DATAPATH,
  DEFAULT_DATAPATH_EFFECT,
  DRAIN,
  EXTRA_HOP,
  ExerciseStep,
  ExerciseText,
  HUBBLE,
  LOCAL_HEALTH_CHECK,
  Measure,
  READINESS_GATES,
  READINESS_GATES_EXERCISE,
  SNAT,
  UNKNOWN_INSPECTOR_SECTIONS,
} from './exercises';

export { DEMO_DEPLOYMENT } from '../../model/names';

export const CLOUD_NAMES: Readonly<Record<Cloud, string>> = { aws: 'AWS (EKS)', gcp: 'Google Cloud (GKE)' };

/** A command to run, with what it is for. */
export interface Step {
  readonly say: string;
  readonly command?: string;
  /** Only the host runs it: the handout marks it so. @default false */
  readonly hostOnly?: boolean;
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
  /** What a probe measured of it (`handout --measured`), for the packet's journey. @default - none */
  readonly measured?: MeasuredAddresses;
  readonly curl: string | null;
  /** What the reply shows: `client_address` and `X-Forwarded-For`. */
  readonly expect: string;
  readonly why: string;
}

export interface Exercise {
  /** Which exercise of exercises.ts it is, and the exposure it is about (progress checks name exercises by them). */
  readonly id: string;
  readonly cloud: Cloud;
  readonly mode: string;
  readonly title: string;
  /** The lesson in one sentence. */
  readonly lesson: string;
  readonly steps: readonly Step[];
  /** What confirms it. */
  readonly observe: string;
  /** What measures it, where traffic shows it: what the attendee can run (a curl loop), then the host's `compare` or `watch` (host only). */
  readonly measure: readonly Step[];
  /** The host leads it on the projector. */
  readonly hostOnly: boolean;
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
  /** When the workshop ends (config `workshop.expiresAt`, ISO 8601 UTC), or null when the config does not say. */
  readonly expiresAt: string | null;
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
  /** When the workshop ends (config `workshop.expiresAt`). @default - not said */
  readonly expiresAt?: string;
  /** What a compare --probe report measured (`handout --measured`), shown in the packet's journeys. @default - none */
  readonly measured?: MeasuredByExposure;
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

/** The facts of an exposure "the reply shows" is derived from: the ones its fact box draws (explain's picture) and its outputs carry. */
export type ReplyFacts = Pick<ExposureInfo, 'client_ip_via' | 'source_nat' | 'client_ip_seen_as' | 'external_traffic_policy'>;

/** Whether the node SNATs only requests it sends to a Pod on another node: Cilium (EKS kube-proxy replacement, GKE Dataplane V2), by the dataplane, else by the words of `client_ip_seen_as`. */
function snatsOnlyRemote(info: ReplyFacts, dataplane: string | null): boolean {
  return dataplane === null ? /when the Pod is on another node/.test(info.client_ip_seen_as ?? '') : dataplane === 'cilium-ebpf';
}

/**
 * What the echo server's reply shows for an exposure (`client_address`, the
 * TCP peer the Pod saw, and `x-forwarded-for`), and why: from the facts its
 * fact box shows (`source_nat`, `client_ip_via`, `client_ip_seen_as`) and the
 * cluster's `dataplane` (null when unknown): a node SNATs on a Cluster
 * NodePort path, behind a proxy too; under Cilium only for a Pod on another node.
 */
export function expectedReply(info: ReplyFacts, dataplane: string | null): { readonly expect: string; readonly why: string } {
  const remoteOnly = snatsOnlyRemote(info, dataplane);
  const snat = info.source_nat;
  switch (info.client_ip_via) {
    case 'x-forwarded-for': {
      const xff = '`x-forwarded-for` ends with your public address';
      if (snat === false) {
        return {
          expect: `\`client_address\` is an address of the load balancer (a proxy), not yours; ${xff}.`,
          why: 'A layer-7 load balancer ends your TCP connection and opens its own to the Pod; it hands your address on in the X-Forwarded-For header.',
        };
      }
      if (snat === null) {
        return {
          expect: `\`client_address\` is the load balancer's address or a node's (the outputs do not say whether a node rewrites the source), not yours; ${xff}.`,
          why: 'A layer-7 load balancer ends your TCP connection and opens its own; it hands your address on in the X-Forwarded-For header.',
        };
      }
      return remoteOnly
        ? {
            expect: `\`client_address\` is a node address (SNAT) when the Pod is on another node than the one the load balancer connected to, and the load balancer's address when it is on that node; never yours; ${xff}.`,
            why: "A layer-7 load balancer ends your TCP connection and opens its own to a node's NodePort; with externalTrafficPolicy Cluster, Cilium's eBPF sends it on to any Pod and rewrites the source to the node's own address (SNAT) only when that Pod is on another node. Your address survives in the X-Forwarded-For header the load balancer added.",
          }
        : {
            expect: `\`client_address\` is a node address (SNAT), not the load balancer's and not yours; ${xff}.`,
            why: "A layer-7 load balancer ends your TCP connection and opens its own to a node's NodePort; with externalTrafficPolicy Cluster that node may send it on to a Pod on another node, and rewrites the source to its own address (SNAT) so the reply comes back through it. Your address survives in the X-Forwarded-For header the load balancer added.",
          };
    }
    case 'tcp-source':
      return {
        expect: '`client_address` is your public address; there is no `x-forwarded-for`.',
        why:
          info.external_traffic_policy === 'Local'
            ? 'A passthrough load balancer keeps your packets, and with externalTrafficPolicy Local the node hands them only to a Pod on itself, so nothing rewrites the source.'
            : 'A passthrough load balancer keeps your packets and delivers them to the Pod itself, so nothing rewrites the source.',
      };
    case 'none':
      if (snat === false) {
        return {
          expect: "`client_address` is the load balancer's address, not yours; there is no `x-forwarded-for`.",
          why: 'This load balancer does not keep your address as the source and adds no header, so the Pod never learns it.',
        };
      }
      return remoteOnly
        ? {
            expect:
              '`client_address` is a node address (SNAT) when the Pod is on another node than the one the load balancer sent your packets to, and your public address when it is on that node (about one request in as many as there are nodes); there is no `x-forwarded-for`.',
            why: "A passthrough load balancer keeps your packets and sends them to any node's NodePort; with externalTrafficPolicy Cluster, Cilium's eBPF sends them on to any Pod and rewrites the source to the node's own address (SNAT) only when that Pod is on another node, so the reply comes back through it.",
          }
        : {
            expect: '`client_address` is a node address (SNAT), not yours; there is no `x-forwarded-for`: your address is gone.',
            why: 'The node that receives the packet may send it to a Pod on another node; with externalTrafficPolicy Cluster it rewrites the source to its own address (SNAT) so the reply comes back through it, even when the Pod is on that node.',
          };
    default:
      return { expect: '`client_address` and `x-forwarded-for`: not known from the outputs.', why: 'The outputs do not say where the Pod finds the client address.' };
  }
}

const optionalMeasured = (measured: MeasuredAddresses | undefined) => (measured ? { measured } : {});

function exposures(sources: HandoutSources): HandoutExposure[] {
  const out: HandoutExposure[] = [];
  for (const cloud of ['aws', 'gcp'] as const) {
    const explained = sources.explanation?.clouds.find((c) => c.cloud === cloud)?.exposures ?? [];
    const dataplane = dataplaneOf(sources, cloud);
    for (const info of sources.outputs.exposures[cloud] ?? []) {
      out.push({
        cloud,
        mode: info.mode,
        url: info.url,
        info,
        explanation: explained.find((e) => e.mode === info.mode) ?? null,
        ...optionalMeasured(measuredOfExposure(sources.measured, sources.outputs.env, cloud, info.mode)),
        curl: info.url ? `curl -s ${info.url} | grep -Ei 'client_address|x-forwarded-for|node name|pod name'` : null,
        ...expectedReply(info, dataplane),
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

/** One case of a text that is either one thing or a table of them by case: the entry whose key is one of `cases`. */
function byCase<T>(id: string, table: ByCase<T>, isOne: (x: ByCase<T>) => x is T, cases: readonly string[]): T {
  if (isOne(table)) return table;
  const keys = cases.filter((c) => Object.hasOwn(table, c));
  if (keys.length !== 1) throw new Error(`exercises.ts: ${id} has ${keys.length === 0 ? 'nothing' : 'more than one entry'} for the cases ${cases.map((c) => `"${c}"`).join(', ')}`);
  return (table as Readonly<Record<string, T>>)[keys[0]];
}

const isText = (x: ByCase<string>): x is string => typeof x === 'string';

/** What an attendee runs to see what `compare` or `watch` measure, with nothing but curl, against `url`. */
function attendeeMeasure(kind: Measure, url: string): Step {
  return kind === 'compare'
    ? {
        say: 'Send 20 requests and count the answers: which Pods and nodes answered, and the addresses the Pod saw:',
        command: `for i in $(seq 20); do curl -s -m 5 ${url}; done | grep -Ei 'client_address|x-forwarded-for|node name|pod name' | sort | uniq -c`,
      }
    : {
        say: 'Send a request every second and see its HTTP status and time (000: no answer; Ctrl-C stops it):',
        command: `while sleep 1; do curl -s -m 2 -o /dev/null -w '%{http_code} %{time_total}s\\n' ${url}; done`,
      };
}

/** What the host runs on the projector to measure it (the lab's checkout, the outputs, the host's credentials). */
function hostMeasure(kind: Measure, command: string): Step {
  return {
    say: kind === 'compare' ? "The host measures it from the lab's checkout, on the projector:" : 'The host watches it live, on the projector:',
    command,
    hostOnly: true,
  };
}

/** One exercise for one attendee: `text` about `target`, in `cases` where its texts are tables by case. */
function exercise(text: ExerciseText, target: HandoutExposure, values: Readonly<Record<string, string>>, measure: Readonly<Record<Measure, string>>, cases: readonly string[] = []): Exercise {
  const all = { ...values, cloud: CLOUD_NAMES[target.cloud], mode: target.mode, curl: target.curl ?? `curl -s <${target.mode} URL>` };
  const steps = byCase(text.id, text.steps, (x): x is readonly ExerciseStep[] => Array.isArray(x), cases);
  const fill = (t: ByCase<string>) => fillExerciseText(byCase(text.id, t, isText, cases), all);
  const url = target.url ?? `<${target.mode} URL>`;
  // The attendee's own measurement: the count of answers where compare measures it, else the request-a-second loop.
  const attendee = text.measure.length === 0 ? [] : [attendeeMeasure(text.measure.includes('compare') ? 'compare' : 'watch', url)];
  return {
    id: text.id,
    cloud: target.cloud,
    mode: target.mode,
    title: fill(text.title),
    lesson: fill(text.lesson),
    steps: steps.map((step) => ({
      say: fillExerciseText(step.say, all),
      ...(step.command === undefined ? {} : { command: fillExerciseText(step.command, all) }),
      ...(step.hostOnly ? { hostOnly: true } : {}),
    })),
    observe: fill(text.observe),
    measure: [...attendee, ...text.measure.map((m) => hostMeasure(m, measure[m]))],
    hostOnly: text.hostOnly === true,
  };
}

/** The SNAT exercise's datapath case: kube-proxy SNATs every request of a Cluster NodePort, Cilium only those to another node's Pod. */
function snatDatapath(dataplane: string | null): string {
  if (dataplane === 'cilium-ebpf') return 'cilium';
  return dataplane !== null && (DATAPLANES as readonly string[]).includes(dataplane) ? 'kube-proxy' : 'any-datapath';
}

/** The values of the datapath exercise that read the inspector (lib/model/inspector.ts) on `dataplane`. */
function inspectorValues(dataplane: Dataplane | null): Record<string, string> {
  // The commands are the same on every datapath; what a dump holds is not.
  const { commands, sections } = inspectorLogCommands(dataplane ?? 'kube-proxy-iptables', APP_NAMESPACE, DEMO_APP_PORT);
  return {
    inspector: commands[0].command,
    'inspector-node': commands[1].command,
    'inspector-sections': dataplane === null ? UNKNOWN_INSPECTOR_SECTIONS : sections.map((title) => `\`--- ${title}\``).join(' and '),
    'inspector-interval': String(INSPECTOR_INTERVAL_SECONDS),
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
  const base = { ns: APP_NAMESPACE, deployment: DEMO_DEPLOYMENT, replicas: String(sources.replicas), port: String(DEMO_APP_PORT) };
  const add = (text: ExerciseText, target: HandoutExposure, values: Readonly<Record<string, string>> = {}, cases?: readonly string[]) =>
    out.push(exercise(text, target, { ...base, svc: serviceName(target), ...values }, { compare, watch: watch(env, target.mode) }, cases));

  // SNAT: nodeport-l4 when deployed, else flip nodeport-local to Cluster; what the reply shows is nodeport-l4's, in its cloud's datapath.
  const l4 = first('nodeport-l4');
  const local = first('nodeport-local');
  const snatTarget = l4 ?? local;
  if (snatTarget) {
    const dataplane = dataplaneOf(sources, snatTarget.cloud);
    const reply = l4 ? l4.expect : expectedReply(EXPOSURE_FACTS[snatTarget.cloud]['nodeport-l4']!, dataplane).expect;
    add(SNAT, snatTarget, { reply }, [l4 ? 'nodeport-l4' : 'nodeport-local', snatDatapath(dataplane)]);
  }
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
  // The datapath, seen from inside a node through the inspector's log.
  for (const cluster of clustersWithExposures(sources, all)) {
    const target = mode(cluster.cloud, 'nodeport-local') ?? mode(cluster.cloud, 'nodeport');
    if (!target) continue;
    const known = cluster.dataplane !== null && (DATAPLANES as readonly string[]).includes(cluster.dataplane) ? (cluster.dataplane as Dataplane) : null;
    add(DATAPATH, target, { dataplane: cluster.dataplane ?? 'unknown', effect: target.explanation?.datapath_effect ?? DEFAULT_DATAPATH_EFFECT, ...inspectorValues(known) }, [known ?? 'unknown']);
  }
  // Flows inside the cluster, where the datapath shows them (Hubble).
  for (const cluster of clustersWithExposures(sources, all)) {
    if (!sources.hubble?.[cluster.cloud]) continue;
    const target = mode(cluster.cloud, 'nodeport-local') ?? mode(cluster.cloud, 'nodeport') ?? mode(cluster.cloud, 'native');
    if (target) add(HUBBLE, target, {}, [cluster.cloud]);
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
  return {
    env: sources.outputs.env,
    ...(sources.attendee ? { attendee: sources.attendee } : {}),
    clusters: clusters(sources),
    exposures: all,
    exercises: exercises(sources, all),
    notes,
    expiresAt: sources.expiresAt ?? null,
  };
}
