/**
 * The bearer token an EKS cluster's API takes, made as `aws eks get-token`
 * makes it (awscli `customizations/eks/get_token.py`): a presigned STS
 * `GetCallerIdentity` URL, signed with the `x-k8s-aws-id: <cluster name>`
 * header and valid for 60 seconds, base64url-encoded without padding after
 * `k8s-aws-v1.`. EKS asks STS who signed it and maps that identity through the
 * cluster's access entries. Signed with the AWS SDK's own SigV4 signer; no
 * request is sent here. The credentials are the host's (the SDK's default
 * chain), or a role's they assume.
 */
import { assumedRoleCredentials, AwsCredentials } from './aws-clients';

/** What a token starts with. */
export const EKS_TOKEN_PREFIX = 'k8s-aws-v1.';
/** The header naming the cluster the token is for. */
export const EKS_CLUSTER_ID_HEADER = 'x-k8s-aws-id';
/** Seconds the presigned URL is valid (awscli's `URL_TIMEOUT`). */
export const EKS_URL_SECONDS = 60;
/** How long a token is used: awscli's `expirationTimestamp` is 14 minutes after signing (EKS accepts one for 15). */
export const EKS_TOKEN_LIFETIME_MS = 14 * 60_000;

export type { AwsCredentials } from './aws-clients';

export interface EksTokenOptions {
  readonly clusterName: string;
  /** The cluster's region: the STS endpoint signed for is that region's. */
  readonly region: string;
  readonly credentials: AwsCredentials;
  /** @default - now */
  readonly signingDate?: Date;
}

/** A token and when it stops being used (RFC 3339, as an ExecCredential's `expirationTimestamp`). */
export interface EksToken {
  readonly token: string;
  readonly expirationTimestamp: string;
}

/** The STS endpoint of a region, as awscli signs for it (regional; `.com.cn` in China). */
export function stsHost(region: string): string {
  return `sts.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`;
}

/** botocore's order of a presigned URL's query. */
const QUERY_ORDER = ['Action', 'Version', 'X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Security-Token', 'X-Amz-Signature'];
const queryRank = (key: string) => (QUERY_ORDER.indexOf(key) + 1 || QUERY_ORDER.length + 1) - 1;

/** A token for `clusterName`, signed with `credentials`. */
export async function eksToken(options: EksTokenOptions): Promise<EksToken> {
  const hostname = stsHost(options.region);
  // Loaded when a token is made, not when a command that may make one starts (watch without --progress never does).
  const [{ SignatureV4 }, { Sha256 }] = await Promise.all([import('@smithy/signature-v4'), import('@smithy/core/checksum')]);
  const signer = new SignatureV4({ credentials: { ...options.credentials }, region: options.region, service: 'sts', sha256: Sha256 });
  const signingDate = options.signingDate ?? new Date();
  const signed = await signer.presign(
    {
      method: 'GET',
      protocol: 'https:',
      hostname,
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
      headers: { host: hostname, [EKS_CLUSTER_ID_HEADER]: options.clusterName },
    },
    { expiresIn: EKS_URL_SECONDS, signingDate },
  );
  // In awscli's (botocore's) order, so the token is the CLI's byte for byte; the order is not signed.
  const query = Object.entries(signed.query ?? {})
    .sort(([a], [b]) => queryRank(a) - queryRank(b))
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const url = `https://${hostname}/?${query}`;
  const token = EKS_TOKEN_PREFIX + Buffer.from(url).toString('base64url');
  return { token, expirationTimestamp: new Date(signingDate.getTime() + EKS_TOKEN_LIFETIME_MS).toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

/**
 * The host's credentials (the SDK's default chain: environment, profile, SSO, ...), or, with
 * `roleArn`, a role's that those assume (an environment placed in an account of `aws.accounts`).
 */
export async function awsCredentials(options: { readonly region: string; readonly roleArn?: string }): Promise<AwsCredentials> {
  if (options.roleArn !== undefined) return assumedRoleCredentials({ region: options.region, roleArn: options.roleArn })();
  // The SDK's credential chain, loaded when asked for (see eksToken).
  const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
  return defaultProvider()();
}
