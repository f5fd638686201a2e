/**
 * `npm run pipeline`: writes CI pipelines that deploy and tear down the
 * workshop in shards (GitHub Actions or GitLab CI), and gathers the shards'
 * outputs in the pipeline's last job.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readLabConfig } from '../../lab/files/config-file';
import { UsageError } from '../../kit/cli/cli';
import { selectEnvironments } from '../../lab/selection/selection';
import { resolveParallelism } from '../../lab/selection/parallelism';
import { checkShardBackend } from '../../lab/selection/shard';
import { estimateTime } from '../../lab/estimate/time-estimate';
import { formatGathered, gatherOutputs } from './gather';
import { GeneratedFile, githubActionsWorkflows } from './github-actions';
import { gitlabPipeline } from './gitlab-ci';
import { plural } from '../../kit/terminal/terminal';
import { PIPELINE_COMMAND } from './command';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function pipeline(argv: readonly string[]): Promise<number> {
  const values = PIPELINE_COMMAND.parse(argv);
  if (!values) return 0;
  const { shards } = values;
  if (values.gather !== undefined) {
    const gathered = gatherOutputs(values.gather, shards);
    writeFileSync(values.out, `${JSON.stringify(gathered.document, null, 2)}\n`);
    for (const line of formatGathered(gathered, shards)) console.log(line);
    return gathered.missing.length === 0 ? 0 : 1;
  }
  const targets = [values['github-actions'] && 'github', values['gitlab-ci'] && 'gitlab'].filter(Boolean);
  if (targets.length === 0) throw new UsageError('say which CI: --github-actions or --gitlab-ci');
  const config = readLabConfig().config;
  checkShardBackend(config.backend, { index: 1, total: shards });
  const options = { shards, parallelism: values.parallelism };
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
    const path = join(values.dir, file.path);
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
