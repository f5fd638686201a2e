/**
 * On-demand list prices (USD per hour) hoplab's cost estimate uses. They were
 * recorded from AWS's and Google Cloud's public price pages for the regions
 * named below; they do not include data transfer, load-balancer capacity units
 * or taxes, and they change: check before you quote them.
 */
export const PRICE_TABLE = {
  /** When the prices were recorded. */
  asOf: '2025-06',
  aws: {
    region: 'us-east-1',
    /** EKS control plane, standard support. */
    eksClusterHour: 0.1,
    /** EC2 Linux on-demand, per instance-hour. */
    instanceHour: {
      't3.small': 0.0208,
      't3.medium': 0.0416,
      't3.large': 0.0832,
      't3.xlarge': 0.1664,
      't3a.medium': 0.0376,
      't3a.large': 0.0752,
      'm5.large': 0.096,
      'm5.xlarge': 0.192,
      'm6i.large': 0.096,
      'm6i.xlarge': 0.192,
      'm7i.large': 0.1008,
      'c5.large': 0.085,
      'c6i.large': 0.085,
      'r5.large': 0.126,
    } as Readonly<Record<string, number>>,
    /** gp3 root volume of a managed node group node (20 GiB at $0.08 per GiB-month). */
    nodeVolumeHour: (20 * 0.08) / 730,
    natGatewayHour: 0.045,
    /** Each public IPv4 address (NAT gateway EIP, and one per AZ for each ALB and NLB). */
    publicIpv4Hour: 0.005,
    albHour: 0.0225,
    nlbHour: 0.0225,
  },
  gcp: {
    region: 'us-central1',
    /** GKE cluster management fee (the free tier's monthly credit covers one zonal cluster per billing account; not subtracted here). */
    gkeClusterHour: 0.1,
    /** Compute Engine on-demand, per VM-hour. */
    machineHour: {
      'e2-medium': 0.033503,
      'e2-standard-2': 0.067006,
      'e2-standard-4': 0.134012,
      'n2-standard-2': 0.097118,
      'n2-standard-4': 0.194236,
    } as Readonly<Record<string, number>>,
    /** 50 GB pd-balanced boot disk (the node pool's size, lib/constructs/gcp/gke-node-pool.ts) at $0.10 per GB-month. */
    nodeDiskHour: (50 * 0.1) / 730,
    /** Cloud NAT, per VM that uses the gateway. */
    natPerVmHour: 0.0014,
    /** Forwarding rules: the first five in a project cost this together per hour (one per load balancer here). */
    forwardingRuleHour: 0.025,
  },
} as const;
