import { DataAwsCallerIdentity } from '@cdktf/provider-aws/lib/data-aws-caller-identity';
import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksAccessPolicyAssociation } from '@cdktf/provider-aws/lib/eks-access-policy-association';
import { Testing } from 'cdktf';
import { EksAttendeeAccess, EksAttendeeAccessProps } from '../../../lib/constructs/aws/eks-attendee-access';
import { Synthesized } from '../../support/synth';

const PROPS: EksAttendeeAccessProps = { attendee: 'ann', clusterName: 'ann-eks', principalArn: 'arn:aws:iam::123456789012:role/workshop/ann', namespace: 'hoplab' };

function synth(props: Partial<EksAttendeeAccessProps> = {}, withDeployer = false) {
  const json = Testing.synthScope((scope) => {
    const deployerArn = withDeployer ? new DataAwsCallerIdentity(scope, 'caller').arn : undefined;
    new EksAttendeeAccess(scope, 'attendee-access', { ...PROPS, ...(deployerArn ? { deployerArn } : {}), ...props });
  });
  return { json, parsed: JSON.parse(json) as Synthesized };
}

describe('EksAttendeeAccess', () => {
  test('GIVEN a role with a path WHEN synthesized THEN one standard access entry names it, tagged with the attendee', () => {
    expect(synth().json).toHaveResourceWithProperties(EksAccessEntry, {
      cluster_name: 'ann-eks',
      principal_arn: 'arn:aws:iam::123456789012:role/workshop/ann',
      type: 'STANDARD',
      tags: { 'hoplab-attendee': 'ann' },
    });
  });

  test('GIVEN the entry WHEN synthesized THEN it has View at cluster scope and Edit scoped to the namespace, and no admin policy', () => {
    const { json, parsed } = synth();
    const entry = Object.keys(parsed.resource.aws_eks_access_entry)[0];
    const principal = `\${aws_eks_access_entry.${entry}.principal_arn}`;
    expect(json).toHaveResourceWithProperties(EksAccessPolicyAssociation, {
      cluster_name: 'ann-eks',
      principal_arn: principal,
      policy_arn: 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy',
      access_scope: { type: 'cluster' },
    });
    expect(json).toHaveResourceWithProperties(EksAccessPolicyAssociation, {
      cluster_name: 'ann-eks',
      principal_arn: principal,
      policy_arn: 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy',
      access_scope: { type: 'namespace', namespaces: ['hoplab'] },
    });
    expect(Object.values(parsed.resource.aws_eks_access_policy_association).map((a) => a.policy_arn)).toHaveLength(2);
  });

  test('GIVEN Kubernetes groups WHEN synthesized THEN the entry maps the attendee to them (for the node role), and to none by default', () => {
    expect(synth({ kubernetesGroups: ['hoplab-attendees'] }).json).toHaveResourceWithProperties(EksAccessEntry, { kubernetes_groups: ['hoplab-attendees'] });
    expect(Object.values(synth().parsed.resource.aws_eks_access_entry)[0].kubernetes_groups).toBeUndefined();
  });

  test('GIVEN the deploying identity WHEN synthesized THEN the entry is refused at plan when the attendee is that identity (one access entry per principal)', () => {
    const { parsed } = synth({}, true);
    expect(Object.values(parsed.resource.aws_eks_access_entry)[0].lifecycle).toEqual({
      precondition: [
        {
          condition: expect.stringMatching(/^\$\{\("arn:aws:iam::123456789012:role\/workshop\/ann" != data\.aws_caller_identity\.\w+\.arn\)\}$/),
          error_message:
            "attendee ann's aws identity arn:aws:iam::123456789012:role/workshop/ann is the identity that deploys, cluster admin already (its own access entry): give the attendee an identity of their own",
        },
      ],
    });
    expect(Object.values(synth().parsed.resource.aws_eks_access_entry)[0].lifecycle).toBeUndefined();
  });

  test('GIVEN an STS session ARN WHEN constructed THEN it throws with the role ARN to use instead', () => {
    expect(() => synth({ principalArn: 'arn:aws:sts::123456789012:assumed-role/ann/session' })).toThrow(
      'EksAttendeeAccess attendee-access: principalArn "arn:aws:sts::123456789012:assumed-role/ann/session" is an STS assumed-role (session) ARN, which EKS access entries refuse; use the role\'s own ARN, "arn:aws:iam::123456789012:role/ann"',
    );
  });
});
