/**
 * How every AWS SDK client is made, in one place: the region, a bounded number
 * of attempts (the SDK's own retries, with its backoff), for a local emulator
 * (moto on loopback) its endpoint with dummy credentials, so no real account is
 * ever asked, and a role to assume in another account (STS AssumeRole with the
 * credentials the client would otherwise use).
 */

// The AWS SDK warns on every run that its releases from January 2027 need Node 22. The SDK's
// version is pinned and Node 20 is supported (docs/getting-started.md, Requirements): drop just
// that warning, wherever a client is made.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  if (text.includes('AWS SDK for JavaScript (v3)')) return;
  (emitWarning as (w: string | Error, ...r: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;

/** Where the clients talk to. */
export interface AwsTarget {
  readonly region: string;
  /**
   * Endpoint of a local emulator; dummy credentials are used with it.
   * @default - AWS, with the SDK's default credential chain
   */
  readonly endpoint?: string;
  /** Attempts per call, the first included. @default 2 */
  readonly maxAttempts?: number;
  /**
   * A role to act as: the credentials (the default chain's, or the emulator's dummy ones) assume it with
   * STS AssumeRole, once per role and endpoint while its credentials last.
   * @default - the credentials themselves
   */
  readonly roleArn?: string;
}

/** Credentials as the SDK takes them. */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly expiration?: Date;
}

/** The configuration to construct any AWS SDK v3 client with (`new EC2Client(awsClientConfig(target))`). */
export interface AwsClientConfig {
  readonly region: string;
  readonly maxAttempts: number;
  readonly endpoint?: string;
  readonly credentials?: AwsCredentials | (() => Promise<AwsCredentials>);
}

/** What an emulator is given as credentials (moto accepts any). */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'hoplab-local', secretAccessKey: 'hoplab-local' } as const;

/** The session name of every assumed role (CloudTrail shows it). */
export const ROLE_SESSION_NAME = 'hoplab';

export function awsClientConfig(target: AwsTarget): AwsClientConfig {
  const base = {
    region: target.region,
    maxAttempts: target.maxAttempts ?? 2,
    ...(target.endpoint ? { endpoint: target.endpoint, credentials: EMULATOR_CREDENTIALS } : {}),
  };
  return target.roleArn ? { ...base, credentials: assumedRole(target.roleArn, base) } : base;
}

/** The credentials of `target.roleArn`, assumed as {@link awsClientConfig} assumes it (once per role and endpoint while they last), for what signs without a client (the EKS token). */
export function assumedRoleCredentials(target: AwsTarget & { readonly roleArn: string }): () => Promise<AwsCredentials> {
  return awsClientConfig(target).credentials as () => Promise<AwsCredentials>;
}

/** Assumed roles' credentials, by endpoint and role: one AssumeRole per role for every client and region. */
const assumed = new Map<string, () => Promise<AwsCredentials>>();

/** Credentials are asked for again this long before they expire. */
const REFRESH_MS = 5 * 60_000;

function assumedRole(roleArn: string, base: Omit<AwsClientConfig, 'credentials'> & { readonly credentials?: AwsCredentials }): () => Promise<AwsCredentials> {
  const key = `${base.endpoint ?? ''} ${roleArn}`;
  const known = assumed.get(key);
  if (known) return known;
  let current: Promise<AwsCredentials> | undefined;
  const provider = async () => {
    const held = current && (await current.catch(() => undefined));
    if (!current || !held || (held.expiration && held.expiration.getTime() - Date.now() < REFRESH_MS)) {
      current = assumeRole(roleArn, base);
      // A failure is not kept: the next call asks again.
      current.catch(() => (current = undefined));
    }
    return current;
  };
  assumed.set(key, provider);
  return provider;
}

async function assumeRole(roleArn: string, base: Omit<AwsClientConfig, 'credentials'> & { readonly credentials?: AwsCredentials }): Promise<AwsCredentials> {
  // STS's own errors are thrown as they are: AccessDenied names the caller and the role; callers say what they were assuming.
  // Loaded when a role is assumed: a command that may assume one (watch --progress) starts without it.
  const { AssumeRoleCommand, STSClient } = await import('@aws-sdk/client-sts');
  const sts = new STSClient(base);
  try {
    const c = (await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: ROLE_SESSION_NAME }))).Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey) throw new Error(`STS AssumeRole of ${roleArn} answered without credentials`);
    return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration };
  } finally {
    sts.destroy();
  }
}
