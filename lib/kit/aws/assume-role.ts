/**
 * AWS SDK clients that act in another account: the host's credentials (the
 * default chain, or an emulator's dummy ones) call STS `AssumeRole` for a role
 * ARN, and the client signs with the temporary credentials it returns. The SDK
 * asks the provider again when they near their expiration.
 *
 * Kept apart from aws-clients.ts so that the one place every client is made
 * stays as it is for clients of the host's own account.
 */
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { AwsClientConfig, awsClientConfig, AwsTarget } from './aws-clients';

/** Temporary credentials, as the SDK's credential providers return them. */
export interface AwsTemporaryCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
  readonly expiration?: Date;
}

/** A client configuration whose credentials are those of an assumed role. */
export type AwsRoleClientConfig = Omit<AwsClientConfig, 'credentials'> & { readonly credentials: () => Promise<AwsTemporaryCredentials> };

/** What STS is told the session is (it shows in CloudTrail and in the caller's ARN). @default 'hoplab' */
export const ROLE_SESSION_NAME = 'hoplab';

/**
 * The credentials of `roleArn`, assumed with the host's credentials through STS in `target`'s region
 * (or the emulator's endpoint). Each call of the provider assumes the role again; the SDK calls it
 * once per client and again when the credentials near their expiration.
 */
export function assumedRoleCredentials(target: AwsTarget, roleArn: string, sessionName = ROLE_SESSION_NAME): () => Promise<AwsTemporaryCredentials> {
  return async () => {
    const sts = new STSClient(awsClientConfig(target));
    try {
      const answer = await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: sessionName }));
      const c = answer.Credentials;
      if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken) throw new Error(`AssumeRole ${roleArn} answered without credentials`);
      return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, ...(c.Expiration ? { expiration: c.Expiration } : {}) };
    } finally {
      sts.destroy();
    }
  };
}

/**
 * How a client is made for `target`: the host's own account (no role), or, with `roleArn`, the
 * account whose role the host's credentials assume.
 */
export function awsAccountClientConfig(target: AwsTarget & { readonly roleArn?: string }): AwsClientConfig | AwsRoleClientConfig {
  const base = awsClientConfig(target);
  return target.roleArn ? { ...base, credentials: assumedRoleCredentials(target, target.roleArn) } : base;
}
