/**
 * Attendees get their own lab, and only theirs: proved over the synthesized
 * stacks of a workshop of three attendees with cloud identities (and a plain
 * one), as Terraform would apply them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Testing } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { EKS_ACCESS_POLICIES, eksAccessPolicyArn, GKE_ATTENDEE_PROJECT_ROLE, GKE_IN_CLUSTER_PROJECT_ROLES } from '../../lib/model/identities';
import { addLab } from '../../lib/stacks/hoplab-app';
import { AwsClusterStack } from '../../lib/stacks/aws-cluster-stack';
import { kubernetesObjects } from '../support/k8s-objects';
import { Json, Synthesized } from '../support/synth';

const ATTENDEES = [
  { name: 'ann', aws: 'arn:aws:iam::123456789012:role/workshop/ann', gcp: 'user:ann@example.com' },
  { name: 'bob', aws: 'arn:aws:iam::123456789012:user/bob', gcp: 'serviceAccount:bob@acme-lab.iam.gserviceaccount.com' },
  { name: 'cy', aws: 'arn:aws:iam::210987654321:role/cy', gcp: 'user:cy@example.org' },
] as const;
const HOST_CI = 'arn:aws:iam::123456789012:role/workshop-ci';
const CONFIG = { attendees: [...ATTENDEES, 'dee'], aws: { clusterAdminArns: [HOST_CI] }, gcp: { project: 'acme-lab' } };

/** Every identity string of an attendee, as the stacks may write it: ARN, IAM member, RBAC user name. */
const identityStrings = (a: (typeof ATTENDEES)[number]) => [a.aws, a.gcp, a.gcp.replace(/^[^:]+:/, '')];

function synthWorkshop(raw: Record<string, unknown> = CONFIG): Record<string, Synthesized> {
  const app = new App({ outdir: Testing.app().outdir, stackTraces: false });
  const envs = addLab(app, validConfig(raw, 'test'));
  app.synth();
  const stacks: Record<string, Synthesized> = {};
  for (const env of envs) {
    for (const stack of [env.awsCluster, env.awsLb, env.gcpCluster, env.gcpLb]) {
      stacks[stack.node.id] = JSON.parse(readFileSync(join(app.outdir, 'stacks', stack.node.id, 'cdk.tf.json'), 'utf8')) as Synthesized;
    }
  }
  return stacks;
}

const resources = (stack: Synthesized, type: string): [string, Json][] => Object.entries(stack.resource?.[type] ?? {});
/** A `metadata.name` reference (`${kubernetes_namespace_v1.x.metadata[0].name}`) read as the name it stands for. */
function literal(stack: Synthesized, value: string | undefined): string | undefined {
  const reference = /^\$\{(\w+)\.([\w-]+)\.metadata\[0\]\.name\}$/.exec(value ?? '');
  return reference ? stack.resource[reference[1]][reference[2]].metadata.name : value;
}
const envOf = (stack: string) => stack.replace(/-(aws|gcp)-(cluster|lb)$/, '');

