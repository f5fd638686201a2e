/**
 * `npm run pipeline`: writes CI pipelines that deploy (the canary, then the
 * shards), tear down and reap the workshop in shards (GitHub Actions or
 * GitLab CI); gathers the shards' outputs in the deploy pipeline's last job;
 * and runs the jobs' guards against the committed config
 * (`--confirm-workshop`, `--check-expiry`, `--check-canary`).
 */
import { expiryExample } from '../../config/expiry';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LabConfig } from '../../config/schema';
import { UsageError } from '../../kit/cli/cli';
import { plural } from '../../kit/terminal/terminal';
import { wrapWords } from '../../kit/text/wrap';
import { runTool, ToolRunner } from '../../lab/checks/host-checks';
import { estimateTime, exposuresPerEnvironment, verifyTime } from '../../lab/estimate/time-estimate';
import { STACK_KINDS } from '../../lab/selection/stack-graph';
import { chooseCanary } from '../../lab/selection/canary';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { selectEnvironments } from '../../lab/selection/selection';
import { checkShardBackend } from '../../lab/selection/shard';
import { readLabConfig } from '../../lab/files/config-file';
import { admitsAnyAddress } from '../../model/cidr';
import { workflowBranch } from './branch';
import { PIPELINE_COMMAND } from './command';
import { checkConfigTracked } from './config-tracked';
import { formatGathered, gatherOutputs } from './gather';
import { GeneratedFile, githubActionsWorkflows } from './github-actions';
import { gitlabPipeline } from './gitlab-ci';
import { checkCanary, checkExpiry, confirmWorkshop } from './guards';
import { CONFIRM_VARIABLE, GATHERED_FILE, PipelineInput } from './jobs';
import { reapCrons, reapUntil, REAP_WINDOW_HOURS } from './reaper';
import { githubTrust, gitlabTrust, repositoryOf, TEARDOWN_ENVIRONMENT, TrustConditions, trustLines } from './trust';

/** What the command reads besides its arguments; tests replace parts. */
export interface PipelineIo {
  /** One line of output. @default console.log */
  readonly out?: (line: string) => void;
  /** Where the config is looked for. @default process.cwd() */
  readonly cwd?: string;
  /** `HOPLAB_CONFIG` and `HOPLAB_CONFIRM_WORKSHOP`. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** The time now: an expiry in the past is said. @default the system clock */
  readonly now?: () => Date;
  /** Runs git. @default runTool */
  readonly run?: ToolRunner;
}

/** Why no pipeline was written: every reason at once, each naming the config file it read. */
class PipelineRefused extends Error {
  /** The config file read is not in the heading: runCli names it on the refusal's last line (sayOnRefusal), and a missing one is the first reason. */
  constructor(readonly reasons: readonly string[]) {
    super(`hoplab pipeline: nothing written:\n${reasons.map((r) => `  - ${r}`).join('\n')}`);
  }

