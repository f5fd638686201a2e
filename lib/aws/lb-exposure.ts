import { ITerraformDependable } from 'cdktf';
import { ExposureMode } from '../config/schema';
import { DEMO_APP_LABELS, EXPOSURE_LABEL } from '../k8s/demo-app';

/** Port every exposure's Service and load balancer listens on. */
export const EXPOSURE_PORT = 80;

/** What the `-lb` stack needs of each exposure construct. */
export interface LbExposure {
  /** The exposure mode. */
  readonly mode: ExposureMode;
  /** `http://<load balancer DNS name>/`, read back from the Kubernetes object's status once the load balancer exists. */
  readonly url: string;
  /**
   * The Kubernetes object the controller turns into a load balancer (Ingress or
   * Service). It carries the controller's finalizer, so deleting it waits until
   * the controller has removed the load balancer, target groups and security groups.
   */
  readonly loadBalancerObject: ITerraformDependable;
}

/** Name of an exposure's Service and Ingress: `echo-native`, `echo-nodeport`, `echo-nodeport-local`. */
export function exposureObjectName(mode: ExposureMode): string {
  return `echo-${mode}`;
}

/** Labels of an exposure's Service and Ingress: the app's part-of label and `hoplab.dev/exposure: <mode>`. */
export function exposureLabels(mode: ExposureMode): Record<string, string> {
  return { 'app.kubernetes.io/part-of': DEMO_APP_LABELS['app.kubernetes.io/part-of'], [EXPOSURE_LABEL]: mode };
}

/** `key=value,key=value`, the tag list format of the controller's annotations. */
export function tagList(tags: Readonly<Record<string, string>>): string {
  return Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}
