/**
 * Finds the exposures of a `-lb` stack: every `kubernetes_ingress_v1` and
 * `kubernetes_service_v1` labelled `hoplab.dev/exposure: <mode>`, with the
 * Service an Ingress routes to (`spec.rule.http.path.backend.service.name`,
 * or `spec.default_backend`).
 */
import { EXPOSURE_MODES } from '../../model/modes';
import { EXPOSURE_LABEL } from '../../constructs/k8s/demo-app';
import { parse } from 'yaml';
import { block, dig, isRecord, literalString, resourcesOf, stringMap, SynthStack, TfResource } from '../../kit/terraform/terraform-json';

/** A Kubernetes object as synthesized, with the parts `explain` reads. */
export interface KubeObject {
  readonly resource: TfResource;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly spec: Readonly<Record<string, unknown>>;
}

/**
 * A Kubernetes object given in API form: a `kubernetes_manifest`'s manifest,
 * or one object of a Helm release of the local `hoplab-manifests` chart.
 */
export interface ApiObject {
  /** Where it is: `kubernetes_manifest.x`, or `helm_release.x` for objects inside a release. */
  readonly address: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly spec: Readonly<Record<string, unknown>>;
}

/** The Gateway API objects of an exposure. */
export interface GatewayObjects {
  readonly gateway: ApiObject;
  /** The HTTPRoute whose parent is the Gateway. */
  readonly route?: ApiObject;
  /** The GatewayClass the Gateway names, when it is in the same stack. */
  readonly gatewayClass?: ApiObject;
  /** The AWS Load Balancer Controller's TargetGroupConfiguration of the backend Service, if any. */
  readonly targetGroupConfiguration?: ApiObject;
}

/** The objects of one exposure. */
export interface ExposureResources {
  readonly mode: string;
  /** The Gateway API objects, when the exposure is a Gateway. */
  readonly gateway?: GatewayObjects;
  /** The Ingress, when the exposure is an Ingress. */
  readonly ingress?: KubeObject;
  /** The Service: the Ingress backend, or the exposure itself (type LoadBalancer). */
  readonly service?: KubeObject;
  readonly notes: readonly string[];
}

export const INGRESS_TYPE = 'kubernetes_ingress_v1';
export const SERVICE_TYPE = 'kubernetes_service_v1';
export const NAMESPACE_TYPE = 'kubernetes_namespace_v1';

export function kubeObject(stack: SynthStack, resource: TfResource): KubeObject {
  const metadata = block(resource.config.metadata) ?? {};
  return {
    resource,
    name: literalString(stack, metadata.name),
    namespace: literalString(stack, metadata.namespace),
    labels: stringMap(stack, metadata.labels),
    annotations: stringMap(stack, metadata.annotations),
    spec: block(resource.config.spec) ?? {},
  };
}

/** Namespace labels by namespace name, for settings that live on the namespace (readiness gates). */
export function namespaceLabels(stack: SynthStack): Map<string, Readonly<Record<string, string>>> {
  const result = new Map<string, Readonly<Record<string, string>>>();
  for (const resource of resourcesOf(stack, NAMESPACE_TYPE)) {
    const object = kubeObject(stack, resource);
    if (object.name !== undefined) {
      result.set(object.name, object.labels);
    }
  }
  return result;
}

const REFERENCE_TO_SERVICE = new RegExp(`^\\$\\{${SERVICE_TYPE}\\.([A-Za-z0-9_-]+)\\.`);

function backendServiceRef(ingress: KubeObject): unknown {
  const fromRule = dig(ingress.spec, 'rule.http.path.backend.service.name');
  return fromRule ?? dig(ingress.spec, 'default_backend.service.name');
}

function findBackend(stack: SynthStack, ingress: KubeObject, services: readonly KubeObject[]): KubeObject | undefined {
  const ref = backendServiceRef(ingress);
  if (typeof ref === 'string') {
    const byAddress = REFERENCE_TO_SERVICE.exec(ref);
    if (byAddress) {
      const hit = services.find((s) => s.resource.key === byAddress[1]);
      if (hit) {
        return hit;
      }
    }
    const name = literalString(stack, ref);
    if (name !== undefined) {
      return services.find((s) => s.name === name && (s.namespace === ingress.namespace || s.namespace === undefined || ingress.namespace === undefined));
    }
  }
  return undefined;
}

function apiObject(stack: SynthStack, address: string, raw: unknown): ApiObject | undefined {
  if (!isRecord(raw) || typeof raw.kind !== 'string' || typeof raw.apiVersion !== 'string') {
    return undefined;
  }
  const metadata = block(raw.metadata) ?? {};
  return {
    address,
    apiVersion: raw.apiVersion,
    kind: raw.kind,
    name: literalString(stack, metadata.name),
    labels: stringMap(stack, metadata.labels),
    spec: block(raw.spec) ?? {},
  };
}

/** Every object of the stack given in API form: `kubernetes_manifest` resources and the `manifests` value of Helm releases. */
export function apiObjects(stack: SynthStack): ApiObject[] {
  const found: ApiObject[] = [];
  for (const resource of resourcesOf(stack, 'kubernetes_manifest')) {
    const object = apiObject(stack, resource.address, resource.config.manifest);
    if (object) found.push(object);
  }
  for (const resource of resourcesOf(stack, 'helm_release')) {
    const values = resource.config.values;
    const text = Array.isArray(values) && typeof values[0] === 'string' ? values[0] : undefined;
    if (text === undefined || !text.includes('manifests')) continue;
    let parsed: unknown;
    try {
      parsed = parse(text);
    } catch {
      continue;
    }
    const manifests = isRecord(parsed) && Array.isArray(parsed.manifests) ? parsed.manifests : [];
    for (const manifest of manifests) {
      const object = apiObject(stack, resource.address, manifest);
      if (object) found.push(object);
    }
  }
  return found;
}

