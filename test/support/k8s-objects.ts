/**
 * Turns the Kubernetes resources a stack synthesizes (the kubernetes provider's
 * typed resources, in cdk.tf.json form) into Kubernetes API objects, and
 * validates them against the Kubernetes OpenAPI schema with kubernetes-models.
 */
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { IngressClass } from 'kubernetes-models/networking.k8s.io/v1/IngressClass';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { parse } from 'yaml';
import { hasCrdSchema, validateCustomResource } from './crd-schema';

interface KindInfo {
  readonly apiVersion: string;
  readonly kind: string;
  readonly validate: (object: Record<string, unknown>) => void;
}

const KINDS: Readonly<Record<string, KindInfo>> = {
  kubernetes_namespace_v1: { apiVersion: 'v1', kind: 'Namespace', validate: (o) => new Namespace(o as never).validate() },
  kubernetes_service_v1: { apiVersion: 'v1', kind: 'Service', validate: (o) => new Service(o as never).validate() },
  kubernetes_service_account_v1: { apiVersion: 'v1', kind: 'ServiceAccount', validate: (o) => new ServiceAccount(o as never).validate() },
  kubernetes_deployment_v1: { apiVersion: 'apps/v1', kind: 'Deployment', validate: (o) => new Deployment(o as never).validate() },
  kubernetes_daemon_set_v1: { apiVersion: 'apps/v1', kind: 'DaemonSet', validate: (o) => new DaemonSet(o as never).validate() },
  kubernetes_ingress_v1: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', validate: (o) => new Ingress(o as never).validate() },
  kubernetes_ingress_class_v1: { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', validate: (o) => new IngressClass(o as never).validate() },
  kubernetes_pod_disruption_budget_v1: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', validate: (o) => new PodDisruptionBudget(o as never).validate() },
  kubernetes_cluster_role_v1: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', validate: (o) => new ClusterRole(o as never).validate() },
  kubernetes_cluster_role_binding_v1: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', validate: (o) => new ClusterRoleBinding(o as never).validate() },
  kubernetes_role_binding_v1: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', validate: (o) => new RoleBinding(o as never).validate() },
};

/** Built-in kinds that objects given as API objects (kubernetes_manifest, Helm values) may have. */
const API_KINDS: Readonly<Record<string, (o: Record<string, unknown>) => void>> = {
  'v1/ServiceAccount': (o) => new ServiceAccount(o as never).validate(),
  'v1/Service': (o) => new Service(o as never).validate(),
  'batch/v1/Job': (o) => new Job(o as never).validate(),
  'rbac.authorization.k8s.io/v1/Role': (o) => new Role(o as never).validate(),
  'rbac.authorization.k8s.io/v1/RoleBinding': (o) => new RoleBinding(o as never).validate(),
};

/** Replaces Terraform references in every string of an API object with a literal. */
function literals(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(literals);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literals(v)]));
  return typeof value === 'string' ? literal(value) : value;
}

/** Validates an object given in API form: a built-in kind with kubernetes-models, a custom resource against its CRD's schema. */
function validateApiObject(object: Record<string, unknown>): void {
  const apiVersion = String(object.apiVersion);
  const kind = String(object.kind);
  const builtIn = API_KINDS[`${apiVersion}/${kind}`];
  if (builtIn) return builtIn(object);
  if (hasCrdSchema(apiVersion, kind)) return validateCustomResource({ ...object, apiVersion, kind });
  throw new Error(`test/support/k8s-objects.ts has no schema for ${apiVersion} ${kind}: add it to API_KINDS or its CRD to test/fixtures/crds`);
}

/**
 * The objects of every `kubernetes_manifest` and of every Helm release of the
 * local `hoplab-manifests` chart (its `manifests` value), as API objects.
 */
export function manifestObjects(synthesized: { resource?: Record<string, Record<string, Record<string, unknown>>> }): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const [name, config] of Object.entries(synthesized.resource?.kubernetes_manifest ?? {})) {
    const body = literals(config.manifest) as Record<string, unknown>;
    objects.push({ address: `kubernetes_manifest.${name}`, object: body, validate: () => validateApiObject(body) });
  }
  for (const [name, config] of Object.entries(synthesized.resource?.helm_release ?? {})) {
    const values = parse(((config.values as string[] | undefined) ?? ['{}'])[0]) as { manifests?: Record<string, unknown>[] } | null;
    // The local hoplab-manifests chart takes its objects as `manifests`; other charts have other values.
    if (!Array.isArray(values?.manifests)) continue;
    values.manifests.forEach((manifest, index) => {
      const body = literals(manifest) as Record<string, unknown>;
      objects.push({ address: `helm_release.${name}[${index}] ${String(body.kind)}`, object: body, validate: () => validateApiObject(body) });
    });
  }
  return objects;
}

