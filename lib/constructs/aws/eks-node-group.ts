import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { EksNodeGroup as EksNodeGroupResource } from '@cdktf/provider-aws/lib/eks-node-group';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { LaunchTemplate } from '@cdktf/provider-aws/lib/launch-template';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { AWS_MANAGED_POLICY_PREFIX } from './eks-cluster';

/** Managed policies every EKS worker node needs (the CNI's own policy goes to its IRSA role). */
const NODE_POLICIES: Readonly<Record<string, string>> = {
  worker: 'AmazonEKSWorkerNodePolicy',
  ecr: 'AmazonEC2ContainerRegistryReadOnly',
};

export interface EksNodeGroupProps {
  /** Name of the cluster the nodes join. Required. */
  readonly clusterName: string;
  /** Node group name; also prefixes the node IAM role's name. Required. */
  readonly nodeGroupName: string;
  /** Subnets for the nodes (the private ones). Required. */
  readonly subnetIds: readonly string[];
  /** EC2 instance type. Required. */
  readonly instanceType: string;
  /** Number of nodes; the group is fixed at this size. Required. */
  readonly nodeCount: number;
  /**
   * Resources that must exist before nodes join, such as the VPC CNI add-on:
   * a node that starts without its CNI stays NotReady.
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
  /**
   * Tags for the nodes' EC2 instances, root volumes and network interfaces.
   * Provider default tags do not reach them (EKS launches them), so they go
   * through a launch template's tag specifications.
   * @default - no launch template: EKS's own, and untagged instances
   */
  readonly instanceTags?: Readonly<Record<string, string>>;
  /**
   * Extra user data for the nodes, as MIME multipart (what AL2023's nodeadm
   * reads): EKS merges its own NodeConfig part into it. Goes on the launch
   * template, so it needs `instanceTags`.
   * @default - none: EKS's user data only
   */
  readonly userData?: string;
  /**
   * Kubernetes taints every node starts with (e.g. Cilium's agent-not-ready taint).
   * @default - none
   */
  readonly taints?: readonly { readonly key: string; readonly value: string; readonly effect: 'NO_SCHEDULE' | 'NO_EXECUTE' | 'PREFER_NO_SCHEDULE' }[];
  /**
   * The target is the local emulator (moto): ignore the fields it reports
   * differently (`remote_access`, which would force a replacement, and the
   * launch template's tag specifications) or does not store (`update_config`),
   * so a re-plan after apply is empty.
   * @default false
   */
  readonly emulated?: boolean;
}

/**
 * An EKS managed node group of Amazon Linux 2023 nodes with its IAM role. The
 * node's bootstrap sets max Pods from the instance type's ENI limits, the same
 * number `vpcCniMaxPods` computes.
 */
export class EksNodeGroup extends Construct {
  /** The node group resource, for dependencies. */
  public readonly nodeGroup: EksNodeGroupResource;
  /** ARN of the node IAM role. */
  public readonly nodeRoleArn: string;

  constructor(scope: Construct, id: string, props: EksNodeGroupProps) {
    super(scope, id);
    if (props.userData !== undefined && !props.instanceTags) {
      throw new Error(`EksNodeGroup ${id}: userData goes on the launch template, which only exists with instanceTags; set instanceTags too`);
    }
    const trust = new DataAwsIamPolicyDocument(this, 'role-trust', {
      statement: [{ effect: 'Allow', actions: ['sts:AssumeRole'], principals: [{ type: 'Service', identifiers: ['ec2.amazonaws.com'] }] }],
    });
    const role = new IamRole(this, 'role', { name: `${props.nodeGroupName}-node`, assumeRolePolicy: trust.json });
    const attachments = Object.entries(NODE_POLICIES).map(([key, name]) => new IamRolePolicyAttachment(this, `role-${key}`, { role: role.name, policyArn: `${AWS_MANAGED_POLICY_PREFIX}/${name}` }));
    this.nodeRoleArn = role.arn;

    const launchTemplate = props.instanceTags
      ? new LaunchTemplate(this, 'launch-template', {
          namePrefix: `${props.nodeGroupName}-`,
          description: `EKS managed node group ${props.nodeGroupName}`,
          // IMDSv2 only, hop limit 1: the token's reply is dropped one hop past the node, so a Pod in its own
          // network namespace cannot take the node role's credentials. A host-network Pod is the node as far
          // as IMDS can tell and gets them: the limit is no boundary for a Pod an attendee creates with
          // hostNetwork (or as root on the node). What stops attendees creating those is Pod Security
          // `baseline` on namespace hoplab, the only one they may create Pods in (see AwsLbStack).
          // Nothing of the lab needs IMDS from a Pod: aws-node and kube-proxy use host networking, and the
          // controller is given vpcId and region as values.
          metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: 1 },
          tagSpecifications: ['instance', 'volume', 'network-interface'].map((resourceType) => ({ resourceType, tags: { ...props.instanceTags } })),
          userData: props.userData === undefined ? undefined : Buffer.from(props.userData, 'utf8').toString('base64'),
          updateDefaultVersion: true,
          // moto copies the template's own tags into its data as a "launch-template" tag specification.
          lifecycle: props.emulated ? { ignoreChanges: ['tag_specifications'] } : undefined,
        })
      : undefined;

    this.nodeGroup = new EksNodeGroupResource(this, 'node-group', {
      clusterName: props.clusterName,
      nodeGroupName: props.nodeGroupName,
      nodeRoleArn: role.arn,
      subnetIds: [...props.subnetIds],
      instanceTypes: [props.instanceType],
      amiType: 'AL2023_x86_64_STANDARD',
      capacityType: 'ON_DEMAND',
      scalingConfig: { desiredSize: props.nodeCount, minSize: props.nodeCount, maxSize: props.nodeCount },
      updateConfig: { maxUnavailable: 1 },
      taint: props.taints?.map((t) => ({ ...t })),
      launchTemplate: launchTemplate ? { id: launchTemplate.id, version: launchTemplate.latestVersion.toString() } : undefined,
      // Policies stay attached until the nodes are gone, or they cannot deregister cleanly.
      dependsOn: [...attachments, ...(props.dependsOn ?? [])],
      lifecycle: props.emulated ? { ignoreChanges: ['remote_access', 'update_config'] } : undefined,
    });
  }
}
