/**
 * A GitLab CI pipeline for a sharded workshop, in one `.gitlab-ci.yml`: run it
 * with HOPLAB_ACTION=deploy (a parallel job per shard, then one job gathering
 * the outputs) or HOPLAB_ACTION=teardown (a parallel job per shard, then the
 * all-environment leftover check). Cloud access by the jobs' OIDC ID tokens:
 * AWS assumes the role with the web identity token (the SDKs' own
 * AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE, renewed as needed), Google
 * exchanges it through Workload Identity Federation (an external_account
 * credential configuration). No keys in the repository or its variables.
 */
import { stringify } from 'yaml';
import { GeneratedFile } from './github-actions';
import { CI_VARIABLES, PIPELINE_VERSIONS as V, PipelineOptions } from './versions';

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

const onAction = (action: 'deploy' | 'teardown', when?: 'always') => [{ if: `$HOPLAB_ACTION == "${action}"`, ...(when ? { when } : {}) }];

export function gitlabPipeline(options: PipelineOptions, jobMinutes: number): GeneratedFile {
  if (options.shards > GITLAB_MAX_PARALLEL) {
    throw new Error(`--shards: ${options.shards} is more than GitLab's ${GITLAB_MAX_PARALLEL} parallel jobs of one job; use at most ${GITLAB_MAX_PARALLEL}`);
  }
  const parallel = options.shards > 1 ? { parallel: options.shards } : {};
  const parallelism = options.parallelism === undefined ? '' : ` --parallelism ${options.parallelism}`;
  const timeout = `${jobMinutes} minutes`;
  const pipeline = {
    workflow: { rules: [{ if: '$HOPLAB_ACTION == "deploy" || $HOPLAB_ACTION == "teardown"' }] },
    variables: {
      HOPLAB_ACTION: {
        value: 'deploy',
        options: ['deploy', 'teardown'],
        description: 'deploy: apply every shard, then gather the outputs; teardown: destroy every shard, then check every environment for leftovers',
      },
      TERRAFORM_VERSION: V.terraform,
      TF_PLUGIN_CACHE_DIR: '$CI_PROJECT_DIR/.hoplab/plugin-cache',
      TF_IN_AUTOMATION: '1',
    },
    stages: ['deploy', 'outputs', 'teardown', 'leftovers'],
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
    deploy: {
      extends: '.hoplab-clouds',
      stage: 'deploy',
      ...parallel,
      rules: onAction('deploy'),
      script: [`npm run deploy -- --shard ${SHARD}${parallelism} --yes`, `npm run -s compare -- --shard ${SHARD} --format json > "hoplab-compare-\${CI_NODE_INDEX:-1}.json"`],
      artifacts: { when: 'always', paths: ['hoplab-compare-*.json', '.hoplab/logs/'], expire_in: '30 days' },
    },
    outputs: {
      stage: 'outputs',
      needs: [{ job: 'deploy', artifacts: true }],
      rules: onAction('deploy', 'always'),
      script: ['npm ci', `npm run -s pipeline -- --gather . --shards ${options.shards} --out hoplab-compare.json`],
      artifacts: { when: 'always', paths: ['hoplab-compare.json'], expire_in: '30 days' },
    },
    teardown: {
      extends: '.hoplab-clouds',
      stage: 'teardown',
      ...parallel,
      rules: onAction('teardown'),
      script: [`npm run teardown -- --shard ${SHARD}${parallelism} --yes`],
      artifacts: { when: 'always', paths: ['.hoplab/logs/'], expire_in: '30 days' },
    },
    leftovers: {
      extends: '.hoplab-clouds',
      stage: 'leftovers',
      needs: ['teardown'],
      // Also after a failed shard: it lists what that shard left.
      rules: onAction('teardown', 'always'),
      script: ['npm run teardown -- --leftovers-only --yes'],
      timeout: '60 minutes',
    },
  };
  const header =
    `# hoplab: deploy or tear down a workshop in ${options.shards} shard${options.shards === 1 ? '' : 's'} (Run pipeline with HOPLAB_ACTION=deploy or teardown).\n` +
    `# Generated by \`npm run pipeline -- --gitlab-ci --shards ${options.shards}\`; regenerate rather than edit.\n` +
    `# Needs CI/CD variables (not secrets; none is a credential): ${Object.values(CI_VARIABLES).join(', ')}.\n` +
    '# See docs/workshops-and-ci.md in the hoplab repository, "A workshop on CI runners".\n';
  return { path: '.gitlab-ci.yml', text: header + stringify(pipeline, { lineWidth: 0 }) };
}
