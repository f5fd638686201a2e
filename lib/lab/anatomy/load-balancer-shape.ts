/**
 * What kind of load balancer an exposure's objects make, per cloud, read from
 * the annotations and fields the controllers document:
 * - AWS Load Balancer Controller (Ingress class `alb`; Services with
 *   `service.beta.kubernetes.io/aws-load-balancer-type: external` or
 *   `loadBalancerClass: service.k8s.aws/nlb`), the in-tree AWS cloud provider
 *   otherwise (CLB, or NLB with `aws-load-balancer-type: nlb`).
 * - GKE Ingress (class `gce`, NEGs per `cloud.google.com/neg`, the default on
 *   VPC-native clusters) and GKE passthrough Network Load Balancers.
 */
import { Cloud } from '../../model/contract';
import { NODE_HEALTH_PORT } from '../../model/exposure-facts';
import { ExposureResources, KubeObject } from './exposure-resources';
import { block, dig } from '../../kit/terraform/terraform-json';

/** The load balancer part of a path, before the Service's traffic policy is applied. */
export interface LoadBalancerShape {
  readonly lbKind: string | null;
  /** How the path names it: `ALB`, `NLB`, `Google L7 LB`. */
  readonly label: string;
  /** Terminates the client's connection and adds X-Forwarded-For (L7). */
  readonly l7: boolean;
  readonly targets: 'pods' | 'nodes' | null;
  readonly targetType: string | null;
  /** Without SNAT on a node, the Pod's TCP peer is the client (not the load balancer). */
  readonly keepsClientAsSource: boolean | null;
  /** Health check text for the given traffic policy. */
  readonly healthCheck: (policy: 'Cluster' | 'Local' | null) => string;
  /**
   * Where packets enter a node, when not the NodePort: a passthrough load
   * balancer that keeps the destination delivers to the load balancer's own
   * IP and port, which kube-proxy or Cilium match as the Service's external IP.
   * @default - the Service's NodePort
   */
  readonly nodeEntry?: string;
  readonly notes: readonly string[];
}

