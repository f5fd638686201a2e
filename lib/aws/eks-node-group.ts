import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { EksNodeGroup as EksNodeGroupResource } from '@cdktf/provider-aws/lib/eks-node-group';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { AWS_MANAGED_POLICY_PREFIX } from './eks-cluster';

/** Managed policies every EKS worker node needs (the CNI's own policy goes to its IRSA role). */
const NODE_POLICIES: Readonly<Record<string, string>> = {
  worker: 'AmazonEKSWorkerNodePolicy',
  ecr: 'AmazonEC2ContainerRegistryReadOnly',
};

export interface EksNodeGroupProps {
  /** Name of the cluster the nodes join. */
  readonly clusterName: string;
  /** Node group name; also prefixes the node IAM role's name. */
  readonly nodeGroupName: string;
  /** Subnets for the nodes (the private ones). */
  readonly subnetIds: readonly string[];
  /** EC2 instance type. */
  readonly instanceType: string;
  /** Number of nodes; the group is fixed at this size. */
  readonly nodeCount: number;
  /**
   * Resources that must exist before nodes join, such as the VPC CNI add-on:
   * a node that starts without its CNI stays NotReady.
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
  /**
   * The target is the local emulator (moto): ignore the fields it reports
   * differently (`remote_access`, which would force a replacement) or does not
   * store (`update_config`), so a re-plan after apply is empty.
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
    const trust = new DataAwsIamPolicyDocument(this, 'role-trust', {
      statement: [{ effect: 'Allow', actions: ['sts:AssumeRole'], principals: [{ type: 'Service', identifiers: ['ec2.amazonaws.com'] }] }],
    });
    const role = new IamRole(this, 'role', { name: `${props.nodeGroupName}-node`, assumeRolePolicy: trust.json });
    const attachments = Object.entries(NODE_POLICIES).map(
      ([key, name]) => new IamRolePolicyAttachment(this, `role-${key}`, { role: role.name, policyArn: `${AWS_MANAGED_POLICY_PREFIX}/${name}` }),
    );
    this.nodeRoleArn = role.arn;

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
      // Policies stay attached until the nodes are gone, or they cannot deregister cleanly.
      dependsOn: [...attachments, ...(props.dependsOn ?? [])],
      lifecycle: props.emulated ? { ignoreChanges: ['remote_access', 'update_config'] } : undefined,
    });
  }
}
