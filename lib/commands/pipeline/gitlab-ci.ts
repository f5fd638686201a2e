/**
 * A GitLab CI pipeline for a sharded workshop, in one `.gitlab-ci.yml`: run it
 * with HOPLAB_ACTION=deploy (the canary job, its environment end to end and
 * verified, in a stage before the shards'; a parallel job per shard; then one
 * job gathering the outputs and writing the handouts, which ends at once when the
 * canary failed) or HOPLAB_ACTION=teardown and
 * HOPLAB_CONFIRM_WORKSHOP=<workshop.name> (a job checking that name, a
 * parallel job per shard in the `hoplab-teardown` environment, then the
 * all-environment leftover check); a pipeline schedule runs the reaper (a date
 * check, then `reap` once the workshop has ended). Cloud access by the jobs'
 * OIDC ID tokens: AWS assumes the role with the web identity token (the SDKs'
 * own AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE, renewed as needed), Google
 * exchanges it through Workload Identity Federation (an external_account
 * credential configuration). No keys in the repository or its variables.
 */
import { stringify } from 'yaml';
import { GeneratedFile } from './github-actions';
import { canaryCommands, canaryLine, COMMANDS, CONFIRM_VARIABLE, GATHERED_FILE, HANDOUT_ARTIFACT_FILES, KUBECONFIG_EXCLUDE, PipelineInput, shardCommands, VERIFY_REPORTS_DIR } from './jobs';
import { dueCheckScript, reapCrons, REAP_VARIABLES, REAP_WINDOW_HOURS } from './reaper';
import { TEARDOWN_ENVIRONMENT } from './trust';
import { CI_VARIABLES, PIPELINE_VERSIONS as V } from './versions';

/** GitLab runs 2 to 200 parallel jobs of one job definition. */
export const GITLAB_MAX_PARALLEL = 200;

const SHARD = '"${CI_NODE_INDEX:-1}/${CI_NODE_TOTAL:-1}"';

const INSTALL_TOOLS = [
  'apt-get update -qq && apt-get install -y -qq unzip gnupg curl ca-certificates > /dev/null',
  // Terraform, checked against HashiCorp's published checksums.
  [
    'cd /tmp',
    'curl -fsSLO "https://releases.hashicorp.com/terraform/${TERRAFORM_VERSION}/terraform_${TERRAFORM_VERSION}_linux_amd64.zip"',
    'curl -fsSL "https://releases.hashicorp.com/terraform/${TERRAFORM_VERSION}/terraform_${TERRAFORM_VERSION}_SHA256SUMS" | grep "_linux_amd64.zip" | sha256sum -c -',
    'unzip -q -o "terraform_${TERRAFORM_VERSION}_linux_amd64.zip" -d /usr/local/bin',
    'cd "$CI_PROJECT_DIR"',
  ].join(' && '),
  // The AWS CLI: the EKS providers' token command (aws eks get-token).
  'curl -fsSL -o /tmp/awscli.zip https://awscli.amazonaws.com/awscli-exe-linux-x86_64.zip && unzip -q /tmp/awscli.zip -d /tmp && /tmp/aws/install > /dev/null',
  // gcloud and gke-gcloud-auth-plugin: the GKE providers' token command and the leftover check's token.
  [
    'curl -fsSL https://packages.cloud.google.com/apt/doc/apt-key.gpg | gpg --dearmor -o /usr/share/keyrings/cloud.google.gpg',
    'echo "deb [signed-by=/usr/share/keyrings/cloud.google.gpg] https://packages.cloud.google.com/apt cloud-sdk main" > /etc/apt/sources.list.d/google-cloud-sdk.list',
    'apt-get update -qq && apt-get install -y -qq google-cloud-cli google-cloud-cli-gke-gcloud-auth-plugin > /dev/null',
  ].join(' && '),
];

