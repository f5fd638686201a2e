/**
 * `npm run handout`: one Markdown file and one self-contained HTML page per
 * attendee, and an index page for the host, from the deployed stacks'
 * outputs (or `--outputs FILE`), the synthesized plan (the pictures) and the
 * config (each attendee's identities).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labEnvironments, narrowedConfig } from '../../config/environments';
import { readLabConfig } from '../../lab/files/config-file';
import { LabConfig } from '../../config/schema';
import { gkeLocation } from '../../constructs/gcp/gke-cluster';
import { UsageError } from '../../kit/cli/cli';
import { selectEnvironments } from '../../lab/selection/selection';
import { explainDir } from '../../lab/anatomy/explain-dir';
import { explainLab } from '../../lab/anatomy/explain-lab';
import { ExplainModel } from '../../lab/anatomy/model';
import { collectOutputs, LabOutputs, readOutputsFile } from '../../lab/files/outputs';
import { HANDOUT_COMMAND, HANDOUT_FORMATS, HandoutFormat } from './command';
import { buildHandout, Handout } from './handout-model';
import { cardHtml } from './render-card';
import { handoutFiles, handoutHtml, handoutMarkdown, indexHtml } from './render-handout';

/** What the command reads and where it writes; tests replace parts. */
export interface HandoutIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** @default - the config file, as every command reads it */
  readonly config?: () => LabConfig;
  /** @default - collected with `npx cdktf output` */
  readonly collect?: (dir: string) => Promise<LabOutputs>;
  /** @default - explainDir(DIR) when DIR has a manifest, else explainLab(config) */
  readonly explain?: (config: LabConfig, dir: string, env?: string) => ExplainModel;
}

const defaultIo: HandoutIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

function explainDefault(config: LabConfig, dir: string, env?: string): ExplainModel {
  return existsSync(join(dir, 'manifest.json')) ? explainDir(dir, env ? { env } : {}) : explainLab(narrowedConfig(config, env ? [env] : undefined), env ? { env } : {});
}

/** The command: parses `argv` and writes the handouts; resolves with the exit code. */
export async function handout(argv: readonly string[], io: HandoutIo = defaultIo): Promise<number> {
  const values = HANDOUT_COMMAND.parse(argv, io);
  if (!values) return 0;
  const formats: HandoutFormat[] = values.format === undefined ? [...HANDOUT_FORMATS] : [values.format];
  const config = io.config ? io.config() : readLabConfig().config;
  const environments = labEnvironments(config);
  if (values.env !== undefined) {
    try {
      selectEnvironments(config, [values.env]);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }

  let outputs: LabOutputs;
  try {
    outputs = values.outputs !== undefined ? readOutputsFile(values.outputs) : await (io.collect ?? ((dir) => collectOutputs(dir)))(values.dir);
  } catch (error) {
    // Outputs missing or unreadable: said as the reader words it.
    io.err(`handout: ${(error as Error).message}\n`);
    return 1;
  }

  const chosen = environments.filter((e) => values.env === undefined || e.name === values.env);
  const model = (io.explain ?? explainDefault)(config, values.dir, values.env);
  const location = gkeLocation(config.gcp.region, config.gcp.zones).location;
  const handouts: Handout[] = [];
  for (const environment of chosen) {
    const envOutputs = outputs.environments.find((e) => e.env === environment.name);
    if (!envOutputs) {
      io.err(`handout: no outputs for environment ${environment.name} (not deployed, or not in ${values.outputs ?? 'the collected outputs'}): skipped\n`);
      continue;
    }
    handouts.push(
      buildHandout({
        outputs: envOutputs,
        ...(environment.attendee ? { attendee: environment.attendee } : {}),
        ...(model.environments.find((e) => e.env === environment.name) ? { explanation: model.environments.find((e) => e.env === environment.name)! } : {}),
        gcpProject: config.gcp.project,
        gkeLocation: location,
        ...(values.outputs !== undefined ? { outputsFile: values.outputs } : {}),
        replicas: config.app.replicas,
        ...(config.workshop.expiresAt !== undefined ? { expiresAt: config.workshop.expiresAt } : {}),
        hubble: { aws: config.aws.datapath === 'cilium' && config.aws.cilium?.hubble === true, gcp: config.gcp.datapath === 'dataplane-v2' && config.gcp.observability },
      }),
    );
  }
  if (handouts.length === 0) {
    io.err('handout: no environment with outputs to write a handout for\n');
    return 1;
  }
  const out = values.out;
  mkdirSync(out, { recursive: true });
  for (const h of handouts) {
    const files = handoutFiles(h.env);
    if (formats.includes('markdown')) writeFileSync(join(out, files.markdown), handoutMarkdown(h));
    if (formats.includes('html')) writeFileSync(join(out, files.html), handoutHtml(h));
    if (formats.includes('card')) writeFileSync(join(out, files.card), cardHtml(h, files.html));
  }
  writeFileSync(join(out, 'index.html'), indexHtml(handouts, formats));
  io.out(`handout: wrote ${handouts.length} handout${handouts.length === 1 ? '' : 's'} (${formats.join(', ')}) and index.html to ${out}/\n`);
  return 0;
}
