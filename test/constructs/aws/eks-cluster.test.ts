import { CloudwatchLogGroup } from '@cdktf/provider-aws/lib/cloudwatch-log-group';
import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { DataAwsIamSessionContext } from '@cdktf/provider-aws/lib/data-aws-iam-session-context';
import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksAccessPolicyAssociation } from '@cdktf/provider-aws/lib/eks-access-policy-association';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { IamOpenidConnectProvider } from '@cdktf/provider-aws/lib/iam-openid-connect-provider';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { Testing } from 'cdktf';
import { EKS_VERSIONS } from '../../../lib/model/versions';
import { EksCluster, EksClusterProps } from '../../../lib/constructs/aws/eks-cluster';

const PROPS: EksClusterProps = { clusterName: 'lab-eks', kubernetesVersion: '1.34', subnetIds: ['subnet-a', 'subnet-b'] };

function synth(props: Partial<EksClusterProps> = {}) {
  const json = Testing.synthScope((scope) => {
    new EksCluster(scope, 'eks', { ...PROPS, ...props });
  });
  return { json, parsed: JSON.parse(json) as { resource: Record<string, Record<string, Record<string, unknown>>> } };
}

describe('EksCluster', () => {
  test.each(EKS_VERSIONS.map((v) => [v]))('GIVEN Kubernetes %s WHEN synthesized THEN the cluster runs that version', (version) => {
    expect(synth({ kubernetesVersion: version }).json).toHaveResourceWithProperties(EksClusterResource, { name: 'lab-eks', version });
  });

  test('GIVEN endpoint CIDRs WHEN synthesized THEN the public endpoint is limited to them and nodes use the private endpoint', () => {
    expect(synth({ endpointPublicAccessCidrs: ['203.0.113.0/24'] }).json).toHaveResourceWithProperties(EksClusterResource, {
      vpc_config: { subnet_ids: ['subnet-a', 'subnet-b'], endpoint_private_access: true, endpoint_public_access: true, public_access_cidrs: ['203.0.113.0/24'] },
    });
  });

  test('GIVEN no endpoint CIDRs WHEN synthesized THEN the public endpoint is open, as EKS defaults', () => {
    expect(synth().json).toHaveResourceWithProperties(EksClusterResource, { vpc_config: expect.objectContaining({ public_access_cidrs: ['0.0.0.0/0'] }) });
  });

  test("GIVEN the cluster WHEN synthesized THEN access entries are on and the creator is NOT made admin behind Terraform's back", () => {
    expect(synth().json).toHaveResourceWithProperties(EksClusterResource, {
      access_config: { authentication_mode: 'API_AND_CONFIG_MAP', bootstrap_cluster_creator_admin_permissions: false },
    });
  });

  test('GIVEN the cluster WHEN synthesized THEN api, audit and authenticator logs go to a tagged log group with a short retention, created before the cluster', () => {
    const { json, parsed } = synth();
    expect(json).toHaveResourceWithProperties(EksClusterResource, { enabled_cluster_log_types: ['api', 'audit', 'authenticator'] });
    expect(json).toHaveResourceWithProperties(CloudwatchLogGroup, { name: '/aws/eks/lab-eks/cluster', retention_in_days: 3, tags: { Name: 'lab-eks-control-plane' } });
    const cluster = Object.values(parsed.resource.aws_eks_cluster)[0] as { depends_on: string[] };
    expect(cluster.depends_on).toEqual(expect.arrayContaining([expect.stringMatching(/^aws_cloudwatch_log_group\./)]));
  });

  test('GIVEN the cluster role WHEN synthesized THEN only EKS can assume it and it carries AmazonEKSClusterPolicy until the cluster is gone', () => {
    const { json, parsed } = synth();
    expect(json).toHaveDataSourceWithProperties(DataAwsIamPolicyDocument, {
      statement: [{ effect: 'Allow', actions: ['sts:AssumeRole', 'sts:TagSession'], principals: [{ type: 'Service', identifiers: ['eks.amazonaws.com'] }] }],
    });
    expect(json).toHaveResourceWithProperties(IamRole, { name: 'lab-eks-cluster' });
    expect(json).toHaveResourceWithProperties(IamRolePolicyAttachment, { policy_arn: 'arn:aws:iam::aws:policy/AmazonEKSClusterPolicy' });
    const cluster = Object.values(parsed.resource.aws_eks_cluster)[0] as { depends_on: string[] };
    expect(cluster.depends_on).toEqual([expect.stringMatching(/^aws_iam_role_policy_attachment\./), expect.stringMatching(/^aws_cloudwatch_log_group\./)]);
  });

  test('GIVEN the cluster WHEN synthesized THEN an OIDC provider for its issuer trusts sts.amazonaws.com', () => {
    expect(synth().json).toHaveResourceWithProperties(IamOpenidConnectProvider, {
      client_id_list: ['sts.amazonaws.com'],
      url: expect.stringMatching(/^\$\{aws_eks_cluster\.\w+\.identity\[0\]\.oidc\[0\]\.issuer\}$/),
    });
  });

  test.each([
    [false, undefined],
    [true, { ignore_changes: ['access_config'] }],
  ])('GIVEN emulated=%s WHEN synthesized THEN lifecycle is %j', (emulated, lifecycle) => {
    const cluster = Object.values(synth({ emulated }).parsed.resource.aws_eks_cluster)[0];
    expect(cluster.lifecycle).toEqual(lifecycle);
  });
});

