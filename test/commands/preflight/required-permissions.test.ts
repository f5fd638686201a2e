/**
 * The permission lists preflight checks are derived from the synthesized
 * stacks: every resource type the lab synthesizes must have an entry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { labConfig } from '../../../lib/config/schema';
import { readSynthDir } from '../../../lib/lab/files/synth-dir';
import { addLab } from '../../../lib/stacks/hoplab-app';
import { requiredPermissions, RESOURCE_NEEDS, terraformTypes } from '../../../lib/commands/preflight/required-permissions';

function synthStacks(input: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-perm-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, labConfig.parse(input));
    app.synth();
    return readSynthDir(dir).clouds.flatMap((c) => [c.cluster, c.lb].filter((s) => s !== undefined));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What AWS's own documentation says the caller needs, per resource type: the
 * oracle the table is checked against by content, not only for coverage. Each
 * action names where it is documented.
 */
const DOCUMENTED_AWS_NEEDS: Readonly<Record<string, readonly (readonly [action: string, source: string])[]>> = {
  'resource.aws_eks_node_group': [
    ['eks:CreateNodegroup', 'EKS API reference, CreateNodegroup'],
    ['eks:DescribeNodegroup', 'EKS API reference, DescribeNodegroup (the provider waits for ACTIVE)'],
    ['eks:DeleteNodegroup', 'EKS API reference, DeleteNodegroup'],
    ['iam:PassRole', 'EKS User Guide, "Amazon EKS node IAM role": the node role is passed to the node group (CreateNodegroup nodeRole)'],
    [
      'ec2:RunInstances',
      'EC2 Auto Scaling User Guide, "Launch template support": whoever creates or updates an Auto Scaling group from a launch template version needs ec2:RunInstances; a managed node group with hoplab\'s launch template is such a group',
    ],
    ['iam:CreateServiceLinkedRole', 'EKS User Guide, "Using roles for Amazon EKS node groups": AWSServiceRoleForAmazonEKSNodegroup is created on the first CreateNodegroup'],
  ],
  'resource.aws_eks_cluster': [
    ['eks:CreateCluster', 'EKS API reference, CreateCluster'],
    ['iam:PassRole', 'EKS User Guide, "Amazon EKS cluster IAM role": the cluster role is passed (CreateCluster roleArn)'],
  ],
  'resource.aws_launch_template': [
    ['ec2:CreateLaunchTemplate', 'EC2 User Guide, "IAM permissions required for Amazon EC2 launch templates"'],
    ['ec2:CreateTags', 'same page: tags on CreateLaunchTemplate need ec2:CreateTags'],
  ],
};

