import { ClusterRoleBindingV1 } from '@cdktf/provider-kubernetes/lib/cluster-role-binding-v1';
import { ClusterRoleV1 } from '@cdktf/provider-kubernetes/lib/cluster-role-v1';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { RoleBindingV1 } from '@cdktf/provider-kubernetes/lib/role-binding-v1';
import { TerraformStack, Testing } from 'cdktf';
import { AttendeeRbac, AttendeeRbacProps } from '../../../lib/constructs/k8s/attendee-rbac';
import { kubernetesObjects } from '../../support/k8s-objects';
import { Synthesized } from '../../support/synth';

function synth(props: AttendeeRbacProps) {
  const stack = new TerraformStack(Testing.app(), 'test');
  new KubernetesProvider(stack, 'k8s', {});
  new AttendeeRbac(stack, 'attendee-rbac', props);
  const json = Testing.synth(stack);
  return { json, parsed: JSON.parse(json) as Synthesized };
}

const RBAC = 'rbac.authorization.k8s.io';
const ANN = { apiGroup: RBAC, kind: 'User', name: 'ann@example.com' } as const;

describe('AttendeeRbac', () => {
  test('GIVEN a Google account WHEN synthesized THEN it may view the cluster, edit in the app namespace only, and operate nodes: nothing else', () => {
    const { json, parsed } = synth({ subject: { kind: 'User', name: 'ann@example.com' }, namespace: 'hoplab' });
    const subject = [{ api_group: RBAC, kind: 'User', name: 'ann@example.com' }];
    expect(json).toHaveResourceWithProperties(ClusterRoleBindingV1, {
      metadata: expect.objectContaining({ name: 'hoplab-attendee-view' }),
      role_ref: { api_group: RBAC, kind: 'ClusterRole', name: 'view' },
      subject,
    });
    expect(json).toHaveResourceWithProperties(RoleBindingV1, {
      metadata: expect.objectContaining({ name: 'hoplab-attendee-edit', namespace: 'hoplab' }),
      role_ref: { api_group: RBAC, kind: 'ClusterRole', name: 'edit' },
      subject,
    });
    expect(json).toHaveResourceWithProperties(ClusterRoleBindingV1, {
      metadata: expect.objectContaining({ name: 'hoplab-attendee-nodes' }),
      role_ref: { api_group: RBAC, kind: 'ClusterRole', name: expect.stringMatching(/^\$\{kubernetes_cluster_role_v1\.[\w-]+\.metadata\[0\]\.name\}$/) },
      subject,
    });
    const roles = [...Object.values(parsed.resource.kubernetes_cluster_role_binding_v1), ...Object.values(parsed.resource.kubernetes_role_binding_v1)].map((b) => b.role_ref.name);
    expect(roles).toHaveLength(3);
    expect(roles).not.toContain('cluster-admin');
    expect(roles).not.toContain('admin');
  });

  test("GIVEN the node role WHEN synthesized THEN it holds exactly what kubectl get nodes, cordon and drain call (read from kubectl's drain helper)", () => {
    expect(synth({ subject: { kind: 'Group', name: 'hoplab-attendees' }, namespace: 'hoplab' }).json).toHaveResourceWithProperties(ClusterRoleV1, {
      metadata: expect.objectContaining({ name: 'hoplab-attendee-nodes' }),
      rule: [
        { api_groups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
        { api_groups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
        { api_groups: [''], resources: ['pods/eviction'], verbs: ['create'] },
        { api_groups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
      ],
    });
  });

  test('GIVEN an EKS group with viewAndEdit off (the access policies give those) WHEN synthesized THEN only the node role is bound, to the group', () => {
    const { json, parsed } = synth({ subject: { kind: 'Group', name: 'hoplab-attendees' }, namespace: 'hoplab', viewAndEdit: false });
    expect(Object.keys(parsed.resource.kubernetes_cluster_role_binding_v1)).toHaveLength(1);
    expect(parsed.resource.kubernetes_role_binding_v1).toBeUndefined();
    expect(json).toHaveResourceWithProperties(ClusterRoleBindingV1, { subject: [{ api_group: RBAC, kind: 'Group', name: 'hoplab-attendees' }] });
  });

  test('GIVEN the objects WHEN checked against the Kubernetes OpenAPI schema THEN each is a valid ClusterRole, ClusterRoleBinding or RoleBinding', () => {
    const objects = kubernetesObjects(synth({ subject: { kind: 'User', name: ANN.name }, namespace: 'hoplab' }).parsed);
    expect(objects.map((o) => o.object.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding', 'ClusterRoleBinding', 'RoleBinding']);
    for (const object of objects) expect(() => object.validate()).not.toThrow();
    expect(objects.find((o) => o.object.kind === 'RoleBinding')?.object.subjects).toEqual([ANN]);
  });

  test('GIVEN an attendee’s ServiceAccount WHEN synthesized THEN the three bindings name it in its namespace (the core group, no apiGroup), and the objects are valid', () => {
    const { parsed } = synth({ subject: { kind: 'ServiceAccount', name: 'hoplab-attendee', namespace: 'hoplab' }, namespace: 'hoplab' });
    const bindings = [...Object.values(parsed.resource.kubernetes_cluster_role_binding_v1), ...Object.values(parsed.resource.kubernetes_role_binding_v1)];
    expect(bindings.map((b) => [b.metadata.name, b.role_ref.name.replace(/^\$\{.*\}$/, 'hoplab-attendee-nodes'), b.subject]).sort()).toEqual(
      [
        ['hoplab-attendee-edit', 'edit', [{ kind: 'ServiceAccount', name: 'hoplab-attendee', namespace: 'hoplab' }]],
        ['hoplab-attendee-nodes', 'hoplab-attendee-nodes', [{ kind: 'ServiceAccount', name: 'hoplab-attendee', namespace: 'hoplab' }]],
        ['hoplab-attendee-view', 'view', [{ kind: 'ServiceAccount', name: 'hoplab-attendee', namespace: 'hoplab' }]],
      ].sort(),
    );
    const objects = kubernetesObjects(parsed);
    for (const object of objects) expect(() => object.validate()).not.toThrow();
    expect(objects.find((o) => o.object.kind === 'RoleBinding')?.object.subjects).toEqual([{ kind: 'ServiceAccount', name: 'hoplab-attendee', namespace: 'hoplab' }]);
  });
});