  get userMessage(): string {
    return this.message;
  }
}

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function pipeline(argv: readonly string[], io: PipelineIo = {}): Promise<number> {
  const values = PIPELINE_COMMAND.parse(argv);
  if (!values) return 0;
  const out = io.out ?? ((line: string) => console.log(line));
  const cwd = io.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  const write = values['github-actions'] || values['gitlab-ci'];
  const uses = [
    write && '--github-actions/--gitlab-ci',
    values.gather !== undefined && '--gather',
    values['confirm-workshop'] && '--confirm-workshop',
    values['check-expiry'] !== undefined && '--check-expiry',
    values['check-canary'] !== undefined && '--check-canary',
  ].filter((u): u is string => typeof u === 'string');
  if (uses.length > 1) throw new UsageError(`${uses.join(' and ')} are separate uses; give one`);
  if (values.branch !== undefined && !write) throw new UsageError('--branch goes with --github-actions or --gitlab-ci: it names the branch the written jobs run on');
  if (values['confirm-workshop']) {
    const { config, source } = readLabConfig({ cwd, env });
    out(confirmWorkshop(config, source, env[CONFIRM_VARIABLE], cwd));
    return 0;
  }
  if (values['check-expiry'] !== undefined) {
    const { config, source } = readLabConfig({ cwd, env });
    out(checkExpiry(config, source, values['check-expiry'], cwd));
    return 0;
  }
  if (values['check-canary'] !== undefined) {
    const { config, source } = readLabConfig({ cwd, env });
    out(checkCanary(config, source, values['check-canary'], cwd));
    return 0;
  }
  const { shards } = values;
  if (uses.length === 0) throw new UsageError('say which CI: --github-actions or --gitlab-ci');
  if (shards === undefined) throw new UsageError(`--shards N is required with ${uses[0]}`);
  if (values.gather !== undefined) {
    const gathered = gatherOutputs(values.gather, shards);
    writeFileSync(values.out, `${JSON.stringify(gathered.document, null, 2)}\n`);
    for (const line of formatGathered(gathered, shards)) out(line);
    return gathered.missing.length === 0 ? 0 : 1;
  }

  const { config, source } = readLabConfig({ cwd, env });
  const run = io.run ?? runTool;
  const reasons: string[] = [];
  const notes: string[] = [];
  if (source === 'defaults') {
    reasons.push('no hoplab.config.json, .yaml or .yml here (nor HOPLAB_CONFIG): the pipelines would run with the defaults; write the config, commit it, and run pipeline again');
  } else {
    const tracked = checkConfigTracked(source, run);
    if (tracked.problem) reasons.push(tracked.problem);
    notes.push(...tracked.notes);
  }
  try {
    checkShardBackend(config.backend, { index: 1, total: shards });
  } catch (error) {
    reasons.push((error as Error).message);
  }
  const { expiresAt } = config.workshop;
  const now = (io.now ?? (() => new Date()))();
  if (expiresAt === undefined) {
    // The example is this machine's tomorrow, 18:00 UTC, not a fixed date that would itself have passed one day.
    reasons.push(`workshop.expiresAt is unset: the reaper (a scheduled job) tears the workshop down once it has passed; set it, e.g. ${expiryExample(now)} (UTC)`);
  }
  if (reasons.length > 0 || expiresAt === undefined) throw new PipelineRefused(reasons);
  if (new Date(reapUntil(expiresAt)).getTime() <= now.getTime()) {
    notes.push(`note: workshop.expiresAt (${expiresAt}) is more than ${REAP_WINDOW_HOURS} hours past: the reaper will not run; set the next workshop's end`);
  } else if (new Date(expiresAt).getTime() <= now.getTime()) {
    notes.push(`note: workshop.expiresAt (${expiresAt}) has passed: the reaper tears the workshop down at its next hourly run`);
  }

  // A runner's memory is unknown here: size the job for the configured number, or 4 for auto.
  const setting = values.parallelism ?? config.deploy.parallelism;
  const parallelism = setting === 'auto' ? 4 : resolveParallelism(setting, []).parallelism;
  const envs = selectEnvironments(config);
  const verify = verifyPlan(config);
  const exposures = exposuresPerEnvironment(config.exposures, STACK_KINDS);
  // A shard job: its deploy, then its verify (where the jobs verify), or its teardown; the slowest sizes every shard job.
  const slowest = Math.max(...(['deploy', 'destroy'] as const).map((d) => estimateTime(d, { envs, parallelism, shards, jobs: true, jobsVerify: verify.run, exposures }).minutes));
  if (slowest * 2 > JOB_LIMIT_MINUTES) {
    notes.push(
      `note: a shard is estimated at ${Math.round(slowest)} min, and its job gets at most ${JOB_LIMIT_MINUTES} min (GitHub-hosted runners stop a job after 6 hours): ` +
        'give more --shards so each job keeps twice its estimate',
    );
  }
  // The environment deploy would apply first; its job: its stacks alone, then its verify where the jobs verify, doubled like the others.
  const canary = chooseCanary(envs, { noCanary: false }).env;
  const canaryVerifyMinutes = verify.run ? verifyTime(STACK_KINDS.length, exposures).minutes : 0;
  const branch = workflowBranch(values.dir, values.branch, run);
  const input: PipelineInput = {
    shards,
    parallelism: values.parallelism,
    expiresAt,
    verify,
    jobMinutes: jobMinutes(slowest),
    // The reaper tears every environment down in one job.
    reapMinutes: jobMinutes(estimateTime('destroy', { envs, parallelism, shards: 1 }).minutes),
    ...(canary ? { canary: { env: canary, minutes: jobMinutes(estimateTime('deploy', { envs: [canary], parallelism }).minutes + canaryVerifyMinutes) } } : {}),
    branch: branch.name,
  };
  const files: GeneratedFile[] = [];
  if (values['github-actions']) files.push(...githubActionsWorkflows(input));
  if (values['gitlab-ci']) files.push(gitlabPipeline(input));
  for (const file of files) {
    const path = join(values.dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
    out(`wrote ${path}`);
  }
  const remote = run('git', ['-C', values.dir, 'remote', 'get-url', 'origin']);
  const repository = remote.ok ? repositoryOf(remote.output) : undefined;
  const trusts: TrustConditions[] = [
    ...(values['github-actions'] ? [githubTrust(repository?.path, branch)] : []),
    ...(values['gitlab-ci'] ? [gitlabTrust(repository?.path, repository && repository.host !== 'github.com' ? repository.host : undefined, branch)] : []),
  ];
  const session = Math.max(input.jobMinutes, input.reapMinutes, input.canary?.minutes ?? 0) * 60;
  const say = (text: string) => wrapWords(text, 80, 'punctuation').forEach((line) => out(line));
  say(
    `${plural(envs.length, 'environment')} in ${plural(shards, 'shard')}; each job may take ${input.jobMinutes} min (twice the estimate at ${parallelism} stacks at a time), ` +
      `the reaper's ${input.reapMinutes} min: the AWS role's maximum session duration must allow ${session} s. ` +
      'Set the CI variables the files name (docs/workshops-and-ci.md, "A workshop on CI runners").',
  );
  say(
    `The reaper: hourly at :17 UTC (${reapCrons(expiresAt).join('; ')}), reaping from ${expiresAt} (workshop.expiresAt) to ${reapUntil(expiresAt)}` +
      `${values['gitlab-ci'] ? '; on GitLab, create a pipeline schedule per cron line (the header of .gitlab-ci.yml says how)' : ''}.`,
  );
  say(
    `The teardown asks for the workshop's name (${config.workshop.name}) and runs in the environment ${TEARDOWN_ENVIRONMENT}: ` +
      'protect it where your plan allows (docs/workshops-and-ci.md, "The teardown is not one click").',
  );
  say(
    input.canary
      ? `The canary: ${input.canary.env}, the environment deploy applies first, is deployed with every stack${input.verify.run ? ' and verified' : ''} in a job of its own ` +
          `(${input.canary.minutes} min at most) before the shard jobs start; they wait for it, and the shard that holds ${input.canary.env} finds it applied.`
      : `One environment: no canary job (it is its own canary).`,
  );
  say(input.verify.run ? 'verify: each deploy job runs it after its shard.' : `verify: not in the pipelines: ${input.verify.why}.`);
  say(`Handouts: the deploy pipeline's last job writes them from ${GATHERED_FILE}; its artifact keeps their pages and Markdown, never a kubeconfig.`);
  for (const trust of trusts) trustLines(trust).forEach((line) => out(line));
  for (const note of notes) say(note);
  return 0;
}

/**
 * The longest a job may run: GitHub-hosted runners stop a job after 6 hours of execution
 * ("Usage limits, billing, and administration", docs.github.com, read 2026-12-07).
 */
export const JOB_LIMIT_MINUTES = 360;

/** A job's minutes: twice the estimate, in half hours, from 1 hour to the hosted runners' 6. */
function jobMinutes(estimate: number): number {
  return Math.min(JOB_LIMIT_MINUTES, Math.max(60, Math.ceil((estimate * 2) / 30) * 30));
}

/**
 * verify probes the load balancers: a narrowed `app.allowedSourceCidrs` admits
 * the room, not a CI runner (a hosted runner's address is one of its cloud's
 * many), so there verify would measure nothing and say INCOMPLETE. It then
 * runs from inside the list instead.
 */
function verifyPlan(config: LabConfig): PipelineInput['verify'] {
  const allowed = config.app.allowedSourceCidrs;
  if (admitsAnyAddress(allowed)) return { run: true };
  return {
    run: false,
    why:
      `app.allowedSourceCidrs admits only ${allowed.join(', ')}: a CI runner's address is outside it, so the load balancers would not answer its probes ` +
      `(verify: INCOMPLETE); run npx hoplab verify --outputs ${GATHERED_FILE} from an address inside the list, with the deploy's credentials (its drift check plans every stack)`,
  };
}
