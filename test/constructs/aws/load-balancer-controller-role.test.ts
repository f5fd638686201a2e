import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { IamPolicy } from '@cdktf/provider-aws/lib/iam-policy';
import { Testing } from 'cdktf';
import { LB_CONTROLLER_POLICY_STATEMENTS, LB_CONTROLLER_POLICY_VERSION } from '../../../lib/constructs/aws/load-balancer-controller-policy';
import { LoadBalancerControllerRole } from '../../../lib/constructs/aws/load-balancer-controller-role';

function synth(fencePolicyArn?: string): string {
  return Testing.synthScope((scope) => {
    new LoadBalancerControllerRole(scope, 'lbc', { clusterName: 'lab-eks', oidcProviderArn: 'arn:oidc', oidcIssuerUrl: 'https://oidc.example/id/X', fencePolicyArn });
  });
}

function policyDocument(): { Version: string; Statement: { Action: string | string[]; Condition?: Record<string, Record<string, unknown>> }[] } {
  const policy = Object.values(JSON.parse(synth()).resource.aws_iam_policy)[0] as { policy: string };
  return JSON.parse(policy.policy);
}

const actions = () => policyDocument().Statement.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('LoadBalancerControllerRole', () => {
  test('GIVEN the controller role WHEN synthesized THEN the policy names the pinned controller release', () => {
    expect(LB_CONTROLLER_POLICY_VERSION).toBe('v3.5.0');
    expect(synth()).toHaveResourceWithProperties(IamPolicy, { name: 'lab-eks-aws-lb-controller', description: 'AWS Load Balancer Controller v3.5.0 for EKS cluster lab-eks' });
  });

  test('GIVEN the policy WHEN read THEN it is the full official statement list', () => {
    expect(policyDocument()).toEqual({ Version: '2012-10-17', Statement: LB_CONTROLLER_POLICY_STATEMENTS });
    expect(LB_CONTROLLER_POLICY_STATEMENTS).toHaveLength(16);
  });

  test.each([
    ['elasticloadbalancing:CreateLoadBalancer'],
    ['elasticloadbalancing:CreateTargetGroup'],
    ['elasticloadbalancing:RegisterTargets'],
    ['elasticloadbalancing:DeleteLoadBalancer'],
    ['ec2:CreateSecurityGroup'],
    ['ec2:AuthorizeSecurityGroupIngress'],
    ['ec2:DescribeSubnets'],
    ['iam:CreateServiceLinkedRole'],
  ])('GIVEN the policy WHEN read THEN it allows %s, which the controller needs for ALBs, NLBs and target groups', (action) => {
    expect(actions()).toContain(action);
  });

  test('GIVEN the policy WHEN read THEN write access to load balancers is scoped to resources tagged elbv2.k8s.aws/cluster (the current tag, not the retired ingress.k8s.aws/cluster)', () => {
    const text = JSON.stringify(policyDocument());
    expect(text).toContain('aws:ResourceTag/elbv2.k8s.aws/cluster');
    expect(text).not.toContain('ingress.k8s.aws/cluster');
    const deletes = policyDocument().Statement.filter((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).includes('elasticloadbalancing:DeleteLoadBalancer'));
    expect(deletes).toHaveLength(1);
    expect(deletes[0].Condition).toEqual({ Null: { 'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false' } });
  });

  test('GIVEN the trust policy WHEN synthesized THEN only kube-system/aws-load-balancer-controller can assume the role', () => {
    expect(synth()).toHaveDataSourceWithProperties(DataAwsIamPolicyDocument, {
      statement: [
        expect.objectContaining({
          condition: expect.arrayContaining([expect.objectContaining({ values: ['system:serviceaccount:kube-system:aws-load-balancer-controller'] })]),
        }),
      ],
    });
  });
});

describe('LoadBalancerControllerRole with a fence', () => {
  test('GIVEN a fence policy WHEN synthesized THEN the role carries the upstream policy and the fence, two attachments, and the upstream policy unchanged', () => {
    const parsed = JSON.parse(synth('arn:aws:iam::1:policy/lab-eks-fence')) as { resource: Record<string, Record<string, { policy_arn?: string; policy?: string }>> };
    const attached = Object.values(parsed.resource.aws_iam_role_policy_attachment).map((a) => a.policy_arn);
    expect(attached).toEqual([expect.stringMatching(/^\$\{aws_iam_policy\.lbc_policy_\w+\.arn\}$/), 'arn:aws:iam::1:policy/lab-eks-fence']);
    expect(JSON.parse(Object.values(parsed.resource.aws_iam_policy)[0].policy!).Statement).toEqual(LB_CONTROLLER_POLICY_STATEMENTS);
  });
});
