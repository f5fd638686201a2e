/**
 * A minimal read of an EKS cluster's Kubernetes API, for the check before the
 * AWS Load Balancer Controller is uninstalled ({@link KubernetesLists}): the
 * endpoint and CA from `eks:DescribeCluster`, a token from `aws eks get-token`
 * (the command the aws-lb stack's kubernetes and helm providers run, so the
 * same identity reads), and HTTPS GETs trusted through the cluster's CA.
 *
 * Stand-in until the shared Kubernetes client (lib/kit) and EKS token (lib/lab)
 * land: only `eksKubernetesLists` is used outside this file.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:https';
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { awsClientConfig } from '../../kit/aws/aws-clients';
import { eksTokenExec } from '../../constructs/aws/eks-providers';
import { KubernetesLists, KubernetesObject } from './foreign-load-balancers';

export interface EksAccess {
  readonly clusterName: string;
  readonly region: string;
  /** A role of the cluster's account to sign the token as (`aws.accounts`). @default - the host's credentials */
  readonly roleArn?: string;
  /** The AWS CLI. @default 'aws' */
  readonly awsCli?: string;
  /** Bound of each request and of the token command. @default 20000 */
  readonly timeoutMs?: number;
}

/** The token `aws eks get-token` prints (an ExecCredential's `status.token`). */
export function eksToken(access: EksAccess): Promise<string> {
  const exec = eksTokenExec(access.clusterName, access.region, access.awsCli, access.roleArn);
  return new Promise((resolve, reject) => {
    execFile(exec.command, exec.args, { timeout: access.timeoutMs ?? 20_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${exec.command} ${exec.args.slice(0, 2).join(' ')} failed: ${(stderr || error.message).trim().split('\n').pop()}`));
      try {
        const token = (JSON.parse(stdout) as { status?: { token?: string } }).status?.token;
        if (token) return resolve(token);
      } catch {
        // not JSON: said below
      }
      reject(new Error(`${exec.command} ${exec.args.slice(0, 2).join(' ')} printed no token`));
    });
  });
}

/**
 * The cluster's lists, or undefined when there is no such cluster (nothing to
 * orphan). Rejects when the cluster or its API cannot be read.
 */
export async function eksKubernetesLists(access: EksAccess): Promise<KubernetesLists | undefined> {
  const eks = new EKSClient(awsClientConfig({ region: access.region }));
  let endpoint: string | undefined;
  let ca: string | undefined;
  try {
    const { cluster } = await eks.send(new DescribeClusterCommand({ name: access.clusterName }));
    endpoint = cluster?.endpoint;
    ca = cluster?.certificateAuthority?.data;
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
    throw error;
  } finally {
    eks.destroy();
  }
  if (!endpoint || !ca) throw new Error(`EKS cluster ${access.clusterName} has no endpoint or CA yet`);
  return httpsKubernetesLists(endpoint, Buffer.from(ca, 'base64').toString('utf8'), await eksToken(access), access.timeoutMs ?? 20_000);
}

/** Lists over HTTPS from `base`, trusting `caPem` only, with a bearer token. */
export function httpsKubernetesLists(base: string, caPem: string, token: string, timeoutMs: number): KubernetesLists {
  return {
    list: (path) =>
      new Promise((resolve, reject) => {
        const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
        const req = request(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' }, ca: caPem, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            if (res.statusCode === 404) return resolve('absent');
            if (res.statusCode !== 200) return reject(new Error(`GET ${url.href} answered ${res.statusCode}: ${text.trim().slice(0, 200)}`));
            try {
              resolve(((JSON.parse(text) as { items?: KubernetesObject[] }).items ?? []) as KubernetesObject[]);
            } catch {
              reject(new Error(`GET ${url.href} answered a body that is not JSON`));
            }
          });
          res.on('error', reject);
        });
        req.on('error', (error) => reject(new Error(`GET ${url.href} failed: ${error.message}`)));
        req.end();
      }),
  };
}
