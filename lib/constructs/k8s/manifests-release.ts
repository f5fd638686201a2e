import { Release } from '@cdktf/provider-helm/lib/release';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { LocalChart } from './local-chart';

/** Name of the local chart that applies the objects it is given. */
export const MANIFESTS_CHART = 'hoplab-manifests';

/** A Kubernetes object as the API takes it. */
export interface KubernetesManifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
  readonly [field: string]: unknown;
}

export interface ManifestsReleaseProps {
  /** Helm release name (required): at most 53 characters, a DNS label. */
  readonly releaseName: string;
  /** Namespace of the release (required); namespaced objects name theirs in their metadata. */
  readonly namespace: string;
  /** The objects, applied as they are (required). Terraform references in strings are resolved at apply. */
  readonly manifests: readonly KubernetesManifest[];
  /**
   * Seconds Helm waits: for hooks on install, and on uninstall until every
   * object is gone (finalizers included).
   * @default 900
   */
  readonly timeoutSeconds?: number;
  /**
   * Resources to create first and destroy after (such as the controller that
   * acts on these objects, which must outlive their finalizers).
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * Kubernetes objects delivered through a Helm release of the local chart
 * `charts/hoplab-manifests`, for custom resources whose CRDs are created in
 * the same apply: `kubernetes_manifest` cannot plan those
 * (hashicorp/terraform-provider-kubernetes#1367); `helm_release` needs no CRD
 * at plan time.
 *
 * `wait` is on, and the helm provider (3.1) passes it to `helm uninstall`
 * too: destroy returns only when every object is gone, so a controller's
 * finalizers have run (the controller must be a dependency, to outlive them).
 */
export class ManifestsRelease extends Construct {
  /** The Helm release. */
  public readonly release: Release;
  /** The objects, as given. */
  public readonly manifests: readonly KubernetesManifest[];

  constructor(scope: Construct, id: string, props: ManifestsReleaseProps) {
    super(scope, id);
    if (!/^[a-z0-9]([-a-z0-9]{0,51}[a-z0-9])?$/.test(props.releaseName)) {
      throw new Error(`ManifestsRelease ${id}: releaseName "${props.releaseName}" is not a Helm release name; use a DNS label of at most 53 characters`);
    }
    if (props.manifests.length === 0) {
      throw new Error(`ManifestsRelease ${id}: no manifests given; pass at least one object`);
    }
    this.manifests = props.manifests;
    const chart = new LocalChart(this, 'chart', { name: MANIFESTS_CHART });
    this.release = new Release(this, 'release', {
      name: props.releaseName,
      chart: chart.chart,
      namespace: props.namespace,
      // Quoted strings: names and namespaces may be Terraform references until apply.
      values: [stringify({ manifests: props.manifests }, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' })],
      wait: true,
      timeout: props.timeoutSeconds ?? 900,
      atomic: true,
      cleanupOnFail: true,
      maxHistory: 5,
      dependsOn: props.dependsOn,
    });
  }
}
