import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { Release } from '@cdktf/provider-helm/lib/release';
import { Fn, ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { CiliumLbAlgorithm } from '../../model/datapaths';
import { CILIUM_VERSION } from '../../model/versions';
import { CILIUM_NAMESPACE, CILIUM_OPERATOR_SERVICE_ACCOUNT } from './cilium-operator-role';
import { eksTokenExec } from './eks-providers';

/** Cilium's Helm repository and the pinned chart (the chart pins the agent and operator images). */
export const CILIUM_CHART_REPOSITORY = 'https://helm.cilium.io/';
export const CILIUM_CHART = 'cilium';
export const CILIUM_CHART_VERSION = CILIUM_VERSION;

/**
 * The taint nodes start with until the Cilium agent runs on them (Cilium's
 * documented taint for managed node groups): Pods other than Cilium's wait, so
 * none starts without Cilium's networking. The agent removes it.
 */
export const CILIUM_AGENT_NOT_READY_TAINT = { key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NO_EXECUTE' } as const;

export interface CiliumProps {
  /** EKS cluster name (required): `aws eks get-token` signs for it, and Cilium tags (and garbage-collects) its ENIs with it. */
  readonly clusterName: string;
  /** AWS region of the cluster (required). */
  readonly region: string;
  /**
   * A role in the cluster's account the helm provider's `aws eks get-token` signs as (`--role-arn`).
   * @default - the host's own credentials
   */
  readonly roleArn?: string;
  /** The cluster's API endpoint, `https://...` (required); Cilium gets its host as `k8sServiceHost`, since no kube-proxy serves the `kubernetes` Service. */
  readonly endpoint: string;
  /** The cluster's certificate authority, base64 PEM as EKS returns it (required). */
  readonly certificateAuthorityData: string;
  /** ARN of the operator's IAM role (required), see `CiliumOperatorRole`. */
  readonly operatorRoleArn: string;
  /**
   * Backend selection for Services: random, or Maglev consistent hashing.
   * @default 'random'
   */
  readonly loadBalancerAlgorithm?: CiliumLbAlgorithm;
  /**
   * Hubble relay and UI (`hubble.relay.enabled`, `hubble.ui.enabled`; their images are the
   * chart's pinned ones). Relay reaches each agent on TCP 4244, which the EKS cluster security
   * group already allows between nodes.
   * @default false - the chart's defaults: Hubble in the agent only, no relay or UI
   */
  readonly hubble?: boolean;
  /**
   * The AWS CLI command that prints the cluster token.
   * @default 'aws'
   */
  readonly awsCli?: string;
  /**
   * Resources that must exist before Cilium is installed and outlive it on destroy: the operator's role and
   * its policy attachment, and every access entry and policy association the helm provider authenticates
   * through (`EksCluster.adminAccess`).
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * Cilium as the EKS cluster's CNI and Service proxy: ENI IPAM (Pods get VPC
 * addresses from ENIs the operator attaches, as with the VPC CNI, so `ip`
 * targets keep working), native routing, and kube-proxy replacement in eBPF.
 *
 * It is installed into the cluster stack, before the node group: managed node
 * groups only become ACTIVE once their nodes are Ready, and a node without a
 * CNI never is. So the release does not wait for Pods (there are no nodes yet);
 * the DaemonSet and the operator start as the nodes join. The helm provider it
 * brings authenticates with `aws eks get-token` on every run, like the `-lb` stack's.
 */
export class Cilium extends Construct {
  /** The Helm release: the node group depends on it. */
  public readonly release: Release;
  /** The chart values, as installed (besides `k8sServiceHost`, set from the cluster endpoint). */
  public readonly values: Readonly<Record<string, unknown>>;

  constructor(scope: Construct, id: string, props: CiliumProps) {
    super(scope, id);
    const exec = eksTokenExec(props.clusterName, props.region, props.awsCli, props.roleArn);
    const provider = new HelmProvider(this, 'helm', {
      alias: 'cilium',
      kubernetes: { host: props.endpoint, clusterCaCertificate: Fn.base64decode(props.certificateAuthorityData), exec },
    });

    this.values = {
      cluster: { name: props.clusterName },
      // ENI IPAM: the operator attaches ENIs and assigns their secondary IPs to Pods.
      eni: { enabled: true },
      ipam: { mode: 'eni' },
      routingMode: 'native',
      // No kube-proxy: Cilium's eBPF programs serve ClusterIP, NodePort and LoadBalancer Services.
      kubeProxyReplacement: true,
      // k8sServiceHost is a `set` entry: it is a Terraform expression, which does not belong inside YAML text.
      k8sServicePort: 443,
      loadBalancer: { algorithm: props.loadBalancerAlgorithm ?? 'random' },
      ...(props.hubble ? { hubble: { enabled: true, relay: { enabled: true }, ui: { enabled: true } } } : {}),
      serviceAccounts: {
        operator: { name: CILIUM_OPERATOR_SERVICE_ACCOUNT, annotations: { 'eks.amazonaws.com/role-arn': props.operatorRoleArn } },
      },
    };

    this.release = new Release(this, 'release', {
      provider,
      name: CILIUM_CHART,
      repository: CILIUM_CHART_REPOSITORY,
      chart: CILIUM_CHART,
      version: CILIUM_CHART_VERSION,
      namespace: CILIUM_NAMESPACE,
      values: [stringify(this.values, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' })],
      set: [{ name: 'k8sServiceHost', value: Fn.replace(props.endpoint, 'https://', '') }],
      // No nodes exist yet: waiting for the DaemonSet would wait forever.
      wait: false,
      timeout: 600,
      maxHistory: 5,
      dependsOn: props.dependsOn,
    });
  }
}
