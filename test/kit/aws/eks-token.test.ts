/**
 * The EKS token, held to the AWS CLI's own (`aws eks get-token`, awscli v1 on this
 * machine, which signs locally and sends nothing): signed at the CLI's own moment
 * with the same credentials, hoplab's token is the CLI's, byte for byte.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EKS_TOKEN_PREFIX, eksToken } from '../../../lib/kit/aws/eks-token';

const run = promisify(execFile);
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

/** `aws eks get-token` with these credentials only (no config or credentials file of this machine's). */
async function cliToken(cluster: string, region: string, credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    ...(credentials.sessionToken ? { AWS_SESSION_TOKEN: credentials.sessionToken } : {}),
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
  };
  const { stdout } = await run('aws', ['eks', 'get-token', '--cluster-name', cluster, '--region', region], { env });
  return (JSON.parse(stdout) as { status: { token: string; expirationTimestamp: string } }).status;
}

const decoded = (token: string) => new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString('utf8'));

describe('eksToken', () => {
  test.each([
    ['lab-eks', 'us-east-1', CREDENTIALS],
    // Temporary credentials (an assumed role's): the session token is signed into the query; China's STS endpoint is .com.cn.
    ['ann-eks', 'cn-north-1', { ...CREDENTIALS, sessionToken: 'FwoGZXIvYXdzEJr//////////wEaDH+session/token==' }],
  ])('GIVEN cluster %s in %s WHEN made at the moment the AWS CLI signed its own THEN it is the CLI’s token, byte for byte', async (cluster, region, credentials) => {
    const cli = await cliToken(cluster, region, credentials);
    const signedAt = decoded(cli.token).searchParams.get('X-Amz-Date')!;
    const signingDate = new Date(signedAt.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
    const ours = await eksToken({ clusterName: cluster, region, credentials, signingDate });
    expect(ours.token).toBe(cli.token);
    // The CLI says the token is good for 14 minutes after it was made; so does hoplab.
    expect(Date.parse(ours.expirationTimestamp) - signingDate.getTime()).toBe(14 * 60_000);
    expect(Date.parse(cli.expirationTimestamp) - signingDate.getTime()).toBeLessThanOrEqual(14 * 60_000 + 1000);
  });

  test('GIVEN a token WHEN decoded THEN a presigned STS GetCallerIdentity URL valid for 60 s that signs the cluster’s name header', async () => {
    const url = decoded((await eksToken({ clusterName: 'bob-eks', region: 'eu-west-1', credentials: CREDENTIALS })).token);
    expect(url.host).toBe('sts.eu-west-1.amazonaws.com');
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => !['X-Amz-Date', 'X-Amz-Signature', 'X-Amz-Credential'].includes(k)))).toEqual({
      Action: 'GetCallerIdentity',
      Version: '2011-06-15',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Expires': '60',
      'X-Amz-SignedHeaders': 'host;x-k8s-aws-id',
    });
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/sts\/aws4_request$/);
  });
});
