import { ExposureMode } from '../../model/modes';
import { DEMO_APP_LABELS, EXPOSURE_LABEL } from './demo-app';

/** Port every exposure's Service and load balancer listens on, on both clouds. */
export const EXPOSURE_PORT = 80;

/** Name of an exposure's Service and Ingress: `echo-native`, `echo-nodeport`, `echo-nodeport-local`. */
export function exposureObjectName(mode: ExposureMode): string {
  return `echo-${mode}`;
}

/** Labels of an exposure's Service and Ingress: the app's part-of label and `hoplab.dev/exposure: <mode>` (what `explain` looks for). */
export function exposureLabels(mode: ExposureMode): Record<string, string> {
  return { 'app.kubernetes.io/part-of': DEMO_APP_LABELS['app.kubernetes.io/part-of'], [EXPOSURE_LABEL]: mode };
}

/** API group and version of the Gateway API objects (both clouds' `gateway` exposure). */
export const GATEWAY_API_GROUP_VERSION = 'gateway.networking.k8s.io/v1';

/**
 * The `gateway` exposure's HTTPRoute, the same on both clouds: every path of
 * the Gateway's `http` listener to the Service `name` on {@link EXPOSURE_PORT}.
 */
export function exposureHttpRoute(name: string, namespace: string, labels: Record<string, string>) {
  return {
    apiVersion: GATEWAY_API_GROUP_VERSION,
    kind: 'HTTPRoute',
    metadata: { name, namespace, labels },
    spec: {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name, sectionName: 'http' }],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name, port: EXPOSURE_PORT }] }],
    },
  };
}
