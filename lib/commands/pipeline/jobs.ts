/**
 * What the generated jobs of both CIs run and keep: the hoplab command lines,
 * the guards, the handouts' files, and what no artifact may hold.
 */
import { PipelineOptions } from './versions';

/** What `pipeline` decided from the config, beyond the command line's options. */
export interface PipelineInput extends PipelineOptions {
  /** `workshop.expiresAt`: the reaper's schedule starts on its day, and the deploy jobs check the config still says it. */
  readonly expiresAt: string;
  /** Whether the deploy jobs run verify, or why not (a runner outside a narrowed `app.allowedSourceCidrs`). */
  readonly verify: { readonly run: true } | { readonly run: false; readonly why: string };
  /** How long a shard job may take (its timeout and AWS session), minutes. */
  readonly jobMinutes: number;
  /** How long the reaper's one job (every environment) may take, minutes. */
  readonly reapMinutes: number;
  /**
   * The canary job: the environment deploy applies first (chooseCanary), deployed end to end and
   * verified before any shard job starts, and how long its job may take, minutes. Undefined with
   * one environment, which is its own canary.
   */
  readonly canary?: { readonly env: string; readonly minutes: number };
  /** The branch the jobs run on (a GitLab pipeline schedule's target branch). */
  readonly branch: string;
}

/** The file the deploy pipeline's last job gathers every shard's outputs into. */
export const GATHERED_FILE = 'hoplab-compare.json';

/** Where that job writes the handouts. */
export const HANDOUTS_DIR = 'handouts';

/**
 * The handouts the artifact keeps: the pages and the Markdown only, named one
 * by one by extension, so no pattern can take an attendee's kubeconfig.
 */
export const HANDOUT_ARTIFACT_FILES = [`${HANDOUTS_DIR}/*.html`, `${HANDOUTS_DIR}/*.md`] as const;

/**
 * Kubeconfig files hold an attendee's access; an artifact is readable by
 * anyone who can read the repository. Every upload excludes them.
 */
export const KUBECONFIG_EXCLUDE = '**/*.kubeconfig';

/** verify's reports, kept with the deploy jobs' logs. */
export const VERIFY_REPORTS_DIR = '.hoplab/verify/';

/** `npx hoplab <args>`: only the command's own output on stdout, so it can be redirected. */
export const hoplab = (args: string) => `npx hoplab ${args}`;

/** ` --parallelism N` when the command line gave it, else nothing (the config's deploy.parallelism). */
const parallelismArg = (options: PipelineOptions) => (options.parallelism === undefined ? '' : ` --parallelism ${options.parallelism}`);

/** The commands a shard job runs (`shard`: `K/N` as the CI spells it). */
export function shardCommands(options: PipelineOptions, shard: string, compareFile: string) {
  const parallelism = parallelismArg(options);
  return {
    deploy: hoplab(`deploy --shard ${shard}${parallelism} --yes`),
    teardown: hoplab(`teardown --shard ${shard}${parallelism} --yes`),
    compare: `${hoplab(`compare --shard ${shard} --format json`)} > ${compareFile}`,
    verify: hoplab(`verify --shard ${shard}`),
  };
}

/**
 * The commands the canary job runs: its environment alone, every stack (as deploy's own canary),
 * then verify of that environment (as the shard jobs verify theirs).
 */
export function canaryCommands(options: PipelineOptions, env: string) {
  return {
    /** The guard: the config still puts `env` first (the pipelines were written for it). */
    check: hoplab(`pipeline --check-canary ${env}`),
    deploy: hoplab(`deploy --env ${env}${parallelismArg(options)} --yes`),
    verify: hoplab(`verify --env ${env}`),
  };
}

/** The files' header line on the canary. */
export function canaryLine(input: PipelineInput): string[] {
  if (!input.canary) return [];
  const { env } = input.canary;
  const verified = input.verify.run ? ' and verified' : '';
  return [
    `The canary first: ${env}, the config's first environment (deploy's canary), deployed with every stack${verified};`,
    'the shard jobs wait for it: a failed canary stops the pipeline with one lab billed.',
  ];
}

export const COMMANDS = {
  leftovers: hoplab('teardown --leftovers-only --yes'),
  reap: hoplab('reap --yes'),
  // No kubeconfig: an artifact must never hold one, and a token minted on a runner would only be thrown away.
  handout: hoplab(`handout --outputs ${GATHERED_FILE} --out ${HANDOUTS_DIR} --no-kubeconfigs`),
  gather: (dir: string, shards: number) => hoplab(`pipeline --gather ${dir} --shards ${shards} --out ${GATHERED_FILE}`),
  /** The teardown's guard; it reads the name from {@link CONFIRM_VARIABLE} (never pasted into the script: it is text anyone running the pipeline types). */
  confirm: hoplab('pipeline --confirm-workshop'),
  checkExpiry: (expiresAt: string) => hoplab(`pipeline --check-expiry ${expiresAt}`),
} as const;

/** The variable the teardown's guard reads: GitLab's Run pipeline sets it; on GitHub the job sets it from the required input. */
export const CONFIRM_VARIABLE = 'HOPLAB_CONFIRM_WORKSHOP';
