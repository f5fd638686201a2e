import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { ITerraformDependable, TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { awsSubnetLayout } from '../config/aws-subnets';
import { awsDataplane } from '../model/datapaths';
import { ENI_LIMITS, vpcCniMaxPods } from '../model/eni-limits';
import { LabConfig } from '../config/schema';
import { LabEnvironment } from '../config/environments';
import { AWS_CLUSTER_OUTPUT_DESCRIPTIONS, AWS_CLUSTER_OUTPUTS, AwsClusterStackOutputs, CLUSTER_OUTPUTS, PLACEMENT_OUTPUT, PLACEMENT_OUTPUT_DESCRIPTION } from '../model/contract';
import { AwsSlot, placementOutput } from '../model/slots';
import { AwsEmulator, emulatorProviderSettings } from '../constructs/aws/emulator';
import { Cilium, CILIUM_AGENT_NOT_READY_TAINT } from '../constructs/aws/cilium';
import { CiliumOperatorRole } from '../constructs/aws/cilium-operator-role';
import { EksAddon } from '../constructs/aws/eks-addon';
import { EksAttendeeAccess } from '../constructs/aws/eks-attendee-access';
import { EksCluster } from '../constructs/aws/eks-cluster';
import { AWS_MANAGED_POLICY_PREFIX } from '../constructs/aws/eks-cluster';
import { EksNodeGroup } from '../constructs/aws/eks-node-group';
import { EnvironmentFence } from '../constructs/aws/environment-fence';
import { ipvsUserData, kubeProxyConfigurationValues, KubeProxyMode } from '../constructs/aws/kube-proxy-mode';
import { LabVpc } from '../constructs/aws/lab-vpc';
import { LoadBalancerControllerRole } from '../constructs/aws/load-balancer-controller-role';
import { ServiceAccountRole } from '../constructs/aws/service-account-role';
import { APP_NAMESPACE, labNames } from '../model/names';
import { ATTENDEE_KUBERNETES_GROUP } from '../model/identities';
import { ENV_TAG, labTags } from '../model/tags';

/** EKS add-ons the emulator has no API for; left out in emulator mode only. */
export const ADDONS_LEFT_OUT_IN_EMULATOR = ['vpc-cni', 'kube-proxy', 'coredns'] as const;

export interface AwsClusterStackProps {
  /** The validated config of this environment (with its attendee's identities, in a workshop). Required. */
  readonly config: LabEnvironment;
  /**
   * Deploy to a local AWS emulator instead of AWS: provider endpoints point at
   * it, and the EKS add-ons (which moto cannot create) are left out.
   * @default - real AWS
   */
  readonly emulator?: AwsEmulator;
  /**
   * The slot the environment is placed in (lib/lab/placement): its region and zones, and the role the
   * provider assumes in its account (`assume_role`, with the host's credentials; the state backend
   * does not change). Given, the stack also exports `placement`.
   * @default - the config's aws.region and aws.availabilityZones, the host's account, no `placement` output
   */
  readonly slot?: AwsSlot;
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
  /** The attendee's access entry (view, edit in the app's namespace), when the environment's attendee has an AWS identity. */
  public readonly attendeeAccess?: EksAttendeeAccess;
  /** The explicit denies attached to every in-cluster role (controller, VPC CNI or Cilium operator): this environment's resources only. */
  public readonly fence: EnvironmentFence;
  /** The slot the stack is placed in, when placement is configured (the `-lb` stack's providers follow it). */
  public readonly slot?: AwsSlot;
  /** The region of the stack's resources: the slot's, else aws.region. */
  public readonly region: string;

  constructor(scope: Construct, id: string, props: AwsClusterStackProps) {
    super(scope, id);
    const { config, slot } = props;
    // The slot's region and zones in place of the config's, when placed.
    const aws = slot ? { ...config.aws, region: slot.region, availabilityZones: [...slot.zones] } : config.aws;
    const names = labNames(config);
    this.slot = slot;
    this.region = aws.region;

    new AwsProvider(this, 'aws', {
      region: aws.region,
      defaultTags: [{ tags: labTags(config, id) }],
      ...(slot?.account ? { assumeRole: [{ roleArn: slot.account.roleArn }] } : {}),
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
      bootstrapSelfManagedAddons: aws.datapath === 'cilium' ? false : undefined,
      emulated: props.emulator !== undefined,
    });

    // Every in-cluster role gets this environment's fence beside its allow policies (docs/attendees.md, "The fence").
    // The node role carries read-only managed policies (AmazonEKSWorkerNodePolicy, AmazonEC2ContainerRegistryReadOnly): no fence.
    this.fence = new EnvironmentFence(this, 'fence', {
      policyName: `${names.eksCluster}-fence`,
      clusterName: names.eksCluster,
      vpcId: this.vpc.vpcId,
      vpcArn: this.vpc.vpcArn,
      subnetIds: [...this.vpc.publicSubnetIds, ...this.vpc.privateSubnetIds],
      instanceTag: { key: ENV_TAG, value: config.name },
    });

    const clusterName = this.cluster.clusterName;
    // The attendee's own access, apart from the admin entries Terraform authenticates through (moto has no access entry API).
    const attendee = config.attendee;
    if (attendee?.aws && !props.emulator) {
      this.attendeeAccess = new EksAttendeeAccess(this, 'attendee-access', {
        attendee: attendee.name,
        clusterName,
        principalArn: attendee.aws,
        namespace: APP_NAMESPACE,
        kubernetesGroups: [ATTENDEE_KUBERNETES_GROUP],
        deployerArn: this.cluster.deployerArn,
      });
    }
    const cilium = aws.datapath === 'cilium';
    if (cilium && props.emulator) {
      throw new Error(
        'aws.datapath "cilium" cannot run against the emulator: it installs Cilium with the helm provider, which is not installed offline, into a cluster moto does not run; use "iptables", "nftables" or "ipvs" for `npm run local`',
      );
    }
    this.addonsLeftOut = props.emulator ? [...ADDONS_LEFT_OUT_IN_EMULATOR] : [];
    // The CNI (and kube-proxy) must run before nodes join, or nodes stay NotReady and the node group never becomes ACTIVE.
    const beforeNodes = cilium ? [this.addCilium(config, clusterName, aws.region, slot?.account?.roleArn).release] : this.addVpcCniAndKubeProxy(config, clusterName, props.emulator === undefined);

    const nodes = new EksNodeGroup(this, 'nodes', {
      clusterName,
      nodeGroupName: `${names.eksCluster}-nodes`,
      subnetIds: this.vpc.privateSubnetIds,
      instanceType: aws.nodeInstanceType,
      nodeCount: aws.nodeCount,
      instanceTags: labTags(config, id),
      userData: aws.datapath === 'ipvs' ? ipvsUserData() : undefined,
      taints: cilium ? [CILIUM_AGENT_NOT_READY_TAINT] : undefined,
      // Destroyed before the CNI role's policy and the private routes: the CNI must keep its permissions
      // and the nodes their way out while nodes drain, or aws-K8S-* ENIs are stranded and block subnet deletion.
      dependsOn: [...beforeNodes, ...this.vpc.natGateways, ...this.vpc.privateRouting],
      emulated: props.emulator !== undefined,
    });

    if (!props.emulator) {
      // CoreDNS is a Deployment: it needs Ready nodes, so it comes after the node group (and, with Cilium, after Cilium).
      new EksAddon(this, 'coredns', { clusterName, addonName: 'coredns', dependsOn: [nodes.nodeGroup] });
    }

    const controllerRole = new LoadBalancerControllerRole(this, 'lb-controller-role', {
      clusterName: names.eksCluster,
      oidcProviderArn: this.cluster.oidcProviderArn,
      oidcIssuerUrl: this.cluster.oidcIssuerUrl,
      fencePolicyArn: this.fence.policyArn,
    });
    this.lbControllerRoleArn = controllerRole.roleArn;

    const limits = ENI_LIMITS[aws.nodeInstanceType];
    const outputs: AwsClusterStackOutputs = {
      [CLUSTER_OUTPUTS.cloud]: 'aws',
      [CLUSTER_OUTPUTS.clusterName]: clusterName,
      [CLUSTER_OUTPUTS.region]: aws.region,
      [CLUSTER_OUTPUTS.location]: aws.availabilityZones.join(','),
      [CLUSTER_OUTPUTS.nodeCount]: aws.nodeCount,
      [CLUSTER_OUTPUTS.maxPodsPerNode]: vpcCniMaxPods(limits),
      [CLUSTER_OUTPUTS.maxPodsPerNodeReason]: `${cilium ? 'Cilium ENI IPAM (the VPC CNI formula nodeadm uses)' : 'VPC CNI'} on ${aws.nodeInstanceType}: ${limits.maxEnis} ENIs x (${
        limits.ipv4PerEni
      } IPv4 per ENI - 1) + 2`,
      [CLUSTER_OUTPUTS.podAddressRange]: layout.private,
      [CLUSTER_OUTPUTS.podNetworking]: cilium
        ? 'cilium-eni: Pods get ENI secondary IPs from the private subnets (the Cilium operator attaches the ENIs)'
        : 'aws-vpc-cni: Pods get ENI secondary IPs from the private subnets',
      [CLUSTER_OUTPUTS.dataplane]: awsDataplane(aws.datapath),
      [AWS_CLUSTER_OUTPUTS.clusterEndpoint]: this.cluster.cluster.endpoint,
      [AWS_CLUSTER_OUTPUTS.clusterCaCertificate]: this.cluster.cluster.certificateAuthority.get(0).data,
      [AWS_CLUSTER_OUTPUTS.vpcId]: this.vpc.vpcId,
      [AWS_CLUSTER_OUTPUTS.oidcProviderArn]: this.cluster.oidcProviderArn,
      [AWS_CLUSTER_OUTPUTS.lbControllerRoleArn]: controllerRole.roleArn,
      [AWS_CLUSTER_OUTPUTS.kubernetesVersion]: this.cluster.cluster.version,
    };
    for (const [name, value] of Object.entries(outputs)) {
      new TerraformOutput(this, name, { value, description: AWS_CLUSTER_OUTPUT_DESCRIPTIONS[name as keyof AwsClusterStackOutputs] });
    }
    if (slot) new TerraformOutput(this, PLACEMENT_OUTPUT, { value: placementOutput(slot), description: PLACEMENT_OUTPUT_DESCRIPTION });
  }

  /**
   * The VPC CNI (with its IRSA role) and kube-proxy in the configured mode, as EKS add-ons (the role only, without `addons`).
   * Returns what the nodes wait for: the role's policy attachments (so the CNI keeps its permissions while nodes drain on destroy) and the add-ons.
   */
  private addVpcCniAndKubeProxy(config: LabConfig, clusterName: string, addons: boolean): ITerraformDependable[] {
    const cniRole = new ServiceAccountRole(this, 'vpc-cni-role', {
      roleName: `${labNames(config).eksCluster}-vpc-cni`,
      oidcProviderArn: this.cluster.oidcProviderArn,
      oidcIssuerUrl: this.cluster.oidcIssuerUrl,
      namespace: 'kube-system',
      serviceAccount: 'aws-node',
      policies: { cni: `${AWS_MANAGED_POLICY_PREFIX}/AmazonEKS_CNI_Policy`, fence: this.fence.policyArn },
    });
    const mode = config.aws.datapath as KubeProxyMode;
    if (!addons) {
      return [...cniRole.policyAttachments];
    }
    return [
      ...cniRole.policyAttachments,
      new EksAddon(this, 'vpc-cni', { clusterName, addonName: 'vpc-cni', serviceAccountRoleArn: cniRole.roleArn }).addon,
      new EksAddon(this, 'kube-proxy', { clusterName, addonName: 'kube-proxy', configurationValues: kubeProxyConfigurationValues(mode) }).addon,
    ];
  }

  /** Cilium (ENI mode, kube-proxy replacement) with its operator's IRSA role, instead of the vpc-cni and kube-proxy add-ons. */
  private addCilium(config: LabConfig, clusterName: string, region: string, roleArn: string | undefined): Cilium {
    const operatorRole = new CiliumOperatorRole(this, 'cilium-operator-role', {
      clusterName: labNames(config).eksCluster,
      oidcProviderArn: this.cluster.oidcProviderArn,
      oidcIssuerUrl: this.cluster.oidcIssuerUrl,
      fencePolicyArn: this.fence.policyArn,
    });
    return new Cilium(this, 'cilium', {
      clusterName,
      region,
      roleArn,
      endpoint: this.cluster.cluster.endpoint,
      certificateAuthorityData: this.cluster.cluster.certificateAuthority.get(0).data,
      operatorRoleArn: operatorRole.roleArn,
      loadBalancerAlgorithm: config.aws.cilium?.loadBalancerAlgorithm,
      hubble: config.aws.cilium?.hubble,
      // The helm provider reaches the API only through the deployer's (or an admin's) access entry and its
      // cluster-admin association (creator admin is off): created before the release, destroyed after it.
      // The operator's role and policy attachment likewise, as the node group waits for the VPC CNI's.
      dependsOn: [...operatorRole.dependables, ...this.cluster.adminAccess],
    });
  }
}