describe('attendee isolation over the synthesized workshop', () => {
  const stacks = synthWorkshop();

  test('GIVEN three attendees with identities WHEN synthesized THEN no stack names another attendee’s identity: in access entries, IAM bindings, RBAC or anywhere else', () => {
    const leaks: string[] = [];
    for (const [name, stack] of Object.entries(stacks)) {
      const text = JSON.stringify(stack).toLowerCase();
      for (const attendee of ATTENDEES.filter((a) => a.name !== envOf(name))) {
        for (const identity of identityStrings(attendee)) if (text.includes(identity.toLowerCase())) leaks.push(`${name} names ${attendee.name}'s ${identity}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  test.each(ATTENDEES.map((a) => [a.name, a]))(
    'GIVEN attendee %s WHEN synthesized THEN each of their four stacks grants them exactly their own access, and the plain attendee’s none',
    (_name, attendee) => {
      const own = (kind: string) => stacks[`${attendee.name}-${kind}`];
      const entries = resources(own('aws-cluster'), 'aws_eks_access_entry').filter(([, e]) => e.principal_arn === attendee.aws);
      expect(entries.map(([, e]) => e.kubernetes_groups)).toEqual([['hoplab-attendees']]);
      expect(
        resources(own('gcp-cluster'), 'google_project_iam_member')
          .filter(([, m]) => m.member === attendee.gcp)
          .map(([, m]) => m.role),
      ).toEqual([GKE_ATTENDEE_PROJECT_ROLE]);
      const email = attendee.gcp.replace(/^[^:]+:/, '');
      const subjects = [...resources(own('gcp-lb'), 'kubernetes_cluster_role_binding_v1'), ...resources(own('gcp-lb'), 'kubernetes_role_binding_v1')]
        .filter(([, b]) => b.subject.some((s: Json) => s.name === email))
        .map(([, b]) => `${literal(own('gcp-lb'), b.metadata.namespace) ?? '(cluster)'} ${literal(own('gcp-lb'), b.role_ref.name)}`)
        .sort();
      expect(subjects).toEqual(['(cluster) hoplab-attendee-nodes', '(cluster) view', 'hoplab edit']);
      const dee = JSON.stringify([stacks['dee-aws-cluster'], stacks['dee-aws-lb'], stacks['dee-gcp-cluster'], stacks['dee-gcp-lb']]);
      expect(['hoplab-attendee', 'roles/container.clusterViewer', 'AmazonEKSViewPolicy'].filter((word) => dee.includes(word))).toEqual([]);
    },
  );

  test('GIVEN every access entry WHEN its policies are read THEN attendees get View (cluster) and Edit (namespace hoplab) only; admin policies go to the deployer and the host’s admins only', () => {
    const attendeeArns: string[] = ATTENDEES.map((a) => a.aws);
    for (const [name, stack] of Object.entries(stacks).filter(([n]) => n.endsWith('-aws-cluster'))) {
      const principals = new Map(resources(stack, 'aws_eks_access_entry').map(([id, e]) => [`\${aws_eks_access_entry.${id}.principal_arn}`, String(e.principal_arn)]));
      const grants = resources(stack, 'aws_eks_access_policy_association').map(([, a]) => {
        const principal = principals.get(a.principal_arn) ?? a.principal_arn;
        const who = attendeeArns.includes(principal) ? 'attendee' : principal === HOST_CI ? 'host-ci' : principal.includes('aws_iam_session_context') ? 'deployer' : principal;
        return `${who} ${a.policy_arn.split('/').pop()} ${a.access_scope.type}${a.access_scope.namespaces ? `:${a.access_scope.namespaces.join(',')}` : ''}`;
      });
      const expected = ['deployer AmazonEKSClusterAdminPolicy cluster', 'host-ci AmazonEKSClusterAdminPolicy cluster'];
      if (envOf(name) !== 'dee') expected.push('attendee AmazonEKSEditPolicy namespace:hoplab', 'attendee AmazonEKSViewPolicy cluster');
      expect([name, grants.sort()]).toEqual([name, expected.sort()]);
    }
  });

  test('GIVEN every stack WHEN its RBAC and IAM are read THEN nothing is cluster-admin for anyone, no attendee gets a project role that reaches inside clusters, and no IAM grant is authoritative', () => {
    const found: string[] = [];
    for (const [name, stack] of Object.entries(stacks)) {
      for (const type of ['kubernetes_cluster_role_binding_v1', 'kubernetes_role_binding_v1']) {
        for (const [, binding] of resources(stack, type)) if (['cluster-admin', 'admin'].includes(binding.role_ref.name)) found.push(`${name}: ${type} to ${binding.role_ref.name}`);
      }
      for (const [, member] of resources(stack, 'google_project_iam_member')) {
        if ((GKE_IN_CLUSTER_PROJECT_ROLES as readonly string[]).includes(member.role)) found.push(`${name}: ${member.member} gets ${member.role}`);
      }
      for (const type of ['google_project_iam_binding', 'google_project_iam_policy']) if (stack.resource?.[type]) found.push(`${name}: authoritative ${type}`);
      for (const object of kubernetesObjects(stack).filter((o) => String(o.object.kind).includes('Role'))) expect(() => object.validate()).not.toThrow();
    }
    expect(found).toEqual([]);
    const attendeeRoles = Object.values(stacks).flatMap((s) =>
      resources(s, 'google_project_iam_member')
        .filter(([, m]) => ATTENDEES.some((a) => a.gcp === m.member))
        .map(([, m]) => m.role),
    );
    expect(new Set(attendeeRoles)).toEqual(new Set([GKE_ATTENDEE_PROJECT_ROLE]));
  });

  test('GIVEN the host WHEN the cluster stacks are read THEN the deploying identity and aws.clusterAdminArns keep cluster admin in every environment, in the admin entries apart from the attendee’s', () => {
    for (const [name, stack] of Object.entries(stacks).filter(([n]) => n.endsWith('-aws-cluster'))) {
      const admin = resources(stack, 'aws_eks_access_policy_association').filter(([, a]) => a.policy_arn === eksAccessPolicyArn(EKS_ACCESS_POLICIES.clusterAdmin));
      expect([name, admin.map(([id]) => id.replace(/_[0-9A-F]{8}$/, '')).sort()]).toEqual([name, ['eks_admin-role-workshop-ci-policy', 'eks_deployer-admin-policy']]);
      const attendeeEntries = resources(stack, 'aws_eks_access_entry').filter(([id]) => id.startsWith('attendee-access'));
      expect([name, attendeeEntries.length]).toEqual([name, envOf(name) === 'dee' ? 0 : 1]);
    }
  });

  test('GIVEN an attendee identity WHEN the cluster stack is synthesized THEN the attendee’s entry is refused at plan if it is the deploying identity', () => {
    const [, entry] = resources(stacks['ann-aws-cluster'], 'aws_eks_access_entry').find(([id]) => id.startsWith('attendee-access'))!;
    expect(entry.lifecycle.precondition[0].condition).toMatch(/^\$\{\("arn:aws:iam::123456789012:role\/workshop\/ann" != data\.aws_iam_session_context\.\w+\.issuer_arn\)\}$/);
  });

  test('GIVEN the EKS attendee WHEN the lb stack is synthesized THEN only the node role is bound in RBAC, to the access entry’s group (view and edit come from the access policies)', () => {
    const bindings = resources(stacks['ann-aws-lb'], 'kubernetes_cluster_role_binding_v1').map(([, b]) => [b.metadata.name, b.subject]);
    expect(bindings).toEqual([['hoplab-attendee-nodes', [{ api_group: 'rbac.authorization.k8s.io', kind: 'Group', name: 'hoplab-attendees' }]]]);
    expect(stacks['ann-aws-lb'].resource.kubernetes_role_binding_v1).toBeUndefined();
  });

  test('GIVEN the GKE attendee WHEN the lb stack is synthesized THEN the edit RoleBinding is in the app namespace, created after it and destroyed before it', () => {
    const [, binding] = resources(stacks['ann-gcp-lb'], 'kubernetes_role_binding_v1')[0];
    expect(binding.metadata.namespace).toMatch(/^\$\{kubernetes_namespace_v1\.[\w-]+\.metadata\[0\]\.name\}$/);
  });

  test('GIVEN an attendee identity and the emulator WHEN the cluster stack is synthesized THEN no attendee entry is made (moto has no access entry API), as for the deployer', () => {
    const stack = new AwsClusterStack(Testing.app(), 'ann-aws-cluster', {
      config: { ...validConfig({ name: 'ann' }, 'test'), attendee: ATTENDEES[0] },
      emulator: { endpoint: 'http://127.0.0.1:5000' },
    });
    expect((JSON.parse(Testing.synth(stack)) as Synthesized).resource.aws_eks_access_entry).toBeUndefined();
  });
});
