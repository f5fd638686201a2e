/**
 * The readiness gate a load balancer that targets Pods puts on them, per
 * cloud: the Pod condition that stays False until the load balancer has
 * registered the Pod and finds it healthy.
 * - EKS: the AWS Load Balancer Controller injects one gate per target group,
 *   `target-health.elbv2.k8s.aws/<TargetGroupBinding name>`, into Pods of a
 *   namespace labelled `elbv2.k8s.aws/pod-readiness-gate-inject: enabled`
 *   (docs/deploy/pod_readiness_gate.md of kubernetes-sigs/aws-load-balancer-controller);
 * - GKE: the NEG controller adds `cloud.google.com/load-balancer-neg-ready` to
 *   Pods behind a NEG (GKE docs, "Container-native load balancing", Pod readiness).
 */
import { Cloud } from './contract';

/** The gate's condition type: the EKS one's prefix (a target group's name follows), GKE's whole. */
export const READINESS_GATE_CONDITION: Readonly<Record<Cloud, { readonly type: string; readonly prefix: boolean }>> = {
  aws: { type: 'target-health.elbv2.k8s.aws/', prefix: true },
  gcp: { type: 'cloud.google.com/load-balancer-neg-ready', prefix: false },
};

/** Whether a Pod condition type is `cloud`'s load-balancer readiness gate. */
export function isReadinessGate(cloud: Cloud, conditionType: string): boolean {
  const gate = READINESS_GATE_CONDITION[cloud];
  return gate.prefix ? conditionType.startsWith(gate.type) : conditionType === gate.type;
}
