/**
 * `npm run pipeline`: writes CI pipelines that deploy and tear down the
 * workshop in shards (GitHub Actions or GitLab CI), and gathers the shards'
 * outputs in the pipeline's last job.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../config/load';
import { strictArgs, UsageError } from '../../kit/cli/cli';
import { selectEnvironments } from '../../lab/selection/selection';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { checkShardBackend, MAX_SHARDS } from '../../lab/selection/shard';
import { estimateTime } from '../../lab/estimate/time-estimate';
import { formatGathered, gatherOutputs } from './gather';
import { GeneratedFile, githubActionsWorkflows } from './github-actions';
import { gitlabPipeline, GITLAB_MAX_PARALLEL } from './gitlab-ci';
import { plural } from '../../kit/terminal/terminal';

export const PIPELINE_HELP = `usage: npm run pipeline -- (--github-actions | --gitlab-ci) --shards N [--parallelism N] [--dir DIR]
       npm run pipeline -- --gather DIR --shards N [--out FILE]

Writes CI pipelines that run the workshop in N shards, one CI job each (every
environment in exactly one shard; see deploy --help, --shard):
  --github-actions  .github/workflows/hoplab-deploy.yml and hoplab-teardown.yml (workflow_dispatch)
  --gitlab-ci       .gitlab-ci.yml (Run pipeline with HOPLAB_ACTION=deploy or teardown; N <= ${GITLAB_MAX_PARALLEL})
Each shard job checks out the repository, runs npm ci, authenticates to AWS and Google Cloud
by OIDC federation (no keys stored anywhere), sets up Terraform with a provider cache shared
across jobs, and runs deploy (or teardown) --shard K/N --yes. The deploy pipeline ends with a
job gathering every shard's outputs; the teardown pipeline with teardown --leftovers-only over
every environment. The config needs an s3 or gcs backend. The jobs' timeout and AWS session
length come from the deploy-time estimate (npm run cost -- --shards N), doubled.

  --shards N        shards (1-${MAX_SHARDS})
  --parallelism N   stacks at once in each job (1-32; default: the config's deploy.parallelism,
                    whose "auto" then measures the runner's memory)
  --dir DIR         repository root to write into (default .)
  --gather DIR      (the deploy pipeline's last job) merge DIR/hoplab-compare-<K>.json into --out,
                    print a summary; exit 1 when a shard's file is missing
  --out FILE        where --gather writes (default hoplab-compare.json)`;

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function pipeline(argv: readonly string[]): Promise<number> {
  const values = strictArgs(argv, {
    'github-actions': { type: 'boolean' },
    'gitlab-ci': { type: 'boolean' },
    shards: { type: 'string' },
    parallelism: { type: 'string' },
    dir: { type: 'string', default: '.' },
    gather: { type: 'string' },
    out: { type: 'string', default: 'hoplab-compare.json' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(PIPELINE_HELP);
    return 0;
  }
  const shards = Number(values.shards);
  if (values.shards === undefined || !Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
    throw new UsageError(`--shards: ${values.shards === undefined ? 'missing' : JSON.stringify(values.shards)}; give a whole number from 1 to ${MAX_SHARDS}`);
  }
  if (values.gather !== undefined) {
    const gathered = gatherOutputs(values.gather, shards);
    writeFileSync(values.out!, `${JSON.stringify(gathered.document, null, 2)}\n`);
    for (const line of formatGathered(gathered, shards)) console.log(line);
    return gathered.missing.length === 0 ? 0 : 1;
  }
  const targets = [values['github-actions'] && 'github', values['gitlab-ci'] && 'gitlab'].filter(Boolean);
  if (targets.length === 0) throw new UsageError('say which CI: --github-actions or --gitlab-ci');
  const p = values.parallelism;
  if (p !== undefined && !(/^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= 32)) throw new UsageError(`--parallelism: ${JSON.stringify(p)} is not a whole number from 1 to 32`);
  const config = loadConfig().config;
  checkShardBackend(config.backend, { index: 1, total: shards });
  const options = { shards, parallelism: p === undefined ? undefined : Number(p) };
  // A runner's memory is unknown here: size the job for the configured number, or 4 for auto.
  const setting = options.parallelism ?? config.deploy.parallelism;
  const parallelism = setting === 'auto' ? 4 : resolveParallelism(setting, []).parallelism;
  const envs = selectEnvironments(config);
  const slowest = Math.max(...(['deploy', 'destroy'] as const).map((d) => estimateTime(d, { envs, parallelism, shards }).minutes));
  const jobMinutes = Math.min(720, Math.max(60, Math.ceil((slowest * 2) / 30) * 30));
  const files: GeneratedFile[] = [];
  if (values['github-actions']) files.push(...githubActionsWorkflows(options, jobMinutes * 60));
  if (values['gitlab-ci']) files.push(gitlabPipeline(options, jobMinutes));
  for (const file of files) {
    const path = join(values.dir!, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text);
    console.log(`wrote ${path}`);
  }
  console.log(
    `${plural(envs.length, 'environment')} in ${plural(shards, 'shard')}; each job may take ${jobMinutes} min (twice the estimate at ${parallelism} stacks at a time): ` +
      `the AWS role's maximum session duration must allow ${jobMinutes * 60} s. Set the CI variables the files name (docs/workshops-and-ci.md, "A workshop on CI runners").`,
  );
  return 0;
}
