/**
 * What a generated pipeline pins. Actions by release tag (a full tag, not a
 * moving major); tools by version. Bump them here, regenerate, and review the diff.
 */
export const PIPELINE_VERSIONS = {
  /**
   * The current Node LTS, as .ci/node-lts runs hoplab's own tests on: 26, Active LTS from 2026-10-28
   * (https://github.com/nodejs/Release, README.md and schedule.json, read 2026-12-07).
   */
  node: '26',
  terraform: '1.11.4',
  /** actions/checkout */
  checkout: 'v4.2.2',
  /** actions/setup-node */
  setupNode: 'v4.4.0',
  /** actions/cache */
  cache: 'v4.2.3',
  /** aws-actions/configure-aws-credentials */
  awsCredentials: 'v4.2.1',
  /** google-github-actions/auth */
  googleAuth: 'v2.1.10',
  /** google-github-actions/setup-gcloud (for gke-gcloud-auth-plugin and the leftover check's token) */
  setupGcloud: 'v2.1.4',
  /** hashicorp/setup-terraform */
  setupTerraform: 'v3.1.2',
  /** actions/upload-artifact */
  uploadArtifact: 'v4.6.2',
  /** actions/download-artifact */
  downloadArtifact: 'v4.3.0',
  /**
   * GitLab jobs' image: Debian with node; the job installs terraform, the AWS CLI and gcloud. The
   * Docker official image builds 26 on bookworm (https://github.com/nodejs/docker-node, versions.json, read 2026-12-07).
   */
  gitlabImage: 'node:26-bookworm',
} as const;

/** Where the generated jobs read the identities to federate to (CI variables, not secrets: none of them is a credential). */
export const CI_VARIABLES = {
  awsRoleArn: 'HOPLAB_AWS_ROLE_ARN',
  awsRegion: 'HOPLAB_AWS_REGION',
  gcpWorkloadIdentityProvider: 'HOPLAB_GCP_WORKLOAD_IDENTITY_PROVIDER',
  gcpServiceAccount: 'HOPLAB_GCP_SERVICE_ACCOUNT',
} as const;

export interface PipelineOptions {
  /** Shards: one CI job each (1-256). */
  readonly shards: number;
  /** Stacks at once in each job. @default - deploy.parallelism of the config */
  readonly parallelism?: number | 'auto';
}
