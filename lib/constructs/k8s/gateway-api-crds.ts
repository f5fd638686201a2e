import { Release } from '@cdktf/provider-helm/lib/release';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { LocalChart } from './local-chart';

/** The Gateway API release whose standard-channel CRDs `charts/gateway-api-crds` carries (the one the AWS Load Balancer Controller v3.5.0 is built for). */
export const GATEWAY_API_VERSION = 'v1.6.0';
/** Name of the local chart, and of its Helm release. */
export const GATEWAY_API_CRDS_CHART = 'gateway-api-crds';

export interface GatewayApiCrdsProps {
  /**
   * Namespace of the Helm release record (the CRDs themselves are cluster-scoped).
   * @default 'kube-system'
   */
  readonly namespace?: string;
  /**
   * Resources that must exist first.
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * The Gateway API standard-channel CRDs, pinned ({@link GATEWAY_API_VERSION}),
 * installed by the deploy itself for clusters that do not come with them (EKS).
 *
 * They are a Helm release of the local chart `charts/gateway-api-crds`: the
 * upstream files, unchanged, in the chart's `crds/` folder. A `helm_release`
 * needs no CRD at plan time, so the first plan of a fresh environment works
 * (a `kubernetes_manifest` of a custom resource cannot be planned before its
 * CRD exists: hashicorp/terraform-provider-kubernetes#1367), and Helm creates
 * `crds/` files before anything else and never deletes them, so no Gateway
 * loses its CRD while a controller still has to clean up after it.
 *
 * The AWS Load Balancer Controller turns on its Gateway controllers only when
 * the CRDs exist at its start: its release must depend on {@link release}.
 */
export class GatewayApiCrds extends Construct {
  /** The Helm release. */
  public readonly release: Release;

  constructor(scope: Construct, id: string, props: GatewayApiCrdsProps = {}) {
    super(scope, id);
    const chart = new LocalChart(this, 'chart', { name: GATEWAY_API_CRDS_CHART });
    this.release = new Release(this, 'release', {
      name: GATEWAY_API_CRDS_CHART,
      chart: chart.chart,
      namespace: props.namespace ?? 'kube-system',
      wait: true,
      timeout: 300,
      atomic: true,
      maxHistory: 5,
      dependsOn: props.dependsOn,
    });
  }
}