describe('required permissions', () => {
  test.each(Object.entries(DOCUMENTED_AWS_NEEDS))('GIVEN %s WHEN its entry is read THEN it holds every action AWS documents for it (content, not only coverage)', (type, documented) => {
    const listed = RESOURCE_NEEDS[type]?.any?.aws ?? RESOURCE_NEEDS[type]?.aws?.aws ?? [];
    expect(documented.map(([action]) => action).filter((action) => !listed.includes(action))).toEqual([]);
  });

  test('GIVEN the default lab WHEN the AWS list is derived THEN it holds every documented action of the node group, cluster and launch template', () => {
    const derived = requiredPermissions(synthStacks({})).aws;
    const documented = [...new Set(Object.values(DOCUMENTED_AWS_NEEDS).flatMap((needs) => needs.map(([action]) => action)))];
    expect(documented.filter((action) => !derived.includes(action))).toEqual([]);
  });

  test('GIVEN the default lab WHEN its synthesized resource types are mapped THEN every type has an entry', () => {
    const stacks = synthStacks({});
    const types = [...new Set(stacks.flatMap(terraformTypes))].sort();
    expect(types.length).toBeGreaterThan(20);
    expect(requiredPermissions(stacks).unmapped).toEqual([]);
  });

  test('GIVEN the optional pieces (cluster admins, access-token credentials) WHEN mapped THEN they have entries too', () => {
    const stacks = synthStacks({ aws: { clusterAdminArns: ['arn:aws:iam::123456789012:role/ci'] }, gcp: { kubernetesCredentials: 'access-token' } });
    const types = stacks.flatMap(terraformTypes);
    expect(types).toEqual(expect.arrayContaining(['resource.aws_eks_access_entry', 'resource.aws_eks_access_policy_association', 'data.google_client_config']));
    expect(requiredPermissions(stacks).unmapped).toEqual([]);
  });

  test('GIVEN attendees with cloud identities WHEN mapped THEN their access entries, project role and RBAC have entries too', () => {
    const stacks = synthStacks({ attendees: [{ name: 'ann', aws: 'arn:aws:iam::123456789012:role/ann', gcp: 'user:ann@example.com' }] });
    const types = stacks.flatMap(terraformTypes);
    expect(types).toEqual(
      expect.arrayContaining([
        'resource.aws_eks_access_entry',
        'resource.google_project_iam_member',
        'resource.kubernetes_cluster_role_v1',
        'resource.kubernetes_cluster_role_binding_v1',
        'resource.kubernetes_role_binding_v1',
      ]),
    );
    const needs = requiredPermissions(stacks);
    expect(needs.unmapped).toEqual([]);
    expect(needs.gcp).toEqual(expect.arrayContaining(['container.clusterRoleBindings.create', 'container.roleBindings.create', 'container.clusterRoles.bind', 'container.clusterRoles.escalate']));
  });

  test('GIVEN attendees without a cloud identity WHEN mapped THEN their ServiceAccounts and its RBAC have entries too (preflight warned "not checked" before)', () => {
    const stacks = synthStacks({ attendees: ['ann', 'bob'] });
    expect(stacks.flatMap(terraformTypes)).toEqual(expect.arrayContaining(['resource.kubernetes_service_account_v1']));
    const needs = requiredPermissions(stacks);
    expect(needs.unmapped).toEqual([]);
    expect(needs.gcp).toEqual(expect.arrayContaining(['container.serviceAccounts.create', 'container.serviceAccounts.delete']));
  });

  test.each([
    ['attendees without a Google identity (handout mints their tokens on GKE)', { attendees: ['ann', { name: 'bob', aws: 'arn:aws:iam::123456789012:role/bob' }] }, true],
    ['attendees with a Google identity only (their kubeconfigs use gke-gcloud-auth-plugin)', { attendees: [{ name: 'ann', gcp: 'user:ann@example.com' }] }, false],
    ['no attendees', {}, false],
  ])('GIVEN %s WHEN the GCP list is derived THEN container.serviceAccounts.createToken is asked exactly where handout will mint a token: %#', (_name, config, asked) => {
    expect(requiredPermissions(synthStacks(config)).gcp.includes('container.serviceAccounts.createToken')).toBe(asked);
  });

  test('GIVEN the default lab WHEN the lists are derived THEN they hold what review found missing from the README role list', () => {
    const needs = requiredPermissions(synthStacks({}));
    expect(needs.gcp).toEqual(
      expect.arrayContaining(['iam.serviceAccounts.actAs', 'compute.firewalls.create', 'compute.networks.updatePolicy', 'resourcemanager.projects.setIamPolicy', 'container.ingresses.create']),
    );
    expect(needs.gcpApis).toEqual(['cloudresourcemanager.googleapis.com', 'compute.googleapis.com', 'container.googleapis.com', 'iam.googleapis.com', 'serviceusage.googleapis.com']);
    expect(needs.aws).toEqual(expect.arrayContaining(['iam:PassRole', 'eks:CreateCluster', 'ec2:CreateNatGateway', 'iam:CreateOpenIDConnectProvider', 'elasticloadbalancing:DescribeLoadBalancers']));
    expect(needs.aws.filter((a) => !/^(ec2|eks|iam|elasticloadbalancing|logs|sts|servicequotas):[A-Z]\w+$/.test(a))).toEqual([]);
  });

  test('GIVEN app.allowedSourceCidrs narrowed WHEN mapped THEN the Cloud Armor policy has an entry, and the deployer may create, read, update and delete it', () => {
    const stacks = synthStacks({ app: { allowedSourceCidrs: ['203.0.113.0/24'] } });
    expect(stacks.flatMap(terraformTypes)).toContain('resource.google_compute_security_policy');
    const needs = requiredPermissions(stacks);
    expect(needs.unmapped).toEqual([]);
    expect(needs.gcp).toEqual(
      expect.arrayContaining(['compute.securityPolicies.create', 'compute.securityPolicies.get', 'compute.securityPolicies.update', 'compute.securityPolicies.delete', 'compute.globalOperations.get']),
    );
  });

  test('GIVEN the default lab WHEN the GCP list is derived THEN of Cloud Armor it asks only what the leftover check lists', () => {
    expect(requiredPermissions(synthStacks({})).gcp.filter((p) => p.startsWith('compute.securityPolicies.'))).toEqual(['compute.securityPolicies.list']);
  });

  test('GIVEN a stack with a resource type hoplab does not know WHEN mapped THEN it is reported, not silently unchecked', () => {
    const stack = { name: 'x-aws-cluster', file: 'x', json: { resource: { aws_vpc: {}, aws_shiny_new_thing: {} } } };
    expect(requiredPermissions([stack]).unmapped).toEqual(['resource.aws_shiny_new_thing']);
  });
});
