import { ClusterRoleBindingV1 } from '@cdktf/provider-kubernetes/lib/cluster-role-binding-v1';
import { ClusterRoleV1 } from '@cdktf/provider-kubernetes/lib/cluster-role-v1';
import { RoleBindingV1 } from '@cdktf/provider-kubernetes/lib/role-binding-v1';
import { Construct } from 'constructs';

/** The ClusterRole that lets an attendee see, cordon and drain their own cluster's nodes. */
export const ATTENDEE_NODES_ROLE = 'hoplab-attendee-nodes';

/**
 * What `kubectl get nodes`, `cordon`, `uncordon` and `drain` call, and no
 * more (read from kubectl's drain helper, k8s.io/kubectl pkg/drain):
 * get/list/watch nodes, patch a node's `spec.unschedulable` (cordon), list
 * the Pods on it across namespaces, look up DaemonSets (drain skips their
 * Pods), evict Pods (the Eviction API, which respects PodDisruptionBudgets)
 * and watch them go. Nothing here reaches inside a node: the handout's node-level
 * exercise reads the datapath inspector's log (`kubectl logs -n hoplab-inspector`:
 * get/list of pods and pods/log, which the built-in `view` and EKS's
 * AmazonEKSViewPolicy both hold: the EKS user guide's access policy reference,
 * read 2026-12-07), and `kubectl debug node/...` is refused in `hoplab` by Pod
 * Security baseline.
 */
export const ATTENDEE_NODES_RULES = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
] as const;

/**
 * A Kubernetes RBAC subject: a user (GKE: the account's email), a group (EKS: an access entry's Kubernetes
 * group), or a ServiceAccount (an attendee without a cloud identity: see AttendeeServiceAccount).
 */
export type RbacSubject =
  | { readonly kind: 'User' | 'Group'; readonly name: string }
  | {
      readonly kind: 'ServiceAccount';
      readonly name: string;
      /** The ServiceAccount's namespace (RBAC names a ServiceAccount with it). */
      readonly namespace: string;
    };

/** The subject as a binding names it: users and groups in RBAC's API group, a ServiceAccount in the core group with its namespace. */
export function bindingSubject(subject: RbacSubject): { kind: string; name: string; apiGroup?: string; namespace?: string } {
  return subject.kind === 'ServiceAccount'
    ? { kind: 'ServiceAccount', name: subject.name, namespace: subject.namespace }
    : { kind: subject.kind, name: subject.name, apiGroup: 'rbac.authorization.k8s.io' };
}

export interface AttendeeRbacProps {
  /** Who gets the access. Required. */
  readonly subject: RbacSubject;
  /** The namespace the subject may change things in (built-in `edit`, with `viewAndEdit`). Required. */
  readonly namespace: string;
  /**
   * Also bind the built-in `view` ClusterRole cluster-wide and `edit` in
   * `namespace` (GKE, where RBAC is the only grant inside the cluster). On EKS
   * the access entry's policies give view and edit, and only the node role
   * is bound here. A ServiceAccount (an attendee without an identity) gets all three, as a GKE user does.
   * @default true
   */
  readonly viewAndEdit?: boolean;
}

/**
 * An attendee's Kubernetes RBAC in their own cluster: node operations
 * (`hoplab-attendee-nodes`: see, cordon, drain), and with `viewAndEdit` the
 * built-in `view` everywhere (no Secrets) and `edit` in the app's namespace.
 * Nothing cluster-admin; nothing that names another attendee.
 */
export class AttendeeRbac extends Construct {
  /** The bindings made, for assertions and dependencies. */
  public readonly bindings: readonly (ClusterRoleBindingV1 | RoleBindingV1)[];

  constructor(scope: Construct, id: string, props: AttendeeRbacProps) {
    super(scope, id);
    const subject = [bindingSubject(props.subject)];
    const labels = { 'app.kubernetes.io/part-of': 'hoplab', 'app.kubernetes.io/component': 'attendee-access' };
    const role = new ClusterRoleV1(this, 'nodes-role', {
      metadata: { name: ATTENDEE_NODES_ROLE, labels },
      rule: ATTENDEE_NODES_RULES.map((rule) => ({ apiGroups: [...rule.apiGroups], resources: [...rule.resources], verbs: [...rule.verbs] })),
    });
    const clusterBinding = (bindingId: string, name: string, roleName: string) =>
      new ClusterRoleBindingV1(this, bindingId, {
        metadata: { name, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
        subject,
      });
    const bindings: (ClusterRoleBindingV1 | RoleBindingV1)[] = [clusterBinding('nodes', ATTENDEE_NODES_ROLE, role.metadata.name)];
    if (props.viewAndEdit ?? true) {
      bindings.push(clusterBinding('view', 'hoplab-attendee-view', 'view'));
      bindings.push(
        new RoleBindingV1(this, 'edit', {
          metadata: { name: 'hoplab-attendee-edit', namespace: props.namespace, labels },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
          subject,
        }),
      );
    }
    this.bindings = bindings;
  }
}
