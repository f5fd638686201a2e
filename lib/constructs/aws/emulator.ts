import { AwsProviderConfig } from '@cdktf/provider-aws/lib/provider';

/** AWS services the lab's stacks call; each gets an endpoint override in emulator mode. */
export const EMULATED_SERVICES = ['ec2', 'eks', 'iam', 'elbv2', 'sts', 'autoscaling', 'logs'] as const;

/** Settings for running a stack against a local AWS emulator (moto) instead of AWS. */
export interface AwsEmulator {
  /** Base URL of the emulator, e.g. `http://127.0.0.1:5000`. */
  readonly endpoint: string;
}

/**
 * Provider settings that point every service the lab uses at the emulator, with
 * dummy credentials and no calls to AWS's metadata or account APIs, and few
 * retries so a missing emulator API fails fast instead of retrying for minutes.
 */
export function emulatorProviderSettings(emulator: AwsEmulator): Partial<AwsProviderConfig> {
  const endpoint = emulator.endpoint;
  return {
    accessKey: 'hoplab-local',
    secretKey: 'hoplab-local',
    skipCredentialsValidation: true,
    skipRequestingAccountId: true,
    skipMetadataApiCheck: 'true',
    s3UsePathStyle: true,
    maxRetries: 2,
    endpoints: [Object.fromEntries(EMULATED_SERVICES.map((service) => [service, endpoint]))],
  };
}
