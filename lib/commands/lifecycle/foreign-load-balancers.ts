/**
 * Before `<env>-aws-lb` uninstalls the AWS Load Balancer Controller: the load
 * balancers of the cluster that hoplab did not make. Terraform deletes
 * hoplab's own exposures (namespace `hoplab`) first and each waits for its load
 * balancer to go; an Ingress, `LoadBalancer` Service or Gateway a host created
 * in another namespace is not Terraform's, so once the controller is gone its
 * load balancer, target groups and security groups stay, billed, with nothing
 * left to delete them, and they block deleting the VPC.
 *
 * The cluster is read through {@link KubernetesLists}: three list calls.
 */

/** A Kubernetes object as a list returns it (only the fields read here). */
export interface KubernetesObject {
  readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly finalizers?: readonly string[] };
  readonly spec?: { readonly type?: string };
}

/** What the check needs of a cluster's API: the items of `GET <path>`, or `absent` when the API serves no such kind (404). */
export interface KubernetesLists {
  list(path: string): Promise<readonly KubernetesObject[] | 'absent'>;
}

/** The lists read, cluster-wide. */
export const FOREIGN_LOAD_BALANCER_LISTS = {
  ingresses: '/apis/networking.k8s.io/v1/ingresses',
  services: '/api/v1/services',
  gateways: '/apis/gateway.networking.k8s.io/v1/gateways',
} as const;

/**
 * The controller's finalizers (v3.5.0, `pkg/shared_constants/finalizers.go`): an
 * Ingress or Gateway carrying one has a load balancer the controller made.
 */
const INGRESS_FINALIZER = 'ingress.k8s.aws/resources';
const INGRESS_GROUP_FINALIZER_PREFIX = 'group.ingress.k8s.aws/';
const GATEWAY_FINALIZERS = ['gateway.k8s.aws/alb', 'gateway.k8s.aws/nlb'];

/** One load balancer hoplab did not make. */
export interface ForeignLoadBalancer {
  readonly kind: 'Ingress' | 'Service' | 'Gateway';
  readonly namespace: string;
  readonly name: string;
}

/**
 * The Ingresses and Gateways with the controller's finalizer, and the Services
 * of type `LoadBalancer` (the controller's, or the in-tree cloud provider's
 * Classic Load Balancers: either blocks the VPC), outside `ownNamespaces`.
 */
export async function foreignLoadBalancers(kube: KubernetesLists, ownNamespaces: readonly string[]): Promise<ForeignLoadBalancer[]> {
  const [ingresses, services, gateways] = await Promise.all([
    kube.list(FOREIGN_LOAD_BALANCER_LISTS.ingresses),
    kube.list(FOREIGN_LOAD_BALANCER_LISTS.services),
    // A cluster without the Gateway API CRDs has no Gateways.
    kube.list(FOREIGN_LOAD_BALANCER_LISTS.gateways),
  ]);
  const items = (list: readonly KubernetesObject[] | 'absent') => (list === 'absent' ? [] : list);
  const finalizers = (o: KubernetesObject) => o.metadata?.finalizers ?? [];
  const found: ForeignLoadBalancer[] = [];
  const add = (kind: ForeignLoadBalancer['kind'], objects: readonly KubernetesObject[], made: (o: KubernetesObject) => boolean) => {
    for (const o of objects) {
      const namespace = o.metadata?.namespace ?? 'default';
      if (ownNamespaces.includes(namespace) || !made(o)) continue;
      found.push({ kind, namespace, name: o.metadata?.name ?? '?' });
    }
  };
  add('Ingress', items(ingresses), (o) => finalizers(o).some((f) => f === INGRESS_FINALIZER || f.startsWith(INGRESS_GROUP_FINALIZER_PREFIX)));
  add('Service', items(services), (o) => o.spec?.type === 'LoadBalancer');
  add('Gateway', items(gateways), (o) => finalizers(o).some((f) => GATEWAY_FINALIZERS.includes(f)));
  return found.sort((a, b) => `${a.kind} ${a.namespace}/${a.name}`.localeCompare(`${b.kind} ${b.namespace}/${b.name}`));
}

/** The refusal: what is there, how to delete each, and what to run then. */
export function foreignLoadBalancersRefusal(cluster: string, stack: string, ownNamespaces: readonly string[], found: readonly ForeignLoadBalancer[]): string {
  const noun = (f: ForeignLoadBalancer) => (f.kind === 'Service' ? 'service' : f.kind === 'Ingress' ? 'ingress' : 'gateway');
  return [
    `cluster ${cluster} has ${found.length} load balancer${found.length === 1 ? '' : 's'} hoplab did not make (outside namespace ${ownNamespaces.join(', ')}); ` +
      'uninstalling the AWS Load Balancer Controller now would leave them billed, with nothing to delete them, and block deleting the VPC:',
    ...found.map((f) => `  ${f.kind} ${f.namespace}/${f.name}${f.kind === 'Service' ? ' (type LoadBalancer)' : ''}: kubectl delete ${noun(f)} ${f.name} -n ${f.namespace}`),
    `delete them and wait until they are gone, then run npx hoplab teardown again (${stack} was not destroyed)`,
  ].join('\n');
}
