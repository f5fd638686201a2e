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

/** An AWS account a teardown acts in, with the environments there. */
export interface AccountToReach {
  /** The role the providers assume there; undefined: the host's own account. */
  readonly roleArn?: string;
  /** The account the state names (its ARNs), when known. */
  readonly accountId?: string;
  readonly envs: readonly string[];
}

export interface AccountCheckOptions {
  readonly accounts: readonly AccountToReach[];
  /** STS's region (it answers in any). */
  readonly region: string;
  /** A local AWS emulator. @default - AWS */
  readonly endpoint?: string;
  /** The account the credentials are, as `roleArn` or the host's own (tests). @default STS GetCallerIdentity, as the role through AssumeRole */
  readonly identity?: (roleArn: string | undefined) => Promise<string>;
}

const few = (envs: readonly string[]) => (envs.length <= 4 ? envs.join(', ') : `${envs.slice(0, 3).join(', ')} and ${envs.length - 3} more`);

/**
 * The AWS accounts a destroy could not act in as its state says, one line each: a role the host's
 * credentials cannot assume, or the host's own account when it is not the one the state names (a
 * refresh in the wrong account finds nothing, drops the resources from the state and reports them
 * destroyed while they keep billing). Empty when every account is reachable.
 */
export async function unreachableAccounts(options: AccountCheckOptions): Promise<string[]> {
  const identity =
    options.identity ??
    (async (roleArn: string | undefined) => {
      const sts = new STSClient(awsClientConfig({ region: options.region, endpoint: options.endpoint, maxAttempts: 1, roleArn }));
      try {
        return (await sts.send(new GetCallerIdentityCommand({}))).Account ?? '';
      } finally {
        sts.destroy();
      }
    });
  const lines: string[] = [];
  for (const account of options.accounts) {
    let actual: string;
    try {
      actual = await identity(account.roleArn);
    } catch (error) {
      lines.push(
        account.roleArn
          ? `aws: cannot assume ${account.roleArn}, where ${few(account.envs)} ${account.envs.length === 1 ? 'is' : 'are'} deployed (${oneLine(
              error,
            )}); the host's credentials need sts:AssumeRole on it, and the role must trust them`
          : `aws: no usable credentials (${oneLine(error)}); give Terraform and hoplab the same AWS credentials: AWS_PROFILE, \`aws sso login\`, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY`,
      );
      continue;
    }
    if (account.accountId && actual !== account.accountId) {
      lines.push(
        `aws: the ${account.roleArn ? `role ${account.roleArn} is` : "host's credentials are"} account ${actual}, but the state of ${few(account.envs)} says ${
          account.envs.length === 1 ? 'it is' : 'they are'
        } in account ${account.accountId}; ` +
          `use that account's credentials (AWS_PROFILE): a destroy in another account finds nothing and drops the resources from the state while they keep billing`,
      );
    }
  }
  return lines;
}
