/**
 * `npm run handout`: one Markdown file, one self-contained HTML page and one
 * kubeconfig per attendee, and an index page for the host, from the deployed
 * stacks' outputs (or `--outputs FILE`), the synthesized plan (the pictures)
 * and the config (each attendee's identities).
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AttendeeIdentities } from '../../config/attendees';
import { labEnvironments, narrowedConfig } from '../../config/environments';
import { readLabConfig } from '../../lab/files/config-file';
import { LabConfig } from '../../config/schema';
import { commandMessage, UsageError } from '../../kit/cli/cli';
import { textTable, wrapIndented } from '../../kit/terminal/text-table';
import { outputsNotInConfig, selectEnvironments } from '../../lab/selection/selection';
import { explainDir } from '../../lab/anatomy/explain-dir';
import { explainLab } from '../../lab/anatomy/explain-lab';
import { ExplainModel } from '../../lab/anatomy/model';
import { clusterTarget, HostTokens, hostTokens } from '../../lab/cluster/cluster-access';
import { collectOutputs, EnvironmentOutputs, LabOutputs, readOutputsFile } from '../../lab/files/outputs';
import { hubbleClouds } from '../../lab/progress/exercise-plan';
import { HANDOUT_COMMAND, HANDOUT_FORMATS, HandoutFormat } from './command';
import { accessSteps, refreshCommand } from './handout-access';
import { buildHandout, Handout } from './handout-model';
import { EnvironmentKubeconfig, environmentKubeconfig } from './kubeconfig';
import { cardHtml } from './render-card';
import { handoutFiles, handoutHtml, handoutMarkdown, indexHtml } from './render-handout';
import { MeasuredByExposure, readMeasuredFile } from '../../lab/probe/measured';

/** What the command reads and where it writes; tests replace parts. */
export interface HandoutIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** @default - the config file, as every command reads it */
  readonly config?: () => LabConfig;
  /** @default - collected with `npx cdktf output` */
  readonly collect?: (dir: string) => Promise<LabOutputs>;
  /** @default - explainDir(DIR) when DIR has a manifest, else explainLab(config); of `envs` only when given */
  readonly explain?: (config: LabConfig, dir: string, envs?: readonly string[]) => ExplainModel;
  /** The host's access to the clusters, to mint tokens. @default - hostTokens(): the host's Google and AWS credentials */
  readonly tokens?: HostTokens;
  /** Bound of each request to a cluster. @default - the Kubernetes client's */
  readonly clusterTimeoutMs?: number;
}

const defaultIo: HandoutIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

function explainDefault(config: LabConfig, dir: string, envs?: readonly string[]): ExplainModel {
  return existsSync(join(dir, 'manifest.json')) ? explainDir(dir, envs ? { envs } : {}) : explainLab(narrowedConfig(config, envs), envs ? { envs } : {});
}

/** One environment to write for: its outputs, and its attendee (none in a single lab). */
interface Chosen {
  readonly outputs: EnvironmentOutputs;
  readonly attendee?: AttendeeIdentities;
}

