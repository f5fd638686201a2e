import { ITerraformDependable } from 'cdktf';
import { ExposureMode } from '../../model/modes';

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

/** `key=value,key=value`, the tag list format of the controller's annotations. */
export function tagList(tags: Readonly<Record<string, string>>): string {
  return Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}