/** Resource types this module can turn into API objects. */
export const KUBERNETES_RESOURCE_TYPES = Object.keys(KINDS);

/** Fields whose values are string maps: their keys are label keys, not field names. */
const MAP_FIELDS = new Set(['labels', 'annotations', 'match_labels', 'requests', 'limits', 'node_selector', 'data', 'parameters']);

/** Terraform's singular block names for repeated fields (applied to lists only: `port` is also a scalar), and the API's names. */
const RENAMES: Readonly<Record<string, string>> = {
  container: 'containers',
  init_container: 'initContainers',
  port: 'ports',
  volume: 'volumes',
  volume_mount: 'volumeMounts',
  toleration: 'tolerations',
  readiness_gate: 'readinessGates',
  topology_spread_constraint: 'topologySpreadConstraints',
  rule: 'rules',
  path: 'paths',
  match_expressions: 'matchExpressions',
  image_pull_secrets: 'imagePullSecrets',
  subject: 'subjects',
};

/** Blocks that Terraform writes as a one-element list where the API has an object. */
const SINGLE_BLOCKS = new Set(['label_selector', 'pre_stop', 'post_start']);

/** Terraform-only arguments that are not part of the API object. */
const TERRAFORM_ONLY = new Set(['wait_for_rollout', 'wait_for_load_balancer', 'timeouts', 'depends_on', 'lifecycle', 'provider', 'count', 'for_each', 'wait_for_default_service_account']);

/** Fields that are numbers in the API but strings in the provider. */
const NUMERIC_STRINGS = new Set(['replicas', 'run_as_user']);

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Replaces Terraform references with a plausible literal so the object can be schema-checked. */
function literal(value: string): string {
  return value.includes('${') ? 'from-terraform' : value;
}

function convert(value: unknown, key: string | undefined, parentKey: string | undefined): unknown {
  if (Array.isArray(value)) {
    if (key && SINGLE_BLOCKS.has(key)) {
      return convert(value[0], undefined, key);
    }
    return value.map((item) => convert(item, undefined, key));
  }
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    if (key && MAP_FIELDS.has(key)) {
      return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, typeof v === 'string' ? literal(v) : v]));
    }
    // A Service's spec.selector is a string map; a workload's selector is a LabelSelector block.
    if (key === 'selector' && parentKey === 'service_spec') {
      return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, typeof v === 'string' ? literal(v) : v]));
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(source)) {
      if (TERRAFORM_ONLY.has(k)) continue;
      const apiKey = Array.isArray(v) && RENAMES[k] ? RENAMES[k] : camel(k);
      out[apiKey] = convert(v, k, key);
    }
    return out;
  }
  if (typeof value === 'string') {
    if (key && NUMERIC_STRINGS.has(key) && /^\d+$/.test(value)) return Number(value);
    return literal(value);
  }
  return value;
}

/** One synthesized Kubernetes resource as an API object. */
export interface KubernetesObject {
  /** Terraform address, e.g. `kubernetes_service_v1.app_service_1234`. */
  readonly address: string;
  readonly object: Record<string, unknown>;
  readonly validate: () => void;
}

/** Every Kubernetes resource of a synthesized stack (parsed cdk.tf.json) as an API object. */
export function kubernetesObjects(synthesized: { resource?: Record<string, Record<string, Record<string, unknown>>> }): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const [type, resources] of Object.entries(synthesized.resource ?? {})) {
    if (!type.startsWith('kubernetes_') || type === 'kubernetes_manifest') continue;
    const info = KINDS[type];
    if (!info) {
      throw new Error(`test/support/k8s-objects.ts cannot convert ${type} yet: add it to KINDS`);
    }
    for (const [name, config] of Object.entries(resources)) {
      const body: Record<string, unknown> = { apiVersion: info.apiVersion, kind: info.kind };
      for (const [k, v] of Object.entries(config)) {
        if (TERRAFORM_ONLY.has(k)) continue;
        // Top-level repeated blocks too: a ClusterRole's `rule` is the API's `rules`, a binding's `subject` its `subjects`.
        body[Array.isArray(v) && RENAMES[k] ? RENAMES[k] : camel(k)] = convert(v, k === 'spec' ? `${info.kind === 'Service' ? 'service_' : ''}spec` : k, undefined);
      }
      objects.push({ address: `${type}.${name}`, object: body, validate: () => info.validate(body) });
    }
  }
  return objects;
}
