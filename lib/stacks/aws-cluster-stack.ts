import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { awsSubnetLayout } from '../config/aws-subnets';
import { ENI_LIMITS, vpcCniMaxPods } from '../config/eni-limits';
import { LabConfig } from '../config/schema';
import { AWS_CLUSTER_OUTPUTS, CLUSTER_OUTPUTS } from '../contract';
import { AwsEmulator, emulatorProviderSettings } from '../aws/emulator';
import { EksAddon } from '../aws/eks-addon';
import { EksCluster } from '../aws/eks-cluster';
import { AWS_MANAGED_POLICY_PREFIX } from '../aws/eks-cluster';
import { EksNodeGroup } from '../aws/eks-node-group';
import { LabVpc } from '../aws/lab-vpc';
import { LoadBalancerControllerRole } from '../aws/load-balancer-controller-role';
import { ServiceAccountRole } from '../aws/service-account-role';
import { labNames } from '../names';
import { labTags } from '../tags';

/** EKS add-ons the emulator has no API for; left out in emulator mode only. */
export const ADDONS_LEFT_OUT_IN_EMULATOR = ['vpc-cni', 'kube-proxy', 'coredns'] as const;

export interface AwsClusterStackProps {
  /** The validated lab config. Required. */
  readonly config: LabConfig;
  /**
   * Deploy to a local AWS emulator instead of AWS: provider endpoints point at
   * it, and the EKS add-ons (which moto cannot create) are left out.
   * @default - real AWS
   */
  readonly emulator?: AwsEmulator;
}

/**
 * `<env>-aws-cluster`: the VPC, the EKS cluster with its managed node group and
 * add-ons (VPC CNI before nodes join), the OIDC provider and the IAM role of the
 * AWS Load Balancer Controller.
 */
export class AwsClusterStack extends TerraformStack {
  /** The EKS cluster, for the `-lb` stack's providers. */
  public readonly cluster: EksCluster;
  /** The VPC. */
  public readonly vpc: LabVpc;
  /** ARN of the load balancer controller's IAM role. */
  public readonly lbControllerRoleArn: string;
  /** Add-ons left out because the target is an emulator (empty for real AWS). */
  public readonly addonsLeftOut: readonly string[];

