import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { Testing } from 'cdktf';
import { ServiceAccountRole, ServiceAccountRoleProps } from '../../../lib/constructs/aws/service-account-role';

const PROPS: ServiceAccountRoleProps = {
  roleName: 'lab-eks-vpc-cni',
  oidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC',
  oidcIssuerUrl: 'https://oidc.eks.us-east-1.amazonaws.com/id/ABC',
  namespace: 'kube-system',
  serviceAccount: 'aws-node',
};

describe('ServiceAccountRole', () => {
  test('GIVEN a service account WHEN synthesized THEN only that service account, through the OIDC provider, with audience sts, can assume the role', () => {
    const json = Testing.synthScope((scope) => {
      new ServiceAccountRole(scope, 'role', PROPS);
    });
    expect(json).toHaveDataSourceWithProperties(DataAwsIamPolicyDocument, {
      statement: [
        {
          effect: 'Allow',
          actions: ['sts:AssumeRoleWithWebIdentity'],
          principals: [{ type: 'Federated', identifiers: [PROPS.oidcProviderArn] }],
          condition: [
            { test: 'StringEquals', variable: '${replace("https://oidc.eks.us-east-1.amazonaws.com/id/ABC", "https://", "")}:sub', values: ['system:serviceaccount:kube-system:aws-node'] },
            { test: 'StringEquals', variable: '${replace("https://oidc.eks.us-east-1.amazonaws.com/id/ABC", "https://", "")}:aud', values: ['sts.amazonaws.com'] },
          ],
        },
      ],
    });
    expect(json).toHaveResourceWithProperties(IamRole, { name: 'lab-eks-vpc-cni', assume_role_policy: expect.stringMatching(/^\$\{data\.aws_iam_policy_document\.\w+\.json\}$/) });
  });

  test('GIVEN policies by key WHEN synthesized THEN each is attached under a construct id from its key', () => {
    const json = Testing.synthScope((scope) => {
      new ServiceAccountRole(scope, 'role', { ...PROPS, policies: { cni: 'arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy' } });
    });
    expect(json).toHaveResourceWithProperties(IamRolePolicyAttachment, { policy_arn: 'arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy' });
    expect(Object.keys(JSON.parse(json).resource.aws_iam_role_policy_attachment)).toEqual([expect.stringMatching(/^role_policy-cni_/)]);
  });

  test('GIVEN a role name over 64 characters WHEN constructed THEN it throws naming the prop and the limit', () => {
    const roleName = 'x'.repeat(65);
    expect(() =>
      Testing.synthScope((scope) => {
        new ServiceAccountRole(scope, 'role', { ...PROPS, roleName });
      }),
    ).toThrow(`ServiceAccountRole role: roleName "${roleName}" is 65 characters; IAM allows 64: shorten the environment name (it prefixes the role name)`);
  });
});