const FEDERATE = [
  'mkdir -p .hoplab "$TF_PLUGIN_CACHE_DIR"',
  // AWS: the SDKs and the Terraform provider call sts:AssumeRoleWithWebIdentity themselves with these.
  'printf "%s" "$AWS_ID_TOKEN" > .hoplab/aws-id-token',
  `export AWS_ROLE_ARN="$${CI_VARIABLES.awsRoleArn}" AWS_WEB_IDENTITY_TOKEN_FILE="$CI_PROJECT_DIR/.hoplab/aws-id-token" AWS_ROLE_SESSION_NAME="hoplab-$CI_JOB_ID" AWS_REGION="$${CI_VARIABLES.awsRegion}"`,
  // Google: Workload Identity Federation, impersonating the lab's service account.
  'printf "%s" "$GCP_ID_TOKEN" > .hoplab/gcp-id-token',
  [
    'cat > .hoplab/gcp-credentials.json <<EOF',
    '{',
    '  "type": "external_account",',
    `  "audience": "//iam.googleapis.com/$${CI_VARIABLES.gcpWorkloadIdentityProvider}",`,
    '  "subject_token_type": "urn:ietf:params:oauth:token-type:jwt",',
    '  "token_url": "https://sts.googleapis.com/v1/token",',
    `  "service_account_impersonation_url": "https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/$${CI_VARIABLES.gcpServiceAccount}:generateAccessToken",`,
    '  "credential_source": { "file": "$CI_PROJECT_DIR/.hoplab/gcp-id-token" }',
    '}',
    'EOF',
  ].join('\n'),
  'export GOOGLE_APPLICATION_CREDENTIALS="$CI_PROJECT_DIR/.hoplab/gcp-credentials.json"',
  'gcloud auth login --cred-file="$GOOGLE_APPLICATION_CREDENTIALS" --quiet',
];

/** Deploy and teardown run only when a person (Run pipeline) or the API asks, never on a push or a schedule. */
const onAction = (action: 'deploy' | 'teardown', when?: 'always') => [{ if: `$CI_PIPELINE_SOURCE != "schedule" && $HOPLAB_ACTION == "${action}"`, ...(when ? { when } : {}) }];

/** The reaper runs only in a scheduled pipeline. */
const ON_SCHEDULE = [{ if: '$CI_PIPELINE_SOURCE == "schedule"' }];

/** Artifacts kept 30 days, never an attendee's kubeconfig (anyone who can read the project can read an artifact). */
const keep = (paths: readonly string[]) => ({ when: 'always', paths: [...paths], exclude: [KUBECONFIG_EXCLUDE], expire_in: '30 days' });

/**
 * The file the canary job writes as its last step, so only a canary that passed leaves it in its
 * artifacts. GitLab has no keyword for "after the shard jobs, failed or not, but only if the canary
 * passed" (docs.gitlab.com/ci/yaml/, from its source doc/ci/yaml/_index.md in gitlabhq/gitlabhq at
 * 0286e4c6, read 2026-12-07): `rules` are evaluated when the pipeline is created ("`rules`
 * evaluation happens before jobs run and artifacts are fetched", `rules:exists`), so no rule sees a
 * job's result; `when: always` runs a job "regardless of the status of jobs in earlier stages",
 * and a job it `needs` that failed does not stop it (gitlab-org/gitlab#368733); `when: on_success`
 * would skip the outputs job after one failed shard; `allow_failure: true` on the shard jobs would
 * let it run, but a failed shard "is always considered successful" and the pipeline passes;
 * `needs:optional` is only for a job that may be absent from the pipeline. So the outputs job stays
 * `when: always`, takes the canary job's artifacts, and looks for this file first.
 */
export const CANARY_PASSED_FILE = '.hoplab/canary-passed';

/** The outputs job's exit code when the canary failed: allowed to fail (a warning, as GitHub's skipped job), unlike the gather's own 1. */
export const CANARY_FAILED_EXIT = 3;

/** The outputs job's first step after a canary: without the canary's file, nothing ran to gather. */
const CANARY_PASSED_CHECK = `test -f ${CANARY_PASSED_FILE} || { echo "the canary failed: nothing to gather (the shard jobs did not run; the canary job's log says why)"; exit ${CANARY_FAILED_EXIT}; }`;

