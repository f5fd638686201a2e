/**
 * The permission lists preflight checks are derived from the synthesized
 * stacks: every resource type the lab synthesizes must have an entry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { labConfig } from '../../../lib/config/schema';
import { readSynthDir } from '../../../lib/plumbing/terraform/synth-dir';
import { addLab } from '../../../lib/stacks/hoplab-app';
import { requiredPermissions, terraformTypes } from '../../../lib/commands/preflight/required-permissions';

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

describe('required permissions', () => {
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

  test('GIVEN the default lab WHEN the lists are derived THEN they hold what review found missing from the README role list', () => {
    const needs = requiredPermissions(synthStacks({}));
    expect(needs.gcp).toEqual(
      expect.arrayContaining(['iam.serviceAccounts.actAs', 'compute.firewalls.create', 'compute.networks.updatePolicy', 'resourcemanager.projects.setIamPolicy', 'container.ingresses.create']),
    );
    expect(needs.gcpApis).toEqual(['cloudresourcemanager.googleapis.com', 'compute.googleapis.com', 'container.googleapis.com', 'iam.googleapis.com', 'serviceusage.googleapis.com']);
    expect(needs.aws).toEqual(expect.arrayContaining(['iam:PassRole', 'eks:CreateCluster', 'ec2:CreateNatGateway', 'iam:CreateOpenIDConnectProvider', 'elasticloadbalancing:DescribeLoadBalancers']));
    expect(needs.aws.filter((a) => !/^(ec2|eks|iam|elasticloadbalancing|logs|sts|servicequotas):[A-Z]\w+$/.test(a))).toEqual([]);
  });

  test('GIVEN a stack with a resource type hoplab does not know WHEN mapped THEN it is reported, not silently unchecked', () => {
    const stack = { name: 'x-aws-cluster', file: 'x', json: { resource: { aws_vpc: {}, aws_shiny_new_thing: {} } } };
    expect(requiredPermissions([stack]).unmapped).toEqual(['resource.aws_shiny_new_thing']);
  });
});
