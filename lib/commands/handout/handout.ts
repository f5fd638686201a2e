/**
 * `npm run handout`: one Markdown file and one self-contained HTML page per
 * attendee, and an index page for the host, from the deployed stacks'
 * outputs (or `--outputs FILE`), the synthesized plan (the pictures) and the
 * config (each attendee's identities).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labEnvironments, narrowedConfig } from '../../config/environments';
import { loadConfig } from '../../config/load';
import { LabConfig } from '../../config/schema';
import { gkeLocation } from '../../constructs/gcp/gke-cluster';
import { strictArgs, UsageError } from '../../kit/cli/cli';
import { explainDir } from '../../lab/anatomy/explain-dir';
import { explainLab } from '../../lab/anatomy/explain-lab';
import { ExplainModel } from '../../lab/anatomy/model';
import { collectOutputs, CompareInputError, LabOutputs, readOutputsFile } from '../../lab/files/outputs';
import { buildHandout, Handout } from './handout-model';
import { handoutFiles, handoutHtml, handoutMarkdown, indexHtml } from './render-handout';

export const HANDOUT_FORMATS = ['markdown', 'html'] as const;
export type HandoutFormat = (typeof HANDOUT_FORMATS)[number];

export const HANDOUT_HELP = `usage: npm run handout -- [--outputs FILE] [--dir DIR] [--env NAME] [--format markdown|html] [--out DIR]

Writes, for each attendee, a handout: OUT/<attendee>.md and OUT/<attendee>.html (one
self-contained page: no external URL, opens from disk, prints), and OUT/index.html
listing every attendee's handout for the host. A handout has the attendee's
identities; the kubeconfig command for each of their clusters with that identity;
each exposure's URL, its path as a picture, a curl command and what the reply
shows (client_address, X-Forwarded-For) and why; and exercises (SNAT on a
NodePort path, nodeport-local health checks, readiness gates in a rollout, the
extra hop, draining a node, the datapath seen from a node), each with what
confirms it and the compare or watch command that measures it.

options:
  --outputs FILE   outputs as \`npx cdktf output --outputs-file FILE\` writes them
                   (default: run \`npx cdktf output\` for every stack in DIR, as compare does)
  --dir DIR        the synthesized app (default: cdktf.out): its plan draws the
                   pictures; without it the config is synthesized in memory
  --env NAME       only this attendee's environment
  --format FORMAT  markdown or html (default: both)
  --out DIR        where to write (default: handouts)
  -h, --help       this help

The identities come from the config (attendees[].aws, attendees[].gcp; see
docs/attendees.md). Exit codes: 0 written; 1 outputs missing or unreadable, or no
environment to write for; 2 bad arguments.`;

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
  const values = strictArgs(argv, {
    outputs: { type: 'string' },
    dir: { type: 'string', default: 'cdktf.out' },
    env: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string', default: 'handouts' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(`${HANDOUT_HELP}\n`);
    return 0;
  }
  const formats: HandoutFormat[] = values.format === undefined ? [...HANDOUT_FORMATS] : [values.format as HandoutFormat];
  if (!HANDOUT_FORMATS.includes(formats[0])) throw new UsageError(`--format ${values.format} is not supported; use markdown or html (default: both)`);
  const config = io.config ? io.config() : loadConfig().config;
  const environments = labEnvironments(config);
  if (values.env !== undefined && !environments.some((e) => e.name === values.env)) {
    throw new UsageError(`--env ${values.env} is not an environment of the config; use one of ${environments.map((e) => e.name).join(', ')}`);
  }

  let outputs: LabOutputs;
  try {
    outputs = values.outputs !== undefined ? readOutputsFile(values.outputs) : await (io.collect ?? ((dir) => collectOutputs(dir)))(values.dir!);
  } catch (error) {
    if (error instanceof CompareInputError) {
      io.err(`handout: ${error.message}\n`);
      return 1;
    }
    throw error;
  }

  const chosen = environments.filter((e) => values.env === undefined || e.name === values.env);
  const model = (io.explain ?? explainDefault)(config, values.dir!, values.env);
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
        hubble: { aws: config.aws.datapath === 'cilium' && config.aws.cilium?.hubble === true, gcp: config.gcp.datapath === 'dataplane-v2' && config.gcp.observability },
      }),
    );
  }
  if (handouts.length === 0) {
    io.err('handout: no environment with outputs to write a handout for\n');
    return 1;
  }
  const out = values.out!;
  mkdirSync(out, { recursive: true });
  for (const h of handouts) {
    const files = handoutFiles(h.env);
    if (formats.includes('markdown')) writeFileSync(join(out, files.markdown), handoutMarkdown(h));
    if (formats.includes('html')) writeFileSync(join(out, files.html), handoutHtml(h));
  }
  writeFileSync(join(out, 'index.html'), indexHtml(handouts, formats));
  io.out(`handout: wrote ${handouts.length} handout${handouts.length === 1 ? '' : 's'} (${formats.join(' and ')}) and index.html to ${out}/\n`);
  return 0;
}
