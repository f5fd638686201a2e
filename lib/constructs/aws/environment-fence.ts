import { IamPolicy } from '@cdktf/provider-aws/lib/iam-policy';
import { Construct } from 'constructs';
import { IamStatement } from './load-balancer-controller-policy';

/** The tag the AWS Load Balancer Controller puts on everything it creates, with the cluster's name as value. */
export const LB_CONTROLLER_CLUSTER_TAG = 'elbv2.k8s.aws/cluster';

export interface EnvironmentFenceProps {
  /** The environment's EKS cluster name: the value its controller's `elbv2.k8s.aws/cluster` tags carry. Required. */
  readonly clusterName: string;
  /** The environment's VPC ID (`vpc-...`), for `ec2:VpcID`. Required. */
  readonly vpcId: string;
  /** The environment's VPC ARN, for `ec2:Vpc`. Required. */
  readonly vpcArn: string;
  /** Every subnet of the environment's VPC: load balancers go into these only (`elasticloadbalancing:Subnet`). Required. */
  readonly subnetIds: readonly string[];
  /** The tag every node (EC2 instance) of the environment carries, from its launch template, e.g. `hoplab-env: ann`. Required. */
  readonly instanceTag: { readonly key: string; readonly value: string };
  /** The policy's name (at most 128 characters). Required. */
  readonly policyName: string;
}

const elb = (action: string) => `elasticloadbalancing:${action}`;
const ec2 = (action: string) => `ec2:${action}`;
const ARN = {
  securityGroup: 'arn:aws:ec2:*:*:security-group/*',
  networkInterface: 'arn:aws:ec2:*:*:network-interface/*',
  subnet: 'arn:aws:ec2:*:*:subnet/*',
  vpc: 'arn:aws:ec2:*:*:vpc/*',
  instance: 'arn:aws:ec2:*:*:instance/*',
};

/**
 * ELBv2 actions on an existing load balancer, target group, listener or rule
 * (the one the action names, or for CreateListener and CreateRule the load
 * balancer or listener it is added to). Every one takes `aws:ResourceTag`.
 */
export const FENCED_LOAD_BALANCING_ACTIONS = [
  'ModifyLoadBalancerAttributes',
  'SetIpAddressType',
  'SetSecurityGroups',
  'SetSubnets',
  'DeleteLoadBalancer',
  'ModifyTargetGroup',
  'ModifyTargetGroupAttributes',
  'DeleteTargetGroup',
  'RegisterTargets',
  'DeregisterTargets',
  'CreateListener',
  'ModifyListener',
  'ModifyListenerAttributes',
  'DeleteListener',
  'AddListenerCertificates',
  'RemoveListenerCertificates',
  'CreateRule',
  'ModifyRule',
  'DeleteRule',
  'ModifyCapacityReservation',
  'ModifyIpPools',
].map(elb);

/**
 * Web ACL and Shield actions the controller's policy allows on `*`: they take
 * no condition key on the load balancer, and the controller calls them only for
 * an Ingress or LoadBalancerConfiguration that asks for a WAF or Shield, which
 * hoplab never does (v3.5.0: pkg/ingress/model_build_load_balancer_addons.go,
 * pkg/gateway/model/addons/model_build_addon.go; without one the synthesizers
 * return before any call). So the fence denies them outright.
 */
export const DENIED_WAF_AND_SHIELD_ACTIONS = [
  'waf-regional:AssociateWebACL',
  'waf-regional:DisassociateWebACL',
  'wafv2:AssociateWebACL',
  'wafv2:DisassociateWebACL',
  'shield:CreateProtection',
  'shield:DeleteProtection',
  elb('SetWebAcl'),
];

/**
 * What the in-cluster roles may do that no fence can limit to one environment,
 * and why (docs/attendees.md lists the same). Reads (`Describe*`, `Get*`,
 * `List*`) are not fenced either: they show other environments' resources but
 * change nothing.
 */
