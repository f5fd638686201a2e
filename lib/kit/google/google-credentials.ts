/**
 * The Google identity hoplab's own API calls use: the one Terraform's google
 * provider uses, and the quota project Google's client libraries and gcloud
 * send with it (`x-goog-user-project`).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the access token came from. */
export type GcpTokenSource = 'GOOGLE_OAUTH_ACCESS_TOKEN' | 'application-default' | 'gcloud-login';

export interface GcpCredentials {
  readonly accessToken: string;
  readonly source: GcpTokenSource;
  /**
   * The project Google bills and rate-limits client-based APIs (Service Usage,
   * Resource Manager) to, sent as `x-goog-user-project`; undefined when none is set.
   */
  readonly quotaProject?: string;
  /** Where the quota project was read, for messages. */
  readonly quotaProjectFrom?: string;
}

/**
 * The Application Default Credentials file gcloud writes
 * (`gcloud auth application-default login`), or the one
 * GOOGLE_APPLICATION_CREDENTIALS names: `$CLOUDSDK_CONFIG` or
 * `~/.config/gcloud` (`%APPDATA%\gcloud` on Windows), as Google's client libraries look.
 */
export function adcFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GOOGLE_APPLICATION_CREDENTIALS) return env.GOOGLE_APPLICATION_CREDENTIALS;
  const config = env.CLOUDSDK_CONFIG || (process.platform === 'win32' && env.APPDATA ? join(env.APPDATA, 'gcloud') : join(env.HOME || homedir(), '.config', 'gcloud'));
  return join(config, 'application_default_credentials.json');
}

/**
 * The quota project, in Google's client libraries' order
 * (google.golang.org/api `internal/creds.go` GetQuotaProject: the
 * `GOOGLE_CLOUD_QUOTA_PROJECT` environment variable, then the credentials
 * file's `quota_project_id`). The file only counts when the token came from
 * it (Application Default Credentials), as in the libraries.
 */
export function quotaProject(source: GcpTokenSource, env: NodeJS.ProcessEnv = process.env): { readonly project?: string; readonly from?: string } {
  if (env.GOOGLE_CLOUD_QUOTA_PROJECT) return { project: env.GOOGLE_CLOUD_QUOTA_PROJECT, from: 'GOOGLE_CLOUD_QUOTA_PROJECT' };
  if (source !== 'application-default') return {};
  const file = adcFile(env);
  if (!existsSync(file)) return {};
  try {
    const project = (JSON.parse(readFileSync(file, 'utf8')) as { quota_project_id?: unknown }).quota_project_id;
    return typeof project === 'string' && project ? { project, from: `quota_project_id in ${file}` } : {};
  } catch {
    // Not JSON: gcloud's own token command would have failed on it; no quota project.
    return {};
  }
}

/** The ways to a token after GOOGLE_OAUTH_ACCESS_TOKEN, in order: gcloud's arguments and the source it stands for. */
const GCLOUD_ATTEMPTS: readonly (readonly [readonly string[], GcpTokenSource])[] = [
  [['auth', 'application-default', 'print-access-token'], 'application-default'],
  [['auth', 'print-access-token'], 'gcloud-login'],
];

/** Bound of one gcloud run. */
const GCLOUD_TIMEOUT_MS = 20_000;

function withQuota(accessToken: string, source: GcpTokenSource, env: NodeJS.ProcessEnv): GcpCredentials {
  const quota = quotaProject(source, env);
  return { accessToken, source, ...(quota.project ? { quotaProject: quota.project, quotaProjectFrom: quota.from } : {}) };
}

/**
 * An access token for the Google APIs, from the identity Terraform's google
 * provider uses: `GOOGLE_OAUTH_ACCESS_TOKEN` if set (as the provider reads
 * it), else Application Default Credentials through
 * `gcloud auth application-default print-access-token` (what docs/getting-started.md's
 * `gcloud auth application-default login` sets up, and a service-account key
 * in GOOGLE_APPLICATION_CREDENTIALS), else the gcloud user login; with the
 * quota project that goes with it. Undefined when no token can be had.
 */
export function gcpCredentials(env: NodeJS.ProcessEnv = process.env): GcpCredentials | undefined {
  if (env.GOOGLE_OAUTH_ACCESS_TOKEN) return withQuota(env.GOOGLE_OAUTH_ACCESS_TOKEN, 'GOOGLE_OAUTH_ACCESS_TOKEN', env);
  for (const [args, source] of GCLOUD_ATTEMPTS) {
    const result = spawnSync('gcloud', args, { encoding: 'utf8', timeout: GCLOUD_TIMEOUT_MS, env });
    if (result.status === 0 && result.stdout.trim()) return withQuota(result.stdout.trim(), source, env);
  }
  return undefined;
}

/**
 * {@link gcpCredentials} without blocking: gcloud runs as a child process the
 * event loop does not wait on, for a process that keeps working meanwhile
 * (watch's live page asks again and again while it probes).
 */
export async function gcpCredentialsAsync(env: NodeJS.ProcessEnv = process.env): Promise<GcpCredentials | undefined> {
  if (env.GOOGLE_OAUTH_ACCESS_TOKEN) return withQuota(env.GOOGLE_OAUTH_ACCESS_TOKEN, 'GOOGLE_OAUTH_ACCESS_TOKEN', env);
  for (const [args, source] of GCLOUD_ATTEMPTS) {
    const stdout = await new Promise<string | undefined>((resolve) => {
      execFile('gcloud', args, { encoding: 'utf8', timeout: GCLOUD_TIMEOUT_MS, env }, (error, out) => resolve(error ? undefined : out));
    });
    if (stdout?.trim()) return withQuota(stdout.trim(), source, env);
  }
  return undefined;
}

/** Just the token of {@link gcpCredentials}. */
export function gcpAccessToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return gcpCredentials(env)?.accessToken;
}
