import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { Fn } from 'cdktf';
import { Construct } from 'constructs';

/** API version of the client credential `aws eks get-token` prints. */
export const EKS_EXEC_API_VERSION = 'client.authentication.k8s.io/v1beta1';

export interface EksProvidersProps {
  /** Name of the EKS cluster (required); `aws eks get-token` signs a token for it. */
  readonly clusterName: string;
  /** The cluster's API server endpoint, `https://...` (required). */
  readonly endpoint: string;
  /** The cluster's certificate authority as EKS returns it: base64-encoded PEM (required). */
  readonly certificateAuthorityData: string;
  /** AWS region of the cluster (required). */
  readonly region: string;
  /**
   * A role in the cluster's account to sign the token as (`aws eks get-token --role-arn`), when the
   * cluster is in another account than the host's credentials (`aws.accounts`).
   * @default - the host's own credentials
   */
  readonly roleArn?: string;
  /**
   * The AWS CLI command that prints the token.
   * @default 'aws'
   */
  readonly awsCli?: string;
}

/**
 * The exec credential block of a kubernetes or helm provider for an EKS
 * cluster: `aws eks get-token`, run on every Terraform run, so no token is
 * stored. `awsCli` is the AWS CLI command (default `aws`); `roleArn`, a role
 * the CLI assumes first (`--role-arn`, AWS CLI reference, `aws eks get-token`):
 * the role of the cluster's account when it is not the host's.
 */
export function eksTokenExec(clusterName: string, region: string, awsCli = 'aws', roleArn?: string) {
  return {
    apiVersion: EKS_EXEC_API_VERSION,
    command: awsCli,
    args: ['eks', 'get-token', '--cluster-name', clusterName, '--region', region, ...(roleArn ? ['--role-arn', roleArn] : []), '--output', 'json'],
  };
}

/**
 * The kubernetes and helm providers of a stack that installs into an EKS
 * cluster. Both authenticate with a token that `aws eks get-token` signs on
 * every Terraform run (valid 15 minutes, fetched again when it expires), so no
 * token is ever written to state or outputs and long applies do not outlive it.
 */
export class EksProviders extends Construct {
  /** The kubernetes provider (default configuration). */
  public readonly kubernetes: KubernetesProvider;
  /** The helm provider (default configuration). */
  public readonly helm: HelmProvider;

  constructor(scope: Construct, id: string, props: EksProvidersProps) {
    super(scope, id);
    const exec = eksTokenExec(props.clusterName, props.region, props.awsCli, props.roleArn);
    const host = props.endpoint;
    const clusterCaCertificate = Fn.base64decode(props.certificateAuthorityData);
    this.kubernetes = new KubernetesProvider(this, 'kubernetes', { host, clusterCaCertificate, exec: [exec] });
    this.helm = new HelmProvider(this, 'helm', { kubernetes: { host, clusterCaCertificate, exec } });
  }
}
