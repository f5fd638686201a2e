import { IamPolicy } from '@cdktf/provider-aws/lib/iam-policy';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { Testing } from 'cdktf';
import { CILIUM_OPERATOR_EC2_ACTIONS, CILIUM_OPERATOR_TAG_RESOURCE, CiliumOperatorRole, CiliumOperatorRoleProps } from '../../../lib/constructs/aws/cilium-operator-role';

type Parsed = { data: Record<string, Record<string, { statement: Record<string, unknown>[] }>> };

function synth(extra: Partial<CiliumOperatorRoleProps> = {}) {
  let role: CiliumOperatorRole | undefined;
  const json = Testing.synthScope((scope) => {
    role = new CiliumOperatorRole(scope, 'cilium-operator-role', {
      clusterName: 'lab-eks',
      oidcProviderArn: 'arn:aws:iam::1:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/X',
      oidcIssuerUrl: 'https://oidc.eks.us-east-1.amazonaws.com/id/X',
      ...extra,
    });
  });
  return { json, parsed: JSON.parse(json) as Parsed & { resource: Record<string, Record<string, { policy_arn?: string }>> }, role: role! };
}

describe('CiliumOperatorRole', () => {
  test('GIVEN a cluster WHEN synthesized THEN the policy grants exactly the EC2 actions of Cilium\'s ENI "Required Privileges" (with DescribeTags for ENI GC), CreateTags on network interfaces only', () => {
    const statements = Object.values(synth().parsed.data.aws_iam_policy_document).flatMap((d) => d.statement);
    const policy = statements.find((s) => s.sid === 'CiliumEniIpam');
    expect(policy).toEqual({ sid: 'CiliumEniIpam', effect: 'Allow', actions: [...CILIUM_OPERATOR_EC2_ACTIONS], resources: ['*'] });
    expect(statements.find((s) => s.sid === 'CiliumEniTags')).toEqual({ sid: 'CiliumEniTags', effect: 'Allow', actions: ['ec2:CreateTags'], resources: [CILIUM_OPERATOR_TAG_RESOURCE] });
    expect(CILIUM_OPERATOR_TAG_RESOURCE).toBe('arn:aws:ec2:*:*:network-interface/*');
    expect([...CILIUM_OPERATOR_EC2_ACTIONS].sort()).toEqual([
      'ec2:AssignPrivateIpAddresses',
      'ec2:AttachNetworkInterface',
      'ec2:CreateNetworkInterface',
      'ec2:DeleteNetworkInterface',
      'ec2:DescribeInstanceTypes',
      'ec2:DescribeManagedPrefixLists',
      'ec2:DescribeNetworkInterfaces',
      'ec2:DescribeRouteTables',
      'ec2:DescribeSecurityGroups',
      'ec2:DescribeSubnets',
      'ec2:DescribeTags',
      'ec2:DescribeVpcs',
      'ec2:GetManagedPrefixListEntries',
      'ec2:ModifyNetworkInterfaceAttribute',
    ]);
  });

  test('GIVEN a cluster WHEN synthesized THEN only kube-system/cilium-operator can assume the role', () => {
    const statements = Object.values(synth().parsed.data.aws_iam_policy_document).flatMap((d) => d.statement);
    const trust = statements.find((s) => (s.actions as string[]).includes('sts:AssumeRoleWithWebIdentity'));
    expect(trust?.condition).toEqual([
      { test: 'StringEquals', variable: '${replace("https://oidc.eks.us-east-1.amazonaws.com/id/X", "https://", "")}:sub', values: ['system:serviceaccount:kube-system:cilium-operator'] },
      { test: 'StringEquals', variable: '${replace("https://oidc.eks.us-east-1.amazonaws.com/id/X", "https://", "")}:aud', values: ['sts.amazonaws.com'] },
    ]);
  });

  test('GIVEN a cluster WHEN synthesized THEN role and policy are named after it and attached', () => {
    const { json } = synth();
    expect(json).toHaveResourceWithProperties(IamRole, { name: 'lab-eks-cilium-operator' });
    expect(json).toHaveResourceWithProperties(IamPolicy, { name: 'lab-eks-cilium-operator' });
    expect(json).toHaveResourceWithProperties(IamRolePolicyAttachment, { policy_arn: expect.stringMatching(/^\$\{aws_iam_policy\.cilium-operator-role_policy_\w+\.arn\}$/) });
  });
});

describe('CiliumOperatorRole dependables', () => {
  test('GIVEN the role WHEN something depends on its dependables THEN it comes after the role and its policy attachment', () => {
    const parsed = JSON.parse(
      Testing.synthScope((scope) => {
        const role = new CiliumOperatorRole(scope, 'cilium-operator-role', {
          clusterName: 'lab-eks',
          oidcProviderArn: 'arn:aws:iam::1:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/X',
          oidcIssuerUrl: 'https://oidc.eks.us-east-1.amazonaws.com/id/X',
        });
        new IamPolicy(scope, 'user', { policy: '{}', dependsOn: role.dependables });
      }),
    ) as { resource: Record<string, Record<string, { depends_on?: string[] }>> };
    const [roleName] = Object.keys(parsed.resource.aws_iam_role);
    const [attachment] = Object.keys(parsed.resource.aws_iam_role_policy_attachment);
    expect(parsed.resource.aws_iam_policy.user.depends_on).toEqual([`aws_iam_role.${roleName}`, `aws_iam_role_policy_attachment.${attachment}`]);
  });
});

describe('CiliumOperatorRole with a fence', () => {
  test('GIVEN a fence policy WHEN synthesized THEN it is attached beside the operator policy, and both are among the dependables', () => {
    const { parsed, role } = synth({ fencePolicyArn: 'arn:aws:iam::1:policy/lab-eks-fence' });
    expect(Object.values(parsed.resource.aws_iam_role_policy_attachment).map((a) => a.policy_arn)).toEqual([
      expect.stringMatching(/^\$\{aws_iam_policy\.cilium-operator-role_policy_\w+\.arn\}$/),
      'arn:aws:iam::1:policy/lab-eks-fence',
    ]);
    expect(role.dependables).toHaveLength(3);
  });
});