export function gitlabPipeline(input: PipelineInput): GeneratedFile {
  if (input.shards > GITLAB_MAX_PARALLEL) {
    throw new Error(`--shards: ${input.shards} is more than GitLab's ${GITLAB_MAX_PARALLEL} parallel jobs of one job; use at most ${GITLAB_MAX_PARALLEL}`);
  }
  const parallel = input.shards > 1 ? { parallel: input.shards } : {};
  const run = shardCommands(input, SHARD, '"hoplab-compare-${CI_NODE_INDEX:-1}.json"');
  const timeout = `${input.jobMinutes} minutes`;
  const crons = reapCrons(input.expiresAt);
  const logs = ['.hoplab/logs/', ...(input.verify.run ? [VERIFY_REPORTS_DIR] : [])];
  // The canary's stage comes before the shards': a failed canary leaves them skipped, one lab billed.
  const canary = input.canary && canaryCommands(input, input.canary.env);
  const pipeline = {
    workflow: {
      rules: [{ if: '$CI_PIPELINE_SOURCE == "schedule"' }, { if: '($CI_PIPELINE_SOURCE == "web" || $CI_PIPELINE_SOURCE == "api") && ($HOPLAB_ACTION == "deploy" || $HOPLAB_ACTION == "teardown")' }],
    },
    variables: {
      HOPLAB_ACTION: {
        value: 'deploy',
        options: ['deploy', 'teardown'],
        description: 'deploy: apply every shard, then gather the outputs and write the handouts; teardown: destroy every shard, then check every environment for leftovers',
      },
      [CONFIRM_VARIABLE]: { value: '', description: "teardown only: type the workshop's name (workshop.name in the config); the teardown refuses any other" },
      TERRAFORM_VERSION: V.terraform,
      TF_PLUGIN_CACHE_DIR: '$CI_PROJECT_DIR/.hoplab/plugin-cache',
      TF_IN_AUTOMATION: '1',
    },
    stages: ['confirm', ...(canary ? ['canary'] : []), 'deploy', 'outputs', 'teardown', 'leftovers', 'reap'],
    default: { image: V.gitlabImage },
    '.hoplab-clouds': {
      id_tokens: {
        AWS_ID_TOKEN: { aud: 'sts.amazonaws.com' },
        GCP_ID_TOKEN: { aud: `https://iam.googleapis.com/$${CI_VARIABLES.gcpWorkloadIdentityProvider}` },
      },
      // Providers are pinned by package-lock.json: one cache per lock file, shared by all jobs.
      cache: { key: { files: ['package-lock.json'], prefix: 'terraform-providers' }, paths: ['.hoplab/plugin-cache/'] },
      before_script: [...INSTALL_TOOLS, ...FEDERATE, 'npm ci'],
      timeout,
    },
    ...(canary && input.canary
      ? {
          canary: {
            extends: '.hoplab-clouds',
            stage: 'canary',
            rules: onAction('deploy'),
            // The deploy jobs' guard first, then the canary's own: the config still puts this environment first.
            // Its last step marks it passed, for the outputs job (CANARY_PASSED_FILE): a failed step ends the script before it.
            script: [COMMANDS.checkExpiry(input.expiresAt), canary.check, canary.deploy, ...(input.verify.run ? [canary.verify] : []), `touch ${CANARY_PASSED_FILE}`],
            timeout: `${input.canary.minutes} minutes`,
            artifacts: keep([...logs, CANARY_PASSED_FILE]),
          },
        }
      : {}),
    deploy: {
      extends: '.hoplab-clouds',
      stage: 'deploy',
      ...parallel,
      rules: onAction('deploy'),
      // Not the canary's artifacts (a job takes every earlier stage's by default): each shard keeps its own logs and reports.
      ...(canary ? { dependencies: [] } : {}),
      script: [COMMANDS.checkExpiry(input.expiresAt), run.deploy, run.compare, ...(input.verify.run ? [run.verify] : [])],
      artifacts: keep(['hoplab-compare-*.json', ...logs]),
    },
    outputs: {
      stage: 'outputs',
      needs: [...(canary ? [{ job: 'canary', artifacts: true }] : []), { job: 'deploy', artifacts: true }],
      // After failed shards too (it names them); after a failed canary it ends at its first step, which says so (CANARY_PASSED_FILE).
      rules: onAction('deploy', 'always'),
      ...(canary ? { allow_failure: { exit_codes: [CANARY_FAILED_EXIT] } } : {}),
      // The handouts of the environments that deployed, even when a shard sent nothing (the gather's exit code is the job's).
      script: [...(canary ? [CANARY_PASSED_CHECK] : []), 'npm ci', `status=0; ${COMMANDS.gather('.', input.shards)} || status=$?`, COMMANDS.handout, 'exit $status'],
      artifacts: keep([GATHERED_FILE, ...HANDOUT_ARTIFACT_FILES]),
    },
    confirm: {
      stage: 'confirm',
      rules: onAction('teardown'),
      script: ['npm ci', COMMANDS.confirm],
      timeout: '15 minutes',
    },
    teardown: {
      extends: '.hoplab-clouds',
      stage: 'teardown',
      ...parallel,
      rules: onAction('teardown'),
      environment: { name: TEARDOWN_ENVIRONMENT },
      script: [run.teardown],
      artifacts: keep(['.hoplab/logs/']),
    },
    leftovers: {
      extends: '.hoplab-clouds',
      stage: 'leftovers',
      needs: ['teardown'],
      // Also after a failed shard (it lists what that shard left), never without the confirmation: checked before any credential.
      rules: onAction('teardown', 'always'),
      before_script: ['npm ci', COMMANDS.confirm, ...INSTALL_TOOLS, ...FEDERATE],
      script: [COMMANDS.leftovers],
      timeout: '60 minutes',
    },
    reap: {
      extends: '.hoplab-clouds',
      stage: 'reap',
      rules: ON_SCHEDULE,
      variables: { [REAP_VARIABLES.expiresAt]: input.expiresAt, [REAP_VARIABLES.windowHours]: String(REAP_WINDOW_HOURS) },
      // The date check first, in the job's own script (no before_script): its exit 0 ends the job before any tool or credential.
      before_script: [],
      script: [dueCheckScript({ notDue: 'exit 0', due: ':', warning: 'WARNING: ' }, 'the pipeline schedule'), ...INSTALL_TOOLS, ...FEDERATE, 'npm ci', COMMANDS.reap],
      timeout: `${input.reapMinutes} minutes`,
      artifacts: keep(['.hoplab/logs/']),
    },
  };
  const header = [
    `hoplab: deploy or tear down a workshop in ${input.shards} shard${input.shards === 1 ? '' : 's'}: Run pipeline (Build > Pipelines) with HOPLAB_ACTION=deploy,`,
    `or HOPLAB_ACTION=teardown and ${CONFIRM_VARIABLE}=<workshop.name>; teardown jobs use the environment ${TEARDOWN_ENVIRONMENT} (protect it where your tier allows).`,
    ...canaryLine(input),
    input.verify.run ? 'Each deploy job runs verify after its shard.' : `verify does not run here: ${input.verify.why}.`,
    `Run the pipelines on the branch ${input.branch}: the cloud roles trust its jobs (npx hoplab pipeline prints the OIDC subjects).`,
    `The reaper: a pipeline schedule per line (Build > Pipeline schedules > New schedule; cron timezone UTC; target branch ${input.branch}):`,
    ...crons.map((cron) => `  ${cron}`),
    `It checks the date with its year, and reaps from ${input.expiresAt} (workshop.expiresAt) for ${REAP_WINDOW_HOURS} hours; in later years it does nothing.`,
    `Generated by \`npx hoplab pipeline --gitlab-ci --shards ${input.shards}\`; regenerate rather than edit.`,
    `Needs CI/CD variables (not secrets; none is a credential): ${Object.values(CI_VARIABLES).join(', ')}.`,
    'See docs/workshops-and-ci.md in the hoplab repository, "A workshop on CI runners".',
  ];
  return { path: '.gitlab-ci.yml', text: header.map((line) => `# ${line}\n`).join('') + stringify(pipeline, { lineWidth: 0, aliasDuplicateObjects: false }) };
}