export const UNFENCED_ACTIONS: Readonly<Record<string, string>> = {
  [elb('SetRulePriorities')]:
    'takes no condition key, and the rules it names have controller-made ARNs (listener-rule/app/k8s-hoplab-<name>-<hash>/...) that do not tell environments apart; each hoplab listener has one rule, so a new priority changes no routing',
  'iam:CreateServiceLinkedRole': 'creates the account-wide Elastic Load Balancing service-linked role (the condition pins that service), which every environment shares and no one owns',
  [elb('CreateTargetGroup')]:
    'names its VPC with no condition key for it; a target group made in another environment’s VPC is tagged for this cluster, and that environment’s load balancers and controller leave it alone',
};

/**
 * The explicit `Deny` statements that keep an environment's in-cluster roles
 * (the AWS Load Balancer Controller's, the VPC CNI's or Cilium operator's) to
 * that environment's own resources where attendees share one AWS account:
 * whatever those roles' allow policies say, a request on another environment's
 * load balancer, target group, listener, rule, security group, network
 * interface, subnet, VPC or node is denied. Each `Deny` is scoped to the
 * resource types whose condition key it reads (a negated condition on a key a
 * resource does not carry denies the environment's own request, and an
 * `...IfExists` one fences nothing): `ec2:Vpc` is absent on
 * CreateNetworkInterface's new interface and on the instance of
 * Attach/DetachNetworkInterface, so those are fenced by the subnet and security
 * group, and by the node's tag. docs/attendees.md says what stays unfenced.
 */
