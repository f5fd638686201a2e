/** `npm run pipeline`'s command line. */
import { booleanFlag, defineCommand, stringFlag } from '../../kit/cli/command';
import { fixedParallelismFlag, requiredShardsFlag } from '../../lab/selection/flags';
import { GITLAB_MAX_PARALLEL } from './gitlab-ci';

export const PIPELINE_COMMAND = defineCommand({
  name: 'pipeline',
  summary: 'writes sharded CI pipelines (GitHub Actions, GitLab CI)',
  usage: ['(--github-actions | --gitlab-ci) --shards N [--parallelism N] [--dir DIR]', '--gather DIR --shards N [--out FILE]'],
  description: `Writes CI pipelines that run the workshop in N shards, one CI job each (every
environment in exactly one shard; see deploy --help, --shard), for GitHub Actions or GitLab CI.

Each shard job checks out the repository, runs npm ci, authenticates to AWS and Google Cloud by
OIDC federation (no keys stored anywhere), sets up Terraform with a provider cache shared across
jobs, and runs deploy (or teardown) --shard K/N --yes. The deploy pipeline ends with a job
gathering every shard's outputs; the teardown pipeline with teardown --leftovers-only over every
environment. The config needs an s3 or gcs backend. The jobs' timeout and AWS session length come
from the deploy-time estimate (npm run cost -- --shards N), doubled.`,
  flags: {
    'github-actions': booleanFlag({ description: 'write .github/workflows/hoplab-deploy.yml and hoplab-teardown.yml (workflow_dispatch)' }),
    'gitlab-ci': booleanFlag({ description: `write .gitlab-ci.yml (Run pipeline with HOPLAB_ACTION=deploy or teardown; N <= ${GITLAB_MAX_PARALLEL})` }),
    shards: requiredShardsFlag('shards'),
    parallelism: fixedParallelismFlag('stacks at once in each job; the config\'s "auto" measures the runner\'s memory'),
    dir: stringFlag({ value: 'DIR', default: '.', description: 'repository root to write into' }),
    gather: stringFlag({
      value: 'DIR',
      description: "(the deploy pipeline's last job) merge DIR/hoplab-compare-<K>.json into --out, print a summary; exit 1 when a shard's file is missing",
    }),
    out: stringFlag({ value: 'FILE', default: 'hoplab-compare.json', description: 'where --gather writes' }),
  },
});