  constructor(scope: Construct, id: string, props: AwsClusterStackProps) {
    super(scope, id);
    const { config } = props;
    const aws = config.aws;
    const names = labNames(config);

    new AwsProvider(this, 'aws', {
      region: aws.region,
      defaultTags: [{ tags: labTags(config, id) }],
      ...(props.emulator ? emulatorProviderSettings(props.emulator) : {}),
    });

    const layout = awsSubnetLayout(aws);
    this.vpc = new LabVpc(this, 'vpc', {
      name: names.eksCluster,
      cidr: aws.vpcCidr,
      availabilityZones: aws.availabilityZones,
      publicSubnetCidrs: layout.public,
      privateSubnetCidrs: layout.private,
      clusterName: names.eksCluster,
      natGateways: aws.natGateways,
    });

    this.cluster = new EksCluster(this, 'eks', {
      clusterName: names.eksCluster,
      kubernetesVersion: aws.kubernetesVersion,
      // Private subnets only: the control plane's ENIs take addresses the ALBs and NLBs need in the small public subnets.
      subnetIds: [...this.vpc.privateSubnetIds],
      endpointPublicAccessCidrs: aws.endpointPublicAccessCidrs,
      adminPrincipalArns: aws.clusterAdminArns,
      emulated: props.emulator !== undefined,
    });

    const cniRole = new ServiceAccountRole(this, 'vpc-cni-role', {
      roleName: `${names.eksCluster}-vpc-cni`,
      oidcProviderArn: this.cluster.oidcProviderArn,
      oidcIssuerUrl: this.cluster.oidcIssuerUrl,
      namespace: 'kube-system',
      serviceAccount: 'aws-node',
      policies: { cni: `${AWS_MANAGED_POLICY_PREFIX}/AmazonEKS_CNI_Policy` },
    });

    const clusterName = this.cluster.clusterName;
    this.addonsLeftOut = props.emulator ? [...ADDONS_LEFT_OUT_IN_EMULATOR] : [];
    // The VPC CNI and kube-proxy must run before nodes join, or nodes stay NotReady.
    const beforeNodes = props.emulator
      ? []
      : [
          new EksAddon(this, 'vpc-cni', { clusterName, addonName: 'vpc-cni', serviceAccountRoleArn: cniRole.roleArn }).addon,
          new EksAddon(this, 'kube-proxy', { clusterName, addonName: 'kube-proxy' }).addon,
        ];

    const nodes = new EksNodeGroup(this, 'nodes', {
      clusterName,
      nodeGroupName: `${names.eksCluster}-nodes`,
      subnetIds: this.vpc.privateSubnetIds,
      instanceType: aws.nodeInstanceType,
      nodeCount: aws.nodeCount,
      instanceTags: labTags(config, id),
      // Destroyed before the CNI role's policy and the private routes: the CNI must keep its permissions
      // and the nodes their way out while nodes drain, or aws-K8S-* ENIs are stranded and block subnet deletion.
      dependsOn: [...beforeNodes, ...this.vpc.natGateways, ...this.vpc.privateRouting, ...cniRole.policyAttachments],
      emulated: props.emulator !== undefined,
    });

    if (!props.emulator) {
      // CoreDNS is a Deployment: it needs nodes to become ACTIVE.
      new EksAddon(this, 'coredns', { clusterName, addonName: 'coredns', dependsOn: [nodes.nodeGroup] });
    }

    const controllerRole = new LoadBalancerControllerRole(this, 'lb-controller-role', {
      clusterName: names.eksCluster,
      oidcProviderArn: this.cluster.oidcProviderArn,
      oidcIssuerUrl: this.cluster.oidcIssuerUrl,
    });
    this.lbControllerRoleArn = controllerRole.roleArn;

    const limits = ENI_LIMITS[aws.nodeInstanceType];
    const outputs: Record<string, unknown> = {
      [CLUSTER_OUTPUTS.cloud]: 'aws',
      [CLUSTER_OUTPUTS.clusterName]: clusterName,
      [CLUSTER_OUTPUTS.region]: aws.region,
      [CLUSTER_OUTPUTS.location]: aws.availabilityZones.join(','),
      [CLUSTER_OUTPUTS.nodeCount]: aws.nodeCount,
      [CLUSTER_OUTPUTS.maxPodsPerNode]: vpcCniMaxPods(limits),
      [CLUSTER_OUTPUTS.maxPodsPerNodeReason]:
        `VPC CNI on ${aws.nodeInstanceType}: ${limits.maxEnis} ENIs x (${limits.ipv4PerEni} IPv4 per ENI - 1) + 2`,
      [CLUSTER_OUTPUTS.podAddressRange]: layout.private,
      [CLUSTER_OUTPUTS.podNetworking]: 'aws-vpc-cni: Pods get ENI secondary IPs from the private subnets',
      [AWS_CLUSTER_OUTPUTS.clusterEndpoint]: this.cluster.cluster.endpoint,
      [AWS_CLUSTER_OUTPUTS.vpcId]: this.vpc.vpcId,
      [AWS_CLUSTER_OUTPUTS.oidcProviderArn]: this.cluster.oidcProviderArn,
      [AWS_CLUSTER_OUTPUTS.lbControllerRoleArn]: controllerRole.roleArn,
      [AWS_CLUSTER_OUTPUTS.kubernetesVersion]: this.cluster.cluster.version,
    };
    for (const [name, value] of Object.entries(outputs)) {
      new TerraformOutput(this, name, { value });
    }
  }
}
