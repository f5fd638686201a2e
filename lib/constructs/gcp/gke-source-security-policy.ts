import { ComputeSecurityPolicy, ComputeSecurityPolicyRule } from '@cdktf/provider-google/lib/compute-security-policy';
import { Construct } from 'constructs';

import { CLOUD_ARMOR_MAX_RANGES_PER_RULE } from '../../model/exposure-facts';

export { CLOUD_ARMOR_MAX_RANGES_PER_RULE };
/** The priority of a security policy's default rule (the lowest there is); Cloud Armor requires one. */
export const CLOUD_ARMOR_DEFAULT_RULE_PRIORITY = 2147483647;
/** The priority of the first allow rule; the next ones follow it, one apart. */
export const CLOUD_ARMOR_FIRST_ALLOW_PRIORITY = 1000;

export interface GkeSourceSecurityPolicyProps {
  /** Name of the security policy (RFC 1035, at most 63 characters). Required. */
  readonly name: string;
  /** The client CIDR blocks the policy admits (`app.allowedSourceCidrs`, narrower than any address). Required; at least one. */
  readonly sourceRanges: readonly string[];
}

/** The allow rules of {@link GkeSourceSecurityPolicy}: the blocks in groups of {@link CLOUD_ARMOR_MAX_RANGES_PER_RULE}, priorities increasing from {@link CLOUD_ARMOR_FIRST_ALLOW_PRIORITY}. */
export function allowRules(sourceRanges: readonly string[]): ComputeSecurityPolicyRule[] {
  const rules: ComputeSecurityPolicyRule[] = [];
  for (let start = 0; start < sourceRanges.length; start += CLOUD_ARMOR_MAX_RANGES_PER_RULE) {
    const index = start / CLOUD_ARMOR_MAX_RANGES_PER_RULE;
    const end = Math.min(start + CLOUD_ARMOR_MAX_RANGES_PER_RULE, sourceRanges.length);
    const which = end === start + 1 ? `block ${end}` : `blocks ${start + 1}-${end}`;
    rules.push({
      action: 'allow',
      priority: CLOUD_ARMOR_FIRST_ALLOW_PRIORITY + index,
      description: `hoplab: app.allowedSourceCidrs, ${which} of ${sourceRanges.length}`,
      match: { versionedExpr: 'SRC_IPS_V1', config: { srcIpRanges: sourceRanges.slice(start, start + CLOUD_ARMOR_MAX_RANGES_PER_RULE) } },
    });
  }
  return rules;
}

/**
 * A Cloud Armor backend security policy that admits only `app.allowedSourceCidrs`
 * and answers every other client 403: what GKE's external Application Load
 * Balancers (the `native` and `nodeport` Ingress, the `gateway` Gateway) filter
 * clients with, as they have no client-side VPC firewall. The Ingress attaches
 * it through a BackendConfig (`spec.securityPolicy.name`), the Gateway through
 * a GCPBackendPolicy (`spec.default.securityPolicy`); see
 * lib/constructs/gcp/gce-ingress-exposure.ts and gke-gateway-exposure.ts.
 *
 * It lives in `<env>-gcp-cluster`, which is applied before `<env>-gcp-lb` and
 * destroyed after it: the policy exists before any object names it, and is
 * deleted only once every load balancer (whose backend services use it) is gone.
 */
export class GkeSourceSecurityPolicy extends Construct {
  /** The security policy. */
  public readonly policy: ComputeSecurityPolicy;
  /** The policy's name (a reference, so objects naming it depend on it). */
  public readonly policyName: string;

  constructor(scope: Construct, id: string, props: GkeSourceSecurityPolicyProps) {
    super(scope, id);
    if (props.sourceRanges.length === 0) {
      throw new Error(`GkeSourceSecurityPolicy ${id}: sourceRanges is empty; give at least one CIDR block, or the policy would deny every client`);
    }
    this.policy = new ComputeSecurityPolicy(this, 'policy', {
      name: props.name,
      description: 'hoplab: admits only app.allowedSourceCidrs to the GKE Ingress and Gateway load balancers',
      type: 'CLOUD_ARMOR',
      rule: [
        ...allowRules(props.sourceRanges),
        {
          action: 'deny(403)',
          priority: CLOUD_ARMOR_DEFAULT_RULE_PRIORITY,
          description: 'hoplab: every other client',
          match: { versionedExpr: 'SRC_IPS_V1', config: { srcIpRanges: ['*'] } },
        },
      ],
    });
    this.policyName = this.policy.name;
  }
}
