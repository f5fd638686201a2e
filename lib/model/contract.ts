/**
 * The output contract: the outputs every stack of a kind exports, with their
 * types and descriptions, so programs (`compare`, users' scripts) can read
 * environments alike. Names are stable; renaming one breaks users' scripts.
 */
import { Dataplane } from './datapaths';
import { ExposureMode } from './modes';

export type Cloud = 'aws' | 'gcp';

/** Where a Pod can find the client's address (see {@link ExposureOutput.client_ip_via}). */
export const CLIENT_IP_VIA = ['tcp-source', 'x-forwarded-for', 'none'] as const;
export type ClientIpVia = (typeof CLIENT_IP_VIA)[number];

/** `client_ip_preserved` as the contract defines it. */
export function clientIpPreserved(via: ClientIpVia): boolean {
  return via !== 'none';
}

/** The outputs of every `<env>-<cloud>-cluster` stack, by name, with the types of their values. */
export interface ClusterStackOutputs {
  readonly cloud: Cloud;
  readonly cluster_name: string;
  readonly region: string;
  readonly location: string;
  readonly node_count: number;
  readonly max_pods_per_node: number;
  readonly max_pods_per_node_reason: string;
  readonly pod_address_range: readonly string[];
  readonly pod_networking: string;
  readonly dataplane: Dataplane;
}

/** The outputs of `<env>-aws-cluster`. */
export interface AwsClusterStackOutputs extends ClusterStackOutputs {
  readonly cluster_endpoint: string;
  readonly cluster_ca_certificate: string;
  readonly vpc_id: string;
  readonly oidc_provider_arn: string;
  readonly lb_controller_role_arn: string;
  readonly kubernetes_version: string;
}

/** The outputs of `<env>-gcp-cluster`. */
export interface GcpClusterStackOutputs extends ClusterStackOutputs {
  readonly cluster_location: string;
  readonly cluster_endpoint: string;
  readonly cluster_ca_certificate: string;
  readonly kubernetes_version: string;
  readonly release_channel: string;
  readonly per_node_pod_range_prefix: number;
  readonly per_node_pod_range_size: number;
  readonly max_nodes_for_pod_range: number;
  readonly service_address_range: string;
  readonly node_address_range: string;
  readonly network_name: string;
  readonly node_network_tag: string;
}

const SHARED_CLUSTER_OUTPUT_DESCRIPTIONS: { readonly [K in keyof ClusterStackOutputs]: string } = {
  cloud: 'Cloud of the stack: aws or gcp',
  cluster_name: 'Kubernetes cluster name',
  region: 'Region of the cluster',
  location: 'Where the nodes run: availability zones (AWS) or zones (GCP), comma-separated',
  node_count: 'Nodes in the cluster',
  max_pods_per_node: 'Most Pods one node takes',
  max_pods_per_node_reason: 'Why max_pods_per_node is the limit, in words',
  pod_address_range: 'CIDR blocks Pod IPs come from (AWS: the private subnets; GCP: the Pod secondary range)',
  pod_networking: 'How Pods get VPC-routable addresses',
  dataplane: 'Who handles Service traffic on the nodes: kube-proxy-iptables, kube-proxy-nftables, kube-proxy-ipvs or cilium-ebpf',
};

const AWS_ONLY_CLUSTER_OUTPUT_DESCRIPTIONS: { readonly [K in Exclude<keyof AwsClusterStackOutputs, keyof ClusterStackOutputs>]: string } = {
  cluster_endpoint: 'The EKS API server endpoint (HTTPS URL)',
  cluster_ca_certificate: "The cluster's CA certificate, base64-encoded PEM, as a kubeconfig's certificate-authority-data takes it",
  vpc_id: 'ID of the lab VPC',
  oidc_provider_arn: "ARN of the IAM OIDC provider of the cluster's service account issuer (IRSA)",
  lb_controller_role_arn: "ARN of the AWS Load Balancer Controller's IAM role (IRSA), read by <env>-aws-lb",
  kubernetes_version: "The control plane's Kubernetes version",
};

const GCP_ONLY_CLUSTER_OUTPUT_DESCRIPTIONS: { readonly [K in Exclude<keyof GcpClusterStackOutputs, keyof ClusterStackOutputs>]: string } = {
  cluster_location: 'Zone (zonal cluster) or region (regional cluster) of the GKE cluster',
  cluster_endpoint: "The control plane's public endpoint (IP address)",
  cluster_ca_certificate: "The cluster's CA certificate, base64-encoded PEM, as a kubeconfig's certificate-authority-data takes it",
  kubernetes_version: "The control plane's Kubernetes version (changes as the release channel upgrades it)",
  release_channel: 'GKE release channel',
  per_node_pod_range_prefix: 'Prefix length of the alias range each node gets from the Pod range, e.g. 24',
  per_node_pod_range_size: 'Addresses in that per-node range, e.g. 256',
  max_nodes_for_pod_range: 'Most nodes the Pod range can serve at this max Pods per node',
  service_address_range: 'Secondary range for Service cluster IPs',
  node_address_range: 'Primary range of the node subnet',
  network_name: 'VPC network name (the leftover check and gcloud commands use it)',
  node_network_tag: 'Network tag of the nodes',
};

/** The description of every `<env>-aws-cluster` output (`terraform output` shows them). */
export const AWS_CLUSTER_OUTPUT_DESCRIPTIONS: { readonly [K in keyof AwsClusterStackOutputs]: string } = {
  ...SHARED_CLUSTER_OUTPUT_DESCRIPTIONS,
  ...AWS_ONLY_CLUSTER_OUTPUT_DESCRIPTIONS,
};