/** What the cluster stack says that changes a path. */
export interface ClusterContext {
  /** GKE: the cluster is VPC-native (alias IPs), so Ingress backends default to NEGs. */
  readonly vpcNative: boolean | null;
  /** Namespace labels by name (readiness-gate injection). */
  readonly namespaceLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

const LBC = {
  ingressTargetType: 'alb.ingress.kubernetes.io/target-type',
  ingressHealthPath: 'alb.ingress.kubernetes.io/healthcheck-path',
  ingressHealthPort: 'alb.ingress.kubernetes.io/healthcheck-port',
  ingressHealthProtocol: 'alb.ingress.kubernetes.io/healthcheck-protocol',
  serviceType: 'service.beta.kubernetes.io/aws-load-balancer-type',
  nlbTargetType: 'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type',
  targetGroupAttributes: 'service.beta.kubernetes.io/aws-load-balancer-target-group-attributes',
  loadBalancerAttributes: 'service.beta.kubernetes.io/aws-load-balancer-attributes',
  serviceHealthProtocol: 'service.beta.kubernetes.io/aws-load-balancer-healthcheck-protocol',
  serviceHealthPath: 'service.beta.kubernetes.io/aws-load-balancer-healthcheck-path',
  serviceHealthPort: 'service.beta.kubernetes.io/aws-load-balancer-healthcheck-port',
  readinessGateLabel: 'elbv2.k8s.aws/pod-readiness-gate-inject',
  nlbClass: 'service.k8s.aws/nlb',
} as const;

const GKE = {
  neg: 'cloud.google.com/neg',
  lbType: 'networking.gke.io/load-balancer-type',
  ingressClassAnnotation: 'kubernetes.io/ingress.class',
  l4Rbs: 'cloud.google.com/l4-rbs',
} as const;

const unknownShape = (note: string): LoadBalancerShape => ({
  lbKind: null,
  label: 'load balancer',
  l7: false,
  targets: null,
  targetType: null,
  keepsClientAsSource: null,
  healthCheck: () => 'unknown',
  notes: [note],
});

function ingressClass(ingress: KubeObject): string | undefined {
  const fromSpec = ingress.spec.ingress_class_name;
  if (typeof fromSpec === 'string' && !fromSpec.includes('${')) {
    return fromSpec;
  }
  return ingress.annotations[GKE.ingressClassAnnotation];
}

/** The Service's target port as written (a number or a port name), for the health-check text. */
export function targetPort(service: KubeObject | undefined): string {
  const port = block(service?.spec.port);
  const target = port?.target_port ?? port?.port;
  return typeof target === 'string' || typeof target === 'number' ? `port ${String(target)}` : 'its port';
}

function awsIngress(exposure: ExposureResources, ingress: KubeObject, ctx: ClusterContext): LoadBalancerShape {
  const cls = ingressClass(ingress);
  if (cls !== 'alb') {
    return unknownShape(`Ingress class ${cls ?? '(none)'} is not the AWS Load Balancer Controller's "alb": which load balancer serves it is not known`);
  }
  const service = exposure.service;
  const notes: string[] = [];
  // The controller reads these from the Ingress, and lets the backend Service override them.
  const annotation = (key: string) => service?.annotations[key] ?? ingress.annotations[key];
  const targetType = annotation(LBC.ingressTargetType) ?? 'instance';
  if (annotation(LBC.ingressTargetType) === undefined) {
    notes.push(`no ${LBC.ingressTargetType} annotation: the controller's default, instance`);
  }
  const path = annotation(LBC.ingressHealthPath) ?? '/';
  const protocol = annotation(LBC.ingressHealthProtocol) ?? 'HTTP';
  const port = annotation(LBC.ingressHealthPort);
  const serviceType = service?.spec.type ?? 'ClusterIP';
  if (targetType === 'instance' && service && serviceType !== 'NodePort' && serviceType !== 'LoadBalancer') {
    notes.push(`target-type instance needs a NodePort Service, but ${service.resource.address} is ${String(serviceType)}: the controller will not register targets`);
  }
  if (targetType === 'ip') {
    return albIpShape(`${port ?? targetPort(service)}`, `${protocol} ${path}`, readinessGates(service, ctx), notes);
  }
  if (targetType === 'instance') {
    return albInstanceShape(`NodePort${port ? ` (port ${port})` : ''}`, `${protocol} ${path}`, notes);
  }
  return { ...unknownShape(`${LBC.ingressTargetType}: ${targetType} is neither ip nor instance`), lbKind: 'alb', label: 'ALB', l7: true };
}

/** Whether the Service's namespace asks the AWS Load Balancer Controller for Pod readiness gates. */
function readinessGates(service: KubeObject | undefined, ctx: ClusterContext): boolean {
  return service?.namespace !== undefined && ctx.namespaceLabels.get(service.namespace)?.[LBC.readinessGateLabel] === 'enabled';
}

/** An ALB (from an Ingress or a Gateway) whose targets are Pod IPs; its health check hits each Pod `on` a port with `check` (protocol and path). */
function albIpShape(on: string, check: string, gates: boolean, notes: string[]): LoadBalancerShape {
  return {
    lbKind: 'alb',
    label: 'ALB',
    l7: true,
    targets: 'pods',
    targetType: 'ip',
    keepsClientAsSource: false,
    healthCheck: () => `each Pod IP on ${on} (${check}), ` + (gates ? 'with Pod readiness gates' : `without Pod readiness gates (namespace not labelled ${LBC.readinessGateLabel}: enabled)`),
    notes,
  };
}

/** An ALB (from an Ingress or a Gateway) whose targets are the nodes: its health check hits every node's `nodePort` with `check`. */
function albInstanceShape(nodePort: string, check: string, notes: string[]): LoadBalancerShape {
  return {
    lbKind: 'alb',
    label: 'ALB',
    l7: true,
    targets: 'nodes',
    targetType: 'instance',
    keepsClientAsSource: false,
    healthCheck: (policy) => `every node's ${nodePort} (${check}): ${policy === 'Local' ? 'only nodes with a ready Pod pass' : 'passes on nodes without a Pod too'}`,
    notes,
  };
}

/**
 * The controller's NLB health check: annotations win; without them TCP on the
 * traffic port, or for instance targets with ETP Local HTTP /healthz on the
 * Service's healthCheckNodePort (model_builder.go, v3.5.0).
 */
function nlbHealthCheck(service: KubeObject, targetType: string, policy: 'Cluster' | 'Local' | null): string {
  const localInstance = targetType === 'instance' && policy === 'Local';
  const protocol = (service.annotations[LBC.serviceHealthProtocol] ?? (localInstance ? 'HTTP' : 'TCP')).toUpperCase();
  const path = protocol === 'TCP' ? '' : ` ${service.annotations[LBC.serviceHealthPath] ?? (localInstance ? '/healthz' : '/')}`;
  const port = service.annotations[LBC.serviceHealthPort];
  if (targetType === 'ip') {
    return `each Pod IP on ${port && port !== 'traffic-port' ? `port ${port}` : targetPort(service)} (${protocol}${path})`;
  }
  const where = port === undefined ? (localInstance ? 'healthCheckNodePort' : 'NodePort') : port === 'traffic-port' ? 'NodePort' : `port ${port}`;
  const verdict =
    policy === 'Local' && where !== 'NodePort' ? 'only nodes with a ready Pod pass' : policy === 'Local' ? 'only nodes with a ready Pod answer on the NodePort' : 'passes on nodes without a Pod too';
  return `${policy === 'Local' ? 'each' : 'every'} node's ${where} (${protocol}${path}): ${verdict}`;
}

function awsService(service: KubeObject): LoadBalancerShape {
  const lbType = service.annotations[LBC.serviceType];
  const lbClass = typeof service.spec.load_balancer_class === 'string' ? service.spec.load_balancer_class : undefined;
  const notes: string[] = [];
  const byController = lbClass === LBC.nlbClass || lbType === 'external' || lbType === 'nlb-ip';
  if (byController) {
    const targetType = lbType === 'nlb-ip' ? 'ip' : service.annotations[LBC.nlbTargetType] ?? 'instance';
    if (lbType !== 'nlb-ip' && service.annotations[LBC.nlbTargetType] === undefined) {
      notes.push(`no ${LBC.nlbTargetType} annotation: the controller's default, instance`);
    }
    const attributes = service.annotations[LBC.targetGroupAttributes] ?? '';
    const preserveSetting = /preserve_client_ip\.enabled=(true|false)/.exec(attributes)?.[1];
    // The NLB keeps the client as source for instance targets by default, and for ip targets only when asked.
    const preserve = preserveSetting === undefined ? targetType === 'instance' : preserveSetting === 'true';
    if (targetType !== 'ip' && targetType !== 'instance') {
      return unknownShape(`${LBC.nlbTargetType}: ${targetType} is neither ip nor instance`);
    }
    const crossZone = /load_balancing\.cross_zone\.enabled=(true|false)/.exec(service.annotations[LBC.loadBalancerAttributes] ?? '')?.[1] === 'true';
    if (!crossZone && targetType === 'instance' && service.spec.external_traffic_policy === 'Local') {
      notes.push('cross-zone off with Local: a zone with no ready Pod has no healthy target (its NLB address times out)');
    }
    return {
      lbKind: 'nlb',
      label: 'NLB',
      l7: false,
      targets: targetType === 'ip' ? 'pods' : 'nodes',
      targetType,
      keepsClientAsSource: preserve,
      healthCheck: (policy) =>
        `${nlbHealthCheck(service, targetType, policy)}${
          crossZone ? "; cross-zone load balancing on, so every zone's NLB address reaches them" : "; cross-zone load balancing off: each zone's NLB address reaches only its own zone"
        }`,
      notes,
    };
  }
  if (lbType === 'nlb') {
    return {
      lbKind: 'nlb',
      label: 'NLB',
      l7: false,
      targets: 'nodes',
      targetType: 'instance',
      keepsClientAsSource: true,
      healthCheck: (policy) => (policy === 'Local' ? "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass" : "every node's NodePort (TCP)"),
      notes: ['NLB from the in-tree AWS cloud provider (aws-load-balancer-type: nlb), not the AWS Load Balancer Controller'],
    };
  }
  return {
    lbKind: 'clb',
    label: 'CLB',
    l7: false,
    targets: 'nodes',
    targetType: 'instance',
    keepsClientAsSource: false,
    healthCheck: (policy) => (policy === 'Local' ? "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass" : "every node's NodePort (TCP)"),
    notes: [
      `no ${LBC.serviceType} annotation and no loadBalancerClass: a Classic LB from the in-tree cloud provider (TCP proxy), ` +
        "unless the AWS Load Balancer Controller's Service webhook turns it into an NLB",
    ],
  };
}

function parseNeg(value: string | undefined): { ingress?: boolean } | undefined {
  if (value === undefined) {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' ? (parsed as { ingress?: boolean }) : undefined;
  } catch {
    return undefined;
  }
}

function gcpIngress(exposure: ExposureResources, ingress: KubeObject, ctx: ClusterContext): LoadBalancerShape {
  const cls = ingressClass(ingress);
  if (cls !== undefined && cls !== 'gce' && cls !== 'gce-internal') {
    return unknownShape(`Ingress class ${cls} is not GKE's "gce" or "gce-internal": which load balancer serves it is not known`);
  }
  const service = exposure.service;
  const notes: string[] = [];
  const label = cls === 'gce-internal' ? 'Google internal L7 LB' : 'Google L7 LB';
  const lbKind = cls === 'gce-internal' ? 'gclb-internal-application' : 'gclb-application';
  const negAnnotation = service?.annotations[GKE.neg];
  const neg = parseNeg(negAnnotation);
  let useNeg: boolean | null;
  if (negAnnotation !== undefined && neg === undefined) {
    notes.push(`${GKE.neg} is not valid JSON: ${negAnnotation}`);
    useNeg = null;
  } else if (neg?.ingress !== undefined) {
    useNeg = neg.ingress === true;
  } else {
    useNeg = ctx.vpcNative;
    notes.push(
      ctx.vpcNative === null
        ? `no ${GKE.neg} annotation and the cluster stack is not here: NEGs are the default only on VPC-native clusters`
        : `no ${GKE.neg} annotation: ${ctx.vpcNative ? 'NEGs, the default on VPC-native clusters' : 'instance groups (the cluster is not VPC-native)'}`,
    );
  }
  if (useNeg === null) {
    return { ...unknownShape(notes.join('; ')), lbKind, label, l7: true };
  }
  if (!useNeg && service && service.spec.type !== 'NodePort' && service.spec.type !== 'LoadBalancer') {
    notes.push(`instance-group backends need a NodePort Service, but ${service.resource.address} is ${String(service.spec.type ?? 'ClusterIP')}`);
  }
  return useNeg
    ? {
        lbKind,
        label,
        l7: true,
        targets: 'pods',
        targetType: 'neg',
        keepsClientAsSource: false,
        healthCheck: () => `each Pod endpoint in the NEGs on ${targetPort(service)} (HTTP; GKE takes the path from the Pods' readiness probe only if they exist when the Ingress is created, else /)`,
        notes,
      }
    : {
        lbKind,
        label,
        l7: true,
        targets: 'nodes',
        targetType: 'instance-group',
        keepsClientAsSource: false,
        healthCheck: (policy) => `every node's NodePort in the instance groups (HTTP /): ${policy === 'Local' ? 'only nodes with a ready Pod pass' : 'passes on nodes without a Pod too'}`,
        notes,
      };
}

function gcpService(service: KubeObject): LoadBalancerShape {
  const internal = service.annotations[GKE.lbType] === 'Internal';
  // External: backend service-based with l4-rbs (backends are the node VMs: instance groups, or GCE_VM_IP
  // NEGs on newer GKE versions), else GKE's legacy target pool of the node VMs.
  // spec.loadBalancerClass networking.gke.io/l4-regional-external (GKE 1.33.1-gke.1779000+): backend service-based, GCE_VM_IP NEGs.
  const regionalClass = service.spec.load_balancer_class === 'networking.gke.io/l4-regional-external';
  const targetType = internal || regionalClass || service.annotations[GKE.l4Rbs] === 'enabled' ? 'instance' : 'target-pool';
  return {
    // Passthrough: the packet reaches the node still addressed to the load balancer's IP and port.
    nodeEntry: 'LB IP:port, passthrough',
    lbKind: internal ? 'gcp-internal-passthrough-nlb' : 'gcp-passthrough-nlb',
    label: internal ? 'Google internal passthrough NLB' : regionalClass ? 'Google passthrough NLB (GCE_VM_IP NEGs)' : 'Google passthrough NLB',
    l7: false,
    targets: 'nodes',
    targetType,
    keepsClientAsSource: true,
    healthCheck: (policy) =>
      policy === 'Local' ? "each node's healthCheckNodePort (HTTP /healthz): only nodes with a ready Pod pass" : `${NODE_HEALTH_PORT} on every node: passes on nodes without a Pod too`,
    notes: [],
  };
}

/** GatewayClass controllers and GKE classes whose load balancers are known. */
const GATEWAY = {
  albController: 'gateway.k8s.aws/alb',
  /** GKE's managed classes for Application Load Balancers: `gke-l7-global-external-managed`, `gke-l7-regional-external-managed`, `gke-l7-rilb`, `gke-l7-gxlb`. */
  gkeL7: /^gke-l7-/,
} as const;

/**
 * A Gateway API exposure: the AWS Load Balancer Controller's ALB Gateway
 * (target type from the Service's TargetGroupConfiguration, else the
 * controller's default, instance), or a GKE L7 Gateway (always NEG backends).
 */
function gatewayShape(cloud: Cloud, exposure: ExposureResources, ctx: ClusterContext): LoadBalancerShape {
  const objects = exposure.gateway!;
  const className = objects.gateway.spec.gatewayClassName;
  const service = exposure.service;
  const notes: string[] = [];
  if (cloud === 'aws') {
    const controller = objects.gatewayClass?.spec.controllerName;
    if (controller !== GATEWAY.albController) {
      return unknownShape(
        controller === undefined
          ? `GatewayClass ${String(className)} is not in this stack: which controller serves the Gateway is not known`
          : `GatewayClass ${String(className)} is served by ${String(controller)}, not the AWS Load Balancer Controller's ALB Gateway (${GATEWAY.albController})`,
      );
    }
    const configured = dig(objects.targetGroupConfiguration?.spec, 'defaultConfiguration.targetType');
    const targetType = typeof configured === 'string' ? configured : 'instance';
    if (configured === undefined) {
      notes.push("no TargetGroupConfiguration with a targetType for the backend Service: the controller's default, instance");
    }
    const path = dig(objects.targetGroupConfiguration?.spec, 'defaultConfiguration.healthCheckConfig.healthCheckPath') ?? '/';
    const protocol = dig(objects.targetGroupConfiguration?.spec, 'defaultConfiguration.healthCheckConfig.healthCheckProtocol') ?? 'HTTP';
    if (targetType === 'ip') {
      return albIpShape(targetPort(service), `${String(protocol)} ${String(path)}`, readinessGates(service, ctx), notes);
    }
    if (targetType === 'instance') {
      if (service && service.spec.type !== 'NodePort' && service.spec.type !== 'LoadBalancer') {
        notes.push(`instance targets need a NodePort Service, but ${service.resource.address} is ${String(service.spec.type ?? 'ClusterIP')}: the controller will not register targets`);
      }
      return albInstanceShape('NodePort', `${String(protocol)} ${String(path)}`, notes);
    }
    return { ...unknownShape(`TargetGroupConfiguration targetType ${targetType} is neither ip nor instance`), lbKind: 'alb', label: 'ALB', l7: true };
  }
  if (typeof className !== 'string' || !GATEWAY.gkeL7.test(className)) {
    return unknownShape(`GatewayClass ${String(className)} is not one of GKE's L7 classes (gke-l7-*): which load balancer serves it is not known`);
  }
  return {
    lbKind: 'gclb-application',
    label: 'Google L7 LB',
    l7: true,
    targets: 'pods',
    targetType: 'neg',
    keepsClientAsSource: false,
    healthCheck: () => `each Pod endpoint in the NEGs on ${targetPort(service)} (HTTP /, the Gateway controller's default without a HealthCheckPolicy)`,
    notes,
  };
}

/** The load balancer an exposure makes on `cloud`. */
export function loadBalancerShape(cloud: Cloud, exposure: ExposureResources, ctx: ClusterContext): LoadBalancerShape {
  if (exposure.gateway) {
    return gatewayShape(cloud, exposure, ctx);
  }
  if (exposure.ingress) {
    return cloud === 'aws' ? awsIngress(exposure, exposure.ingress, ctx) : gcpIngress(exposure, exposure.ingress, ctx);
  }
  const service = exposure.service;
  if (!service) {
    return unknownShape('no Ingress or Service found for this exposure');
  }
  const type = service.spec.type;
  if (type !== 'LoadBalancer') {
    return unknownShape(`${service.resource.address} is a ${typeof type === 'string' ? type : 'ClusterIP'} Service and no Ingress routes to it: no load balancer is made for it`);
  }
  return cloud === 'aws' ? awsService(service) : gcpService(service);
}
