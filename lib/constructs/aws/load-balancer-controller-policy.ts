/**
 * The IAM policy of the AWS Load Balancer Controller v3.5.0 (Helm chart 3.5.0),
 * as the controller's project publishes it for installs (docs/install/iam_policy.json
 * at tag v3.5.0). Resources the controller creates are tagged
 * `elbv2.k8s.aws/cluster`; the conditions below scope its write access to them.
 *
 * When you change `LB_CONTROLLER_POLICY_VERSION`, replace the statements with the
 * policy of that release: the policy changes between releases.
 */
export const LB_CONTROLLER_POLICY_VERSION = 'v3.5.0';

/** One IAM policy statement in the shape of the IAM JSON policy language. */
export interface IamStatement {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: string | readonly string[];
  readonly Resource: string | readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

export const LB_CONTROLLER_POLICY_STATEMENTS: readonly IamStatement[] = [
  {
    Effect: 'Allow',
    Action: ['iam:CreateServiceLinkedRole'],
    Resource: '*',
    Condition: {
      StringEquals: {
        'iam:AWSServiceName': 'elasticloadbalancing.amazonaws.com',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: [
      'ec2:DescribeAccountAttributes',
      'ec2:DescribeAddresses',
      'ec2:DescribeAvailabilityZones',
      'ec2:DescribeInternetGateways',
      'ec2:DescribeVpcs',
      'ec2:DescribeVpcPeeringConnections',
      'ec2:DescribeSubnets',
      'ec2:DescribeSecurityGroups',
      'ec2:DescribeInstances',
      'ec2:DescribeNetworkInterfaces',
      'ec2:DescribeTags',
      'ec2:GetCoipPoolUsage',
      'ec2:DescribeCoipPools',
      'ec2:GetSecurityGroupsForVpc',
      'ec2:DescribeIpamPools',
      'ec2:DescribeRouteTables',
      'elasticloadbalancing:DescribeLoadBalancers',
      'elasticloadbalancing:DescribeLoadBalancerAttributes',
      'elasticloadbalancing:DescribeListeners',
      'elasticloadbalancing:DescribeListenerCertificates',
      'elasticloadbalancing:DescribeSSLPolicies',
      'elasticloadbalancing:DescribeRules',
      'elasticloadbalancing:DescribeTargetGroups',
      'elasticloadbalancing:DescribeTargetGroupAttributes',
      'elasticloadbalancing:DescribeTargetHealth',
      'elasticloadbalancing:DescribeTags',
      'elasticloadbalancing:DescribeTrustStores',
      'elasticloadbalancing:DescribeListenerAttributes',
      'elasticloadbalancing:DescribeCapacityReservation',
    ],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: [
      'cognito-idp:DescribeUserPoolClient',
      'acm:ListCertificates',
      'acm:DescribeCertificate',
      'iam:ListServerCertificates',
      'iam:GetServerCertificate',
      'waf-regional:GetWebACL',
      'waf-regional:GetWebACLForResource',
      'waf-regional:AssociateWebACL',
      'waf-regional:DisassociateWebACL',
      'wafv2:GetWebACL',
      'wafv2:GetWebACLForResource',
      'wafv2:AssociateWebACL',
      'wafv2:DisassociateWebACL',
      'shield:GetSubscriptionState',
      'shield:DescribeProtection',
      'shield:CreateProtection',
      'shield:DeleteProtection',
    ],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: ['ec2:AuthorizeSecurityGroupIngress', 'ec2:RevokeSecurityGroupIngress'],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: ['ec2:CreateSecurityGroup'],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: ['ec2:CreateTags'],
    Resource: 'arn:aws:ec2:*:*:security-group/*',
    Condition: {
      StringEquals: {
        'ec2:CreateAction': 'CreateSecurityGroup',
      },
      Null: {
        'aws:RequestTag/elbv2.k8s.aws/cluster': 'false',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: ['ec2:CreateTags', 'ec2:DeleteTags'],
    Resource: 'arn:aws:ec2:*:*:security-group/*',
    Condition: {
      Null: {
        'aws:RequestTag/elbv2.k8s.aws/cluster': 'true',
        'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: ['ec2:AuthorizeSecurityGroupIngress', 'ec2:RevokeSecurityGroupIngress', 'ec2:DeleteSecurityGroup'],
    Resource: '*',
    Condition: {
      Null: {
        'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: ['elasticloadbalancing:CreateLoadBalancer', 'elasticloadbalancing:CreateTargetGroup'],
    Resource: '*',
    Condition: {
      Null: {
        'aws:RequestTag/elbv2.k8s.aws/cluster': 'false',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: ['elasticloadbalancing:CreateListener', 'elasticloadbalancing:DeleteListener', 'elasticloadbalancing:CreateRule', 'elasticloadbalancing:DeleteRule'],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: ['elasticloadbalancing:AddTags', 'elasticloadbalancing:RemoveTags'],
    Resource: ['arn:aws:elasticloadbalancing:*:*:targetgroup/*/*', 'arn:aws:elasticloadbalancing:*:*:loadbalancer/net/*/*', 'arn:aws:elasticloadbalancing:*:*:loadbalancer/app/*/*'],
    Condition: {
      Null: {
        'aws:RequestTag/elbv2.k8s.aws/cluster': 'true',
        'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: ['elasticloadbalancing:AddTags', 'elasticloadbalancing:RemoveTags'],
    Resource: [
      'arn:aws:elasticloadbalancing:*:*:listener/net/*/*/*',
      'arn:aws:elasticloadbalancing:*:*:listener/app/*/*/*',
      'arn:aws:elasticloadbalancing:*:*:listener-rule/net/*/*/*',
      'arn:aws:elasticloadbalancing:*:*:listener-rule/app/*/*/*',
    ],
  },
  {
    Effect: 'Allow',
    Action: [
      'elasticloadbalancing:ModifyLoadBalancerAttributes',
      'elasticloadbalancing:SetIpAddressType',
      'elasticloadbalancing:SetSecurityGroups',
      'elasticloadbalancing:SetSubnets',
      'elasticloadbalancing:DeleteLoadBalancer',
      'elasticloadbalancing:ModifyTargetGroup',
      'elasticloadbalancing:ModifyTargetGroupAttributes',
      'elasticloadbalancing:DeleteTargetGroup',
      'elasticloadbalancing:ModifyListenerAttributes',
      'elasticloadbalancing:ModifyCapacityReservation',
      'elasticloadbalancing:ModifyIpPools',
    ],
    Resource: '*',
    Condition: {
      Null: {
        'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: ['elasticloadbalancing:AddTags'],
    Resource: ['arn:aws:elasticloadbalancing:*:*:targetgroup/*/*', 'arn:aws:elasticloadbalancing:*:*:loadbalancer/net/*/*', 'arn:aws:elasticloadbalancing:*:*:loadbalancer/app/*/*'],
    Condition: {
      StringEquals: {
        'elasticloadbalancing:CreateAction': ['CreateTargetGroup', 'CreateLoadBalancer'],
      },
      Null: {
        'aws:RequestTag/elbv2.k8s.aws/cluster': 'false',
      },
    },
  },
  {
    Effect: 'Allow',
    Action: ['elasticloadbalancing:RegisterTargets', 'elasticloadbalancing:DeregisterTargets'],
    Resource: 'arn:aws:elasticloadbalancing:*:*:targetgroup/*/*',
  },
  {
    Effect: 'Allow',
    Action: [
      'elasticloadbalancing:SetWebAcl',
      'elasticloadbalancing:ModifyListener',
      'elasticloadbalancing:AddListenerCertificates',
      'elasticloadbalancing:RemoveListenerCertificates',
      'elasticloadbalancing:ModifyRule',
      'elasticloadbalancing:SetRulePriorities',
    ],
    Resource: '*',
  },
];

/** The whole policy document, ready for `aws_iam_policy.policy`. */
export function lbControllerPolicyDocument(): string {
  return JSON.stringify({ Version: '2012-10-17', Statement: LB_CONTROLLER_POLICY_STATEMENTS });
}