function firstName(value: unknown): string | undefined {
  const name = dig(value, 'name');
  return typeof name === 'string' ? name : undefined;
}

/** Gateways labelled with an exposure mode, with their route, class and the Service the route sends to. */
function findGateways(stack: SynthStack): Map<string, { gateway: GatewayObjects; backendName?: string }> {
  const objects = apiObjects(stack);
  const result = new Map<string, { gateway: GatewayObjects; backendName?: string }>();
  for (const gateway of objects.filter((o) => o.kind === 'Gateway' && o.apiVersion.startsWith('gateway.networking.k8s.io/'))) {
    const mode = gateway.labels[EXPOSURE_LABEL];
    if (mode === undefined || result.has(mode)) continue;
    const route = objects.find((o) => o.kind === 'HTTPRoute' && Array.isArray(o.spec.parentRefs) && o.spec.parentRefs.some((p) => firstName(p) === gateway.name));
    const backendName = route ? firstName(dig(route.spec, 'rules.backendRefs')) : undefined;
    const gatewayClass = objects.find((o) => o.kind === 'GatewayClass' && o.name !== undefined && o.name === gateway.spec.gatewayClassName);
    const targetGroupConfiguration = objects.find((o) => o.kind === 'TargetGroupConfiguration' && backendName !== undefined && firstName(o.spec.targetReference) === backendName);
    result.set(mode, {
      gateway: { gateway, ...(route ? { route } : {}), ...(gatewayClass ? { gatewayClass } : {}), ...(targetGroupConfiguration ? { targetGroupConfiguration } : {}) },
      ...(backendName ? { backendName } : {}),
    });
  }
  return result;
}

function modeOrder(mode: string): number {
  const index = (EXPOSURE_MODES as readonly string[]).indexOf(mode);
  return index === -1 ? EXPOSURE_MODES.length : index;
}

/** The exposures of a stack, in mode order (native, nodeport, nodeport-local, then others by name). */
export function findExposures(stack: SynthStack): ExposureResources[] {
  const services = resourcesOf(stack, SERVICE_TYPE).map((r) => kubeObject(stack, r));
  const ingresses = resourcesOf(stack, INGRESS_TYPE).map((r) => kubeObject(stack, r));
  const byMode = new Map<string, { ingress?: KubeObject; gateway?: GatewayObjects; service?: KubeObject; notes: string[] }>();
  const entry = (mode: string) => {
    const found = byMode.get(mode) ?? { notes: [] };
    byMode.set(mode, found);
    return found;
  };

  for (const ingress of ingresses) {
    const mode = ingress.labels[EXPOSURE_LABEL];
    if (mode === undefined) {
      continue;
    }
    const exposure = entry(mode);
    if (exposure.ingress) {
      exposure.notes.push(`more than one Ingress labelled ${EXPOSURE_LABEL}=${mode}; explaining ${exposure.ingress.resource.address}, not ${ingress.resource.address}`);
      continue;
    }
    exposure.ingress = ingress;
    const backend = findBackend(stack, ingress, services);
    if (backend) {
      exposure.service = backend;
    } else {
      exposure.notes.push(`the backend Service of ${ingress.resource.address} is not in this stack (or its name is not known offline)`);
    }
  }

  for (const [mode, found] of findGateways(stack)) {
    const exposure = entry(mode);
    if (exposure.ingress) {
      exposure.notes.push(`both an Ingress and a Gateway are labelled ${EXPOSURE_LABEL}=${mode}; explaining the Ingress`);
      continue;
    }
    exposure.gateway = found.gateway;
    const backend = found.backendName === undefined ? undefined : services.find((s) => s.name === found.backendName);
    if (backend) {
      exposure.service = backend;
    } else {
      exposure.notes.push(`the backend Service of the Gateway's HTTPRoute (${found.backendName ?? 'none'}) is not in this stack`);
    }
  }

  for (const service of services) {
    const mode = service.labels[EXPOSURE_LABEL];
    if (mode === undefined) {
      continue;
    }
    const exposure = entry(mode);
    if (exposure.ingress || exposure.gateway) {
      // The Ingress's own backend wins; a labelled Service of the same mode is its backend or a stray.
      if (!exposure.service) {
        exposure.service = service;
        exposure.notes.push(`assumed ${service.resource.address} (same ${EXPOSURE_LABEL} label) is the Ingress backend`);
      }
      continue;
    }
    if (exposure.service) {
      exposure.notes.push(`more than one Service labelled ${EXPOSURE_LABEL}=${mode}; explaining ${exposure.service.resource.address}, not ${service.resource.address}`);
      continue;
    }
    exposure.service = service;
  }

  return [...byMode.entries()]
    .sort(([a], [b]) => modeOrder(a) - modeOrder(b) || a.localeCompare(b))
    .map(([mode, found]) => ({
      mode,
      ...(found.ingress ? { ingress: found.ingress } : {}),
      ...(found.gateway ? { gateway: found.gateway } : {}),
      ...(found.service ? { service: found.service } : {}),
      notes: found.notes,
    }));
}