describe('EksCluster admin access entries', () => {
  const CI = 'arn:aws:iam::123456789012:role/workshop-ci';
  const HOST = 'arn:aws:iam::123456789012:user/jane';

  test('GIVEN admin principals WHEN synthesized THEN each gets an access entry with the cluster admin policy at cluster scope', () => {
    const { json, parsed } = synth({ adminPrincipalArns: [CI, HOST] });
    for (const principal of [CI, HOST]) {
      expect(json).toHaveResourceWithProperties(EksAccessEntry, { principal_arn: principal, type: 'STANDARD', cluster_name: expect.stringContaining('aws_eks_cluster.') });
    }
    expect(json).toHaveResourceWithProperties(EksAccessPolicyAssociation, {
      policy_arn: 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy',
      access_scope: { type: 'cluster' },
    });
    expect(Object.keys(parsed.resource.aws_eks_access_entry)).toEqual([
      expect.stringMatching(/^eks_admin-role-workshop-ci_/),
      expect.stringMatching(/^eks_admin-user-jane_/),
      expect.stringMatching(/^eks_deployer-admin_/),
    ]);
    expect(Object.keys(parsed.resource.aws_eks_access_policy_association)).toHaveLength(3);
  });

  test('GIVEN no admin principals WHEN synthesized THEN the deploying identity gets an explicit admin entry, its IAM role ARN even when it is an assumed-role session', () => {
    const { json, parsed } = synth();
    expect(json).toHaveDataSourceWithProperties(DataAwsIamSessionContext, { arn: expect.stringMatching(/^\$\{data\.aws_caller_identity\.\w+\.arn\}$/) });
    expect(json).toHaveResourceWithProperties(EksAccessEntry, { principal_arn: expect.stringMatching(/^\$\{data\.aws_iam_session_context\.\w+\.issuer_arn\}$/), type: 'STANDARD' });
    expect(json).toHaveResourceWithProperties(EksAccessPolicyAssociation, {
      principal_arn: expect.stringMatching(/^\$\{aws_eks_access_entry\.eks_deployer-admin_\w+\.principal_arn\}$/),
      policy_arn: 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy',
      access_scope: { type: 'cluster' },
    });
    expect(Object.keys(parsed.resource.aws_eks_access_entry)).toHaveLength(1);
  });

  test('GIVEN an admin principal WHEN synthesized THEN a plan refuses it if it is the deploying identity (EKS would answer ResourceInUseException)', () => {
    const { parsed } = synth({ adminPrincipalArns: [CI] });
    const [, entry] = Object.entries(parsed.resource.aws_eks_access_entry).find(([id]) => id.startsWith('eks_admin-role-workshop-ci_'))!;
    expect(entry.lifecycle).toEqual({
      precondition: [
        {
          condition: expect.stringMatching(/^\$\{\("arn:aws:iam::123456789012:role\/workshop-ci" != data\.aws_iam_session_context\.\w+\.issuer_arn\)\}$/),
          error_message: `aws.clusterAdminArns lists ${CI}, the identity that deploys; it is made cluster admin already (its own access entry): remove it from aws.clusterAdminArns`,
        },
      ],
    });
  });

  test('GIVEN the emulator WHEN synthesized THEN no access entries (moto has no API for them) and no caller lookups', () => {
    const { parsed } = synth({ emulated: true }) as { parsed: { resource: Record<string, unknown>; data?: Record<string, unknown> } };
    expect(parsed.resource.aws_eks_access_entry).toBeUndefined();
    expect(parsed.data?.aws_iam_session_context).toBeUndefined();
  });

  test.each([
    ['no admin principals', [], 2],
    ['two admin principals', [CI, HOST], 6],
  ])('GIVEN %s WHEN constructed THEN adminAccess lists every admin access entry and association (what Kubernetes resources must come after)', (_given, admins, count) => {
    const json = Testing.synthScope((scope) => {
      const cluster = new EksCluster(scope, 'eks', { ...PROPS, adminPrincipalArns: admins });
      // Something that talks to the cluster, ordered by the list.
      new CloudwatchLogGroup(scope, 'talker', { name: 'talker', dependsOn: cluster.adminAccess });
    });
    const parsed = JSON.parse(json) as { resource: Record<string, Record<string, { depends_on?: string[] }>> };
    const all = ['aws_eks_access_entry', 'aws_eks_access_policy_association'].flatMap((type) => Object.keys(parsed.resource[type]).map((name) => `${type}.${name}`));
    expect(all).toHaveLength(count);
    expect([...parsed.resource.aws_cloudwatch_log_group.talker.depends_on!].sort()).toEqual(all.sort());
  });

  test('GIVEN the emulator WHEN constructed THEN adminAccess is empty (no access entries there)', () => {
    let cluster: EksCluster | undefined;
    Testing.synthScope((scope) => {
      cluster = new EksCluster(scope, 'eks', { ...PROPS, emulated: true });
    });
    expect(cluster!.adminAccess).toEqual([]);
  });
});

describe('EksCluster self-managed add-ons', () => {
  const cluster = (props: Partial<EksClusterProps>) => Object.values(synth(props).parsed.resource.aws_eks_cluster)[0];

  test('GIVEN bootstrapSelfManagedAddons false WHEN synthesized THEN EKS installs no vpc-cni, kube-proxy or CoreDNS of its own', () => {
    expect(cluster({ bootstrapSelfManagedAddons: false }).bootstrap_self_managed_addons).toBe(false);
  });

  test.each([[undefined], [true]])('GIVEN bootstrapSelfManagedAddons %s WHEN synthesized THEN the field is left to its default (no diff on existing clusters)', (value) => {
    expect(cluster({ bootstrapSelfManagedAddons: value }).bootstrap_self_managed_addons).toBeUndefined();
  });
});