/** The description of every `<env>-gcp-cluster` output. */
export const GCP_CLUSTER_OUTPUT_DESCRIPTIONS: { readonly [K in keyof GcpClusterStackOutputs]: string } = {
  ...SHARED_CLUSTER_OUTPUT_DESCRIPTIONS,
  ...GCP_ONLY_CLUSTER_OUTPUT_DESCRIPTIONS,
};

/** `cluster_ca_certificate` -> `clusterCaCertificate`, as a type. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The output names of a table of descriptions, by their camelCase: `{ clusterName: 'cluster_name', ... }`. */
function outputNames<K extends string>(descriptions: { readonly [P in K]: string }): { readonly [P in K as CamelCase<P>]: P } {
  const names = Object.keys(descriptions).map((name) => [name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()), name]);
  return Object.fromEntries(names) as { readonly [P in K as CamelCase<P>]: P };
}

/** Outputs of every `<env>-<cloud>-cluster` stack (their descriptions say what each holds). */
export const CLUSTER_OUTPUTS = outputNames(SHARED_CLUSTER_OUTPUT_DESCRIPTIONS);

/** Extra outputs of `<env>-aws-cluster`, read by `<env>-aws-lb`. */
export const AWS_CLUSTER_OUTPUTS = outputNames(AWS_ONLY_CLUSTER_OUTPUT_DESCRIPTIONS);

/** Extra outputs of `<env>-gcp-cluster` (next to {@link CLUSTER_OUTPUTS}). Names are stable: scripts read them. */
export const GCP_CLUSTER_OUTPUTS = outputNames(GCP_ONLY_CLUSTER_OUTPUT_DESCRIPTIONS);

/** The object each `-lb` stack exports per exposure, as output `exposure_<mode>`. */
export interface ExposureOutput {
  /** One of `EXPOSURE_MODES`: `native`, `gateway`, `nodeport`, `nodeport-l4`, `nodeport-local`, `native-l4`. */
  readonly mode: ExposureMode;
  readonly cloud: Cloud;
  /** http URL of the load balancer, read back from the Kubernetes object's status. */
  readonly url: string;
  /** e.g. `alb`, `nlb`, `gclb-http` (external Application LB), `gcp-passthrough-nlb`. */
  readonly lb_kind: string;
  /** `ip` (Pod IPs), `instance` (node NodePorts), `neg` or `instance-group`. */
  readonly target_type: string;
  /** Hops from the load balancer to the Pod in the worst case. */
  readonly expected_hops: number;
  /** Whether a node rewrites the source address on the way to the Pod (kube-proxy / eBPF SNAT with `externalTrafficPolicy: Cluster`). */
  readonly source_nat: boolean;
  /**
   * Where a Pod can find the client's address: `tcp-source` (its TCP peer is the
   * client), `x-forwarded-for` (an L7 proxy is the peer and names the client in
   * the header), or `none` (L4 with SNAT: the client is gone).
   */
  readonly client_ip_via: ClientIpVia;
  /** Whether the client's address reaches the Pod at all: always exactly `client_ip_via !== 'none'`. */
  readonly client_ip_preserved: boolean;
  /** Where the Pod finds the client address, and what its TCP peer is. */
  readonly client_ip_seen_as: string;
  /** What the load balancer's health check probes. */
  readonly health_check: string;
  /**
   * The load balancer's backends, in words: Pod IPs or the nodes, and in what
   * kind of group. On GKE passthrough load balancers it follows the configured
   * GKE version (instance groups before 1.32, `GCE_VM_IP` NEGs of the nodes after).
   */
  readonly backends: string;
  /** The Service's externalTrafficPolicy. */
  readonly external_traffic_policy: 'Cluster' | 'Local';
}

/** Output name of an exposure: `exposure_native`, `exposure_nodeport_l4`, `exposure_nodeport_local`, ... */
export function exposureOutputName(mode: ExposureMode): string {
  return `exposure_${mode.replace(/-/g, '_')}`;
}

/**
 * The `placement` output every stack of an environment exports when the config places environments
 * (any of aws.regions, aws.accounts, gcp.regions, gcp.projects, placement, a pin): where the stack's
 * cloud resources are. Absent otherwise (the synthesized stacks stay as they were). Read back from
 * state, it says where a deployed environment is.
 */
export type PlacementOutput =
  | {
      readonly cloud: 'aws';
      /** `<account id>/<region>`, or `host/<region>` for the account of the host's credentials. */
      readonly slot: string;
      /** The account id, or `host`. */
      readonly account: string;
      readonly region: string;
      readonly zones: readonly string[];
      /**
       * The role the providers assume in `account` (absent for `host`), so the slot can be rebuilt from
       * state after the account has left `aws.accounts` (teardown destroys the environment there).
       */
      readonly role_arn?: string;
    }
  | {
      readonly cloud: 'gcp';
      /** `<project>/<region>`. */
      readonly slot: string;
      readonly project: string;
      readonly region: string;
      readonly zones: readonly string[];
    };

/** Name of the optional placement output (see {@link PlacementOutput}). */
export const PLACEMENT_OUTPUT = 'placement';

/** Its description, as `terraform output` shows it. */
export const PLACEMENT_OUTPUT_DESCRIPTION = "Where this environment's stacks of this cloud are: its slot (account or project x region), region, zones and the role assumed in the account";
