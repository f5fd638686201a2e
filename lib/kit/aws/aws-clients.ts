/**
 * How every AWS SDK client is made, in one place: the region, a bounded number
 * of attempts (the SDK's own retries, with its backoff), and for a local
 * emulator (moto on loopback) its endpoint with dummy credentials, so no real
 * account is ever asked.
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
}

/** The configuration to construct any AWS SDK v3 client with (`new EC2Client(awsClientConfig(target))`). */
export interface AwsClientConfig {
  readonly region: string;
  readonly maxAttempts: number;
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** What an emulator is given as credentials (moto accepts any). */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'hoplab-local', secretAccessKey: 'hoplab-local' } as const;

export function awsClientConfig(target: AwsTarget): AwsClientConfig {
  return {
    region: target.region,
    maxAttempts: target.maxAttempts ?? 2,
    ...(target.endpoint ? { endpoint: target.endpoint, credentials: EMULATOR_CREDENTIALS } : {}),
  };
}