export function environmentFenceStatements(props: Omit<EnvironmentFenceProps, 'policyName'>): (IamStatement & { readonly Sid: string })[] {
  const clusterTag = { [`aws:ResourceTag/${LB_CONTROLLER_CLUSTER_TAG}`]: props.clusterName };
  const otherClusterTag = {
    'ForAnyValue:StringEquals': { 'aws:TagKeys': [LB_CONTROLLER_CLUSTER_TAG] },
    StringNotEquals: { [`aws:RequestTag/${LB_CONTROLLER_CLUSTER_TAG}`]: props.clusterName },
  };
  const inVpc = { ArnNotEquals: { 'ec2:Vpc': props.vpcArn } };
  return [
    {
      Sid: 'LoadBalancingOfThisClusterOnly',
      Effect: 'Deny',
      Action: FENCED_LOAD_BALANCING_ACTIONS,
      Resource: '*',
      Condition: { StringNotEquals: clusterTag },
    },
    {
      // Tags set on a resource as it is created (CreateAction) are the next statement's; the new resource has no tags yet.
      Sid: 'LoadBalancingTagsOfThisClusterOnly',
      Effect: 'Deny',
      Action: [elb('AddTags')],
      Resource: '*',
      Condition: { StringNotEquals: clusterTag, Null: { 'elasticloadbalancing:CreateAction': 'true' } },
    },
    {
      Sid: 'LoadBalancingTagRemovalsOfThisClusterOnly',
      Effect: 'Deny',
      Action: [elb('RemoveTags')],
      Resource: '*',
      Condition: { StringNotEquals: clusterTag },
    },
    {
      Sid: 'NoLoadBalancingTaggedForAnotherCluster',
      Effect: 'Deny',
      Action: ['CreateLoadBalancer', 'CreateTargetGroup', 'CreateListener', 'CreateRule', 'AddTags'].map(elb),
      Resource: '*',
      Condition: otherClusterTag,
    },
    {
      Sid: 'LoadBalancersInThisVpcOnly',
      Effect: 'Deny',
      Action: ['CreateLoadBalancer', 'SetSubnets'].map(elb),
      Resource: '*',
      Condition: { 'ForAnyValue:StringNotEquals': { 'elasticloadbalancing:Subnet': [...props.subnetIds] } },
    },
    {
      Sid: 'SecurityGroupsOfThisVpcOnly',
      Effect: 'Deny',
      Action: ['AuthorizeSecurityGroupIngress', 'RevokeSecurityGroupIngress', 'DeleteSecurityGroup', 'CreateNetworkInterface', 'ModifyNetworkInterfaceAttribute'].map(ec2),
      Resource: ARN.securityGroup,
      Condition: inVpc,
    },
    {
      Sid: 'NewSecurityGroupsInThisVpcOnly',
      Effect: 'Deny',
      Action: [ec2('CreateSecurityGroup')],
      Resource: ARN.vpc,
      Condition: { StringNotEquals: { 'ec2:VpcID': props.vpcId } },
    },
    {
      Sid: 'NoSecurityGroupTaggedForAnotherCluster',
      Effect: 'Deny',
      Action: ['CreateSecurityGroup', 'CreateTags'].map(ec2),
      Resource: ARN.securityGroup,
      Condition: otherClusterTag,
    },
    {
      // DeleteTags carries no ec2:Vpc: the controller deletes tags only on security groups tagged for its cluster.
      Sid: 'SecurityGroupTagRemovalsOfThisClusterOnly',
      Effect: 'Deny',
      Action: [ec2('DeleteTags')],
      Resource: ARN.securityGroup,
      Condition: { StringNotEquals: clusterTag },
    },
    {
      Sid: 'NewNetworkInterfacesInThisVpcOnly',
      Effect: 'Deny',
      Action: [ec2('CreateNetworkInterface')],
      Resource: ARN.subnet,
      Condition: inVpc,
    },
    {
      Sid: 'NetworkInterfacesOfThisVpcOnly',
      Effect: 'Deny',
      Action: ['AssignPrivateIpAddresses', 'UnassignPrivateIpAddresses', 'AttachNetworkInterface', 'DetachNetworkInterface', 'DeleteNetworkInterface', 'ModifyNetworkInterfaceAttribute'].map(ec2),
      Resource: ARN.networkInterface,
      Condition: inVpc,
    },
    {
      // Tags set as an interface or group is created (CreateAction) come with a create that the statements above fence.
      Sid: 'TagsInThisVpcOnly',
      Effect: 'Deny',
      Action: [ec2('CreateTags')],
      Resource: [ARN.networkInterface, ARN.securityGroup],
      Condition: { ...inVpc, Null: { 'ec2:CreateAction': 'true' } },
    },
    {
      Sid: 'NodesOfThisEnvironmentOnly',
      Effect: 'Deny',
      Action: ['AttachNetworkInterface', 'DetachNetworkInterface', 'ModifyNetworkInterfaceAttribute'].map(ec2),
      Resource: ARN.instance,
      Condition: { StringNotEquals: { [`aws:ResourceTag/${props.instanceTag.key}`]: props.instanceTag.value } },
    },
    {
      Sid: 'NoWebAclOrShield',
      Effect: 'Deny',
      Action: DENIED_WAF_AND_SHIELD_ACTIONS,
      Resource: '*',
    },
  ];
}

/**
 * A customer managed IAM policy of {@link environmentFenceStatements} for one
 * environment, to attach to each of its in-cluster roles beside their allow
 * policies (which stay as they are: the controller's upstream policy byte for
 * byte, AmazonEKS_CNI_Policy, Cilium's documented actions). Evaluated with an
 * IAM policy evaluator over the synthesized stacks
 * (test/stacks/attendee-isolation.test.ts); not yet run on a real EKS.
 */
export class EnvironmentFence extends Construct {
  /** The policy's ARN, to attach. */
  public readonly policyArn: string;
  /** The statements, as the policy holds them. */
  public readonly statements: readonly IamStatement[];

  constructor(scope: Construct, id: string, props: EnvironmentFenceProps) {
    super(scope, id);
    this.statements = environmentFenceStatements(props);
    const policy = new IamPolicy(this, 'policy', {
      name: props.policyName,
      description: `Keeps the in-cluster roles of EKS cluster ${props.clusterName} to its own VPC, nodes and load balancers`,
      // The VPC, subnet IDs and ARN are Terraform references, interpolated into the JSON at plan (none holds a quote).
      policy: JSON.stringify({ Version: '2012-10-17', Statement: this.statements }),
    });
    this.policyArn = policy.arn;
  }
}
