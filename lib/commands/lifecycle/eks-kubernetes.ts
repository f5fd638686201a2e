/**
 * A minimal read of an EKS cluster's Kubernetes API, for the check before the
 * AWS Load Balancer Controller is uninstalled ({@link KubernetesLists}): the
 * endpoint and CA from `eks:DescribeCluster`, a token made as `aws eks
 * get-token` makes it (lib/kit/aws/eks-token.ts) with the host's credentials
 * or the role the aws-lb stack's providers assume (the same identity reads),
 * and the shared Kubernetes client, trusting the cluster's CA only.
 */
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { awsClientConfig } from '../../kit/aws/aws-clients';
import { awsCredentials, eksToken } from '../../kit/aws/eks-token';
import { KubernetesApiError, KubernetesClient } from '../../kit/kubernetes/kubernetes-client';
import { KubernetesLists, KubernetesObject } from './foreign-load-balancers';

export interface EksAccess {
  readonly clusterName: string;
  readonly region: string;
  /** A role of the cluster's account to sign the token as (`aws.accounts`). @default - the host's credentials */
  readonly roleArn?: string;
  /** Bound of each request. @default 20000 */
  readonly timeoutMs?: number;
}

/**
 * The cluster's lists, or undefined when there is no such cluster (nothing to
 * orphan). Rejects when the cluster or its API cannot be read.
 */
export async function eksKubernetesLists(access: EksAccess): Promise<KubernetesLists | undefined> {
  // In the cluster's account: through its role where the environment is placed in one of aws.accounts.
  const eks = new EKSClient(awsClientConfig({ region: access.region, roleArn: access.roleArn }));
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
  const credentials = await awsCredentials({ region: access.region, ...(access.roleArn ? { roleArn: access.roleArn } : {}) });
  const { token } = await eksToken({ clusterName: access.clusterName, region: access.region, credentials });
  return httpsKubernetesLists(endpoint, Buffer.from(ca, 'base64').toString('utf8'), token, access.timeoutMs ?? 20_000);
}

/** Lists over HTTPS from `base`, trusting `caPem` only, with a bearer token; a kind the cluster does not serve (404) is `absent`. */
export function httpsKubernetesLists(base: string, caPem: string, token: string, timeoutMs: number): KubernetesLists {
  const client = new KubernetesClient({ server: base, caCertificate: caPem, token, timeoutMs });
  return {
    list: async (path) => {
      try {
        return (await client.get<{ items?: KubernetesObject[] }>(path)).items ?? [];
      } catch (error) {
        if (error instanceof KubernetesApiError && error.status === 404) return 'absent';
        throw error;
      }
    },
  };
}
