/**
 * Whether the identities Terraform will use are there at all, checked before
 * Terraform runs: one line per cloud without credentials, so a teardown
 * without them says so at once instead of after a refresh error per stack, and
 * verify leaves that cloud's checks out (INCOMPLETE) instead of failing them.
 * AWS: STS GetCallerIdentity (needs no permission); Google: a token from the
 * sources the google provider reads (see google-credentials.ts).
 */
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { awsClientConfig } from '../../kit/aws/aws-clients';
import { gcpCredentials } from '../../kit/google/google-credentials';

export interface CredentialsCheckOptions {
  /** The clouds whose stacks will run. */
  readonly clouds: readonly ('aws' | 'gcp')[];
  /** The AWS region of the lab (STS answers in any). */
  readonly awsRegion: string;
  /** Who asks AWS (tests). @default STS GetCallerIdentity */
  readonly awsIdentity?: () => Promise<string>;
  /** Whether Google credentials are there (tests). @default a token from {@link gcpCredentials} */
  readonly gcpIdentity?: () => boolean;
}

const oneLine = (error: unknown) => (error instanceof Error ? `${error.name !== 'Error' ? `${error.name}: ` : ''}${error.message.split('\n')[0].trim()}` : String(error));

/** Why each cloud asked for has no credentials (one sentence with the fix); a cloud with them is absent. */
export async function credentialsMissing(options: CredentialsCheckOptions): Promise<Partial<Record<'aws' | 'gcp', string>>> {
  const missing: Partial<Record<'aws' | 'gcp', string>> = {};
  if (options.clouds.includes('aws')) {
    const awsIdentity =
      options.awsIdentity ??
      (async () => {
        const identity = await new STSClient(awsClientConfig({ region: options.awsRegion, maxAttempts: 1 })).send(new GetCallerIdentityCommand({}));
        return identity.Arn ?? '';
      });
    try {
      await awsIdentity();
    } catch (error) {
      missing.aws = `no usable credentials (${oneLine(error)}); give Terraform and hoplab the same AWS credentials: AWS_PROFILE, \`aws sso login\`, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY`;
    }
  }
  if (options.clouds.includes('gcp') && !(options.gcpIdentity ?? (() => gcpCredentials() !== undefined))()) {
    missing.gcp = 'no credentials (no GOOGLE_OAUTH_ACCESS_TOKEN, and gcloud gives no token); run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN';
  }
  return missing;
}

/** The clouds without credentials, one line each with the fix (`aws: no usable credentials ...`); empty when every cloud has them. */
export async function missingCredentials(options: CredentialsCheckOptions): Promise<string[]> {
  return Object.entries(await credentialsMissing(options)).map(([cloud, why]) => `${cloud}: ${why}`);
}
