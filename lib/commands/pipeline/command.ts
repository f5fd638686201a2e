/** `npm run pipeline`'s command line. */
import { booleanFlag, defineCommand, stringFlag } from '../../kit/cli/command';
import { fixedParallelismFlag, givenShardsFlag } from '../../lab/selection/flags';
import { parseBranch } from './branch';
import { GITLAB_MAX_PARALLEL } from './gitlab-ci';
import { CONFIRM_VARIABLE } from './jobs';
import { REAP_WINDOW_HOURS } from './reaper';
import { TEARDOWN_ENVIRONMENT } from './trust';

export const PIPELINE_COMMAND = defineCommand({
  name: 'pipeline',
  summary: 'writes sharded CI pipelines (GitHub Actions, GitLab CI)',
  usage: [
    '(--github-actions | --gitlab-ci) --shards N [--parallelism N] [--branch NAME] [--dir DIR]',
    '--gather DIR --shards N [--out FILE]',
    '--confirm-workshop | --check-expiry TIME | --check-canary NAME',
  ],
  description: `Writes CI pipelines that run the workshop in N shards, one CI job each (every
environment in exactly one shard; see deploy --help, --shard), for GitHub Actions or GitLab CI.

Each shard job checks out the repository, runs npm ci, authenticates to AWS and Google Cloud by
OIDC federation (no keys stored anywhere), sets up Terraform with a provider cache shared across
jobs, and runs deploy (or teardown) --shard K/N --yes. The deploy jobs then run verify, unless a
narrowed app.allowedSourceCidrs keeps a CI runner out (then run verify from inside the list).
With more than one environment, the deploy pipeline starts with the canary job: the environment
deploy applies first (the config's first) with every stack, then its verify (where the deploy
jobs run it); the shard jobs wait for it, so a failed canary stops the pipeline with one lab
billed, and the shard that holds it finds it applied. The deploy pipeline ends with a job
gathering every shard's outputs and writing the handouts (an artifact of their pages and
Markdown, never a kubeconfig). The teardown is not one click: it must
be given the workshop's name (workshop.name), checked before anything runs, and its jobs use the
environment ${TEARDOWN_ENVIRONMENT}, to protect where the plan allows; it ends with teardown
--leftovers-only over every environment. The reaper runs hourly on the days from
workshop.expiresAt to ${REAP_WINDOW_HOURS} hours after it, checks the date with its year (cron has none), and
runs npx hoplab reap --yes only in that window (GitHub: a schedule; GitLab: a pipeline schedule
you create, as the file's header says).

The pipelines read the config from the repository: it must be committed (pipeline refuses when
git does not track it; keep the repository private, it names your attendees), have an s3 or gcs
backend and a workshop.expiresAt. The jobs' timeout and AWS session length are twice the time
estimate (npx hoplab cost --shards N): a shard job's of its deploy and then its verify (where
the deploy jobs run it), or of its teardown. pipeline prints the OIDC subjects the
cloud roles must trust, for the branch the jobs run on: --branch, else the repository's default
branch as git knows it (origin/HEAD), else the current branch, else main (said as assumed).`,
  flags: {
    'github-actions': booleanFlag({ description: 'write .github/workflows/hoplab-deploy.yml, hoplab-teardown.yml (workflow_dispatch) and hoplab-reap.yml (schedule)' }),
    'gitlab-ci': booleanFlag({ description: `write .gitlab-ci.yml (Run pipeline with HOPLAB_ACTION=deploy or teardown; N <= ${GITLAB_MAX_PARALLEL})` }),
    shards: givenShardsFlag('shards, with --github-actions, --gitlab-ci and --gather'),
    parallelism: fixedParallelismFlag('stacks at once in each job; the config\'s "auto" measures the runner\'s memory'),
    dir: stringFlag({ value: 'DIR', default: '.', description: 'repository root to write into' }),
    branch: stringFlag({
      value: 'NAME',
      parse: parseBranch,
      defaultText: 'origin/HEAD, else the current branch, else main',
      description: "the branch the jobs run on (the OIDC subjects name it; GitLab: the schedule's target branch)",
    }),
    gather: stringFlag({
      value: 'DIR',
      description: "(the deploy pipeline's last job) merge DIR/hoplab-compare-<K>.json into --out, print a summary; exit 1 when a shard's file is missing",
    }),
    out: stringFlag({ value: 'FILE', default: 'hoplab-compare.json', description: 'where --gather writes' }),
    'confirm-workshop': booleanFlag({ description: `(the teardown's first job) exit 1 unless ${CONFIRM_VARIABLE} is the config's workshop.name` }),
    'check-expiry': stringFlag({
      value: 'TIME',
      description: "(each deploy job, before its credentials) exit 1 unless the config's workshop.expiresAt is TIME, the one the reaper's schedule was written for",
    }),
    'check-canary': stringFlag({ value: 'NAME', description: "(the canary job) exit 1 unless NAME is the environment deploy applies first, the config's first" }),
  },
  environment: [[CONFIRM_VARIABLE, "the workshop name --confirm-workshop checks (the teardown's required input)"]],
  epilogue: `Exit codes: 0 written, or the check passed; 1 refused (the config is not committed, has no
s3 or gcs backend or no workshop.expiresAt), a check failed, or --gather found a shard missing;
2 bad command line.`,
});