/** Writes a kubeconfig readable by its owner only (0600, also when the file was there before). */
function writeSecretFile(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The kubeconfigs written, one row per cluster, for the host: where, how, until when; and what could not be written. */
function kubeconfigReport(out: string, kubeconfigs: readonly EnvironmentKubeconfig[]): { text: string; problems: string[] } {
  const rows = kubeconfigs.flatMap((k) =>
    k.entries.map((e) => [k.file, e.context, e.auth.kind === 'token' ? `token until ${e.auth.expirationTimestamp ?? '?'}` : e.auth.kind === 'aws' ? 'own AWS identity' : 'own Google identity']),
  );
  const problems = kubeconfigs.flatMap((k) =>
    Object.entries(k.missing).map(([cloud, why]) => commandMessage(HANDOUT_COMMAND.name, `${k.env}: no ${cloud === 'aws' ? 'EKS' : 'GKE'} context in ${k.file}: ${why}`)),
  );
  const warnings = kubeconfigs.flatMap((k) => k.entries.flatMap((e) => (e.auth.kind === 'token' ? e.auth.warnings.map((w) => `${e.context}: the cluster says: ${w}`) : [])));
  const secret = kubeconfigs.some((k) => k.secret);
  const said = (text: string) => wrapIndented(commandMessage(HANDOUT_COMMAND.name, text), 80, '', '  ');
  const lines = [
    ...said(`kubeconfigs in ${out}/ (mode 0600)${secret ? ': those with a token are secrets; hand each to its attendee only' : ''}`),
    ...(rows.length > 0 ? [textTable(['file', 'context', 'kubectl authenticates with'], rows, { width: 80, rules: 'header' })] : []),
    ...warnings.flatMap(said),
    ...(secret ? said('before they run out: npx hoplab handout --refresh-kubeconfigs') : []),
  ];
  return { text: `${lines.join('\n')}\n`, problems };
}

/** The command: parses `argv` and writes the handouts; resolves with the exit code. */
export async function handout(argv: readonly string[], io: HandoutIo = defaultIo): Promise<number> {
  /** A line on handout's own account, on stderr (say) or stdout (tell). */
  const say = (text: string) => io.err(`${commandMessage(HANDOUT_COMMAND.name, text)}\n`);
  const tell = (text: string) => io.out(`${commandMessage(HANDOUT_COMMAND.name, text)}\n`);
  const values = HANDOUT_COMMAND.parse(argv, io);
  if (!values) return 0;
  if (values['no-kubeconfigs'] && values['refresh-kubeconfigs']) throw new UsageError('--no-kubeconfigs and --refresh-kubeconfigs contradict each other; give one of them');
  const formats: HandoutFormat[] = values.format === undefined ? [...HANDOUT_FORMATS] : [values.format];
  if (values.measured !== undefined && (values['refresh-kubeconfigs'] || !formats.includes('html'))) {
    throw new UsageError(`--measured is for the html handout (the packet's journeys), not ${values['refresh-kubeconfigs'] ? '--refresh-kubeconfigs' : `--format ${values.format}`}`);
  }
  const config = io.config ? io.config() : readLabConfig().config;
  const environments = labEnvironments(config);
  if (values.env !== undefined) {
    try {
      selectEnvironments(config, values.env);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }

  let outputs: LabOutputs;
  let measured: MeasuredByExposure | undefined;
  try {
    outputs = values.outputs !== undefined ? readOutputsFile(values.outputs) : await (io.collect ?? ((dir) => collectOutputs(dir)))(values.dir);
    // Read before any token is minted: a mistyped file costs nothing.
    measured = values.measured !== undefined ? readMeasuredFile(values.measured) : undefined;
  } catch (error) {
    // A file missing or unreadable: said as its reader words it.
    say((error as Error).message);
    return 1;
  }
  const elsewhere = outputsNotInConfig(outputs, config, values.outputs ?? 'the collected outputs');
  if (elsewhere) {
    say(elsewhere);
    return 1;
  }

  const chosen: Chosen[] = [];
  for (const environment of environments.filter((e) => values.env === undefined || values.env.includes(e.name))) {
    const envOutputs = outputs.environments.find((e) => e.env === environment.name);
    if (!envOutputs) {
      say(`no outputs for environment ${environment.name} (not deployed, or not in ${values.outputs ?? 'the collected outputs'}): skipped`);
      continue;
    }
    chosen.push({ outputs: envOutputs, ...(environment.attendee ? { attendee: environment.attendee } : {}) });
  }
  if (chosen.length === 0) {
    say('no environment with outputs to write a handout for');
    return 1;
  }
  const out = values.out;
  mkdirSync(out, { recursive: true });

  // The kubeconfigs first: the handouts say until when their tokens are valid.
  const tokens = io.tokens ?? hostTokens();
  const kubeconfigs = new Map<string, EnvironmentKubeconfig>();
  for (const { outputs: envOutputs, attendee } of chosen) {
    if (!attendee) continue;
    const kubeconfig = await environmentKubeconfig({
      outputs: envOutputs,
      attendee,
      config,
      tokens,
      tokenSeconds: values['token-hours'] * 3600,
      write: !values['no-kubeconfigs'],
      ...(io.clusterTimeoutMs === undefined ? {} : { timeoutMs: io.clusterTimeoutMs }),
    });
    kubeconfigs.set(envOutputs.env, kubeconfig);
    if (kubeconfig.text !== undefined) writeSecretFile(join(out, kubeconfig.file), kubeconfig.text);
  }
  const report = kubeconfigReport(out, values['no-kubeconfigs'] ? [] : [...kubeconfigs.values()]);
  const failed = report.problems.length > 0;
  const sayProblems = () => {
    for (const problem of report.problems) io.err(`${problem}\n`);
    for (const k of kubeconfigs.values()) if (Object.keys(k.missing).length > 0) say(`${k.env}: once its cluster answers, run ${refreshCommand(k.env)}`);
  };

  if (values['refresh-kubeconfigs']) {
    if (kubeconfigs.size > 0) io.out(report.text);
    else tell('no attendee environment: no kubeconfig to refresh');
    sayProblems();
    return failed ? 1 : 0;
  }

  const model = (io.explain ?? explainDefault)(config, values.dir, values.env);
  const handouts: Handout[] = [];
  for (const { outputs: envOutputs, attendee } of chosen) {
    const explanation = model.environments.find((e) => e.env === envOutputs.env);
    const kubeconfig = kubeconfigs.get(envOutputs.env);
    const access = Object.fromEntries(
      (['aws', 'gcp'] as const)
        .filter((cloud) => envOutputs.clusters[cloud] !== undefined)
        .map((cloud) => [
          cloud,
          accessSteps(cloud, { env: envOutputs.env, target: clusterTarget(envOutputs, cloud, config), ...(attendee ? { attendee } : {}), ...(kubeconfig ? { kubeconfig } : {}) }),
        ]),
    );
    handouts.push(
      buildHandout({
        outputs: envOutputs,
        ...(attendee ? { attendee } : {}),
        ...(explanation ? { explanation } : {}),
        access,
        ...(values.outputs !== undefined ? { outputsFile: values.outputs } : {}),
        replicas: config.app.replicas,
        hubble: hubbleClouds(config),
        ...(config.workshop.expiresAt !== undefined ? { expiresAt: config.workshop.expiresAt } : {}),
        ...(measured ? { measured } : {}),
      }),
    );
  }
  for (const h of handouts) {
    const files = handoutFiles(h.env);
    if (formats.includes('markdown')) writeFileSync(join(out, files.markdown), handoutMarkdown(h));
    if (formats.includes('html')) writeFileSync(join(out, files.html), handoutHtml(h));
    if (formats.includes('card')) writeFileSync(join(out, files.card), cardHtml(h, files.html));
  }
  const kubeconfigNames = new Map([...kubeconfigs].filter(([, k]) => k.text !== undefined).map(([env, k]) => [env, k.secret ? 'yes (a token: hand it over in person)' : 'yes (their own identity)']));
  writeFileSync(join(out, 'index.html'), indexHtml(handouts, formats, kubeconfigNames));
  tell(`wrote ${handouts.length} handout${handouts.length === 1 ? '' : 's'} (${formats.join(', ')}), index.html to ${out}/`);
  if (kubeconfigs.size > 0 && !values['no-kubeconfigs']) io.out(report.text);
  sayProblems();
  return failed ? 1 : 0;
}
