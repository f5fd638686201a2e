import { DataGoogleClientConfig } from '@cdktf/provider-google/lib/data-google-client-config';
import { GoogleProvider } from '@cdktf/provider-google/lib/provider';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { Construct } from 'constructs';

/** How the kubernetes provider authenticates to GKE. */
export type GkeCredentials = 'gke-gcloud-auth-plugin' | 'access-token';

/** The exec credential plugin the kubernetes provider runs for a token (`gke-gcloud-auth-plugin`, as kubectl does). */
export const GKE_AUTH_PLUGIN_EXEC = {
  apiVersion: 'client.authentication.k8s.io/v1beta1',
  command: 'gke-gcloud-auth-plugin',
  // Same identity as the google provider: Application Default Credentials.
  args: ['--use_application_default_credentials'],
} as const;

/** Settings of a google provider. */
export interface LabGoogleProviderProps {
  /** Google Cloud project. Required. */
  readonly project: string;
  /** Google Cloud region. Required. */
  readonly region: string;
  /**
   * Labels the provider adds to every resource that takes labels.
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * A Google Cloud label value: lowercase letters, digits, `_` and `-`, at most
 * 63 characters (`2026-12-01T18:00:00Z` becomes `2026-12-01t18-00-00z`).
 */
export function gcpLabelValue(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .slice(0, 63);
}

/**
 * A google provider with project, region and default labels (values made
 * valid with {@link gcpLabelValue}). The labels go in through an override:
 * cdktf 0.21 rewrites the keys of provider-level maps to snake_case
 * (`hoplab-env` would become `hoplab_env`, unlike the AWS tags the leftover
 * check also searches by), and overrides are written verbatim.
 */
export function labGoogleProvider(scope: Construct, id: string, props: LabGoogleProviderProps): GoogleProvider {
  const provider = new GoogleProvider(scope, id, { project: props.project, region: props.region });
  const labels = Object.entries(props.labels ?? {});
  if (labels.length > 0) {
    provider.addOverride('default_labels', Object.fromEntries(labels.map(([key, value]) => [key, gcpLabelValue(value)])));
  }
  return provider;
}

export interface GkeProvidersProps {
  /** The cluster's API endpoint: host name or IP, without scheme (a cross-stack reference). Required. */
  readonly endpoint: string;
  /** The cluster CA certificate, PEM (a cross-stack reference). Required. */
  readonly caCertificate: string;
  /** Google Cloud project, for the google provider (`access-token` only). Required. */
  readonly project: string;
  /** Google Cloud region, for the google provider (`access-token` only). Required. */
  readonly region: string;
  /**
   * How the kubernetes provider gets its short-lived credential:
   * - `gke-gcloud-auth-plugin`: the provider runs the plugin (the same one
   *   kubectl uses) for every session; the plugin mints a token from
   *   Application Default Credentials. Nothing lands in Terraform state; the
   *   machine running Terraform needs the plugin on its PATH
   *   (`gcloud components install gke-gcloud-auth-plugin`).
   * - `access-token`: the google provider's own OAuth access token, read with
   *   `data google_client_config`. Needs nothing beyond the google provider,
   *   but the token (valid for up to an hour, scope cloud-platform) is stored
   *   in this stack's state as a sensitive attribute of the data source.
   * @default 'gke-gcloud-auth-plugin'
   */
  readonly credentials?: GkeCredentials;
  /**
   * Labels the google provider adds to every resource it creates (`access-token` only).
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * The providers of a stack that deploys into a GKE cluster: kubernetes,
 * configured from the cluster stack's endpoint and CA with a short-lived
 * credential, and (for `access-token`) google to mint that credential. No
 * long-lived secret (client certificate, static token, kubeconfig file) is
 * involved.
 */
export class GkeProviders extends Construct {
  /** The kubernetes provider. */
  public readonly kubernetes: KubernetesProvider;
  /** The google provider; only with `access-token` credentials, the exec plugin needs none. */
  public readonly google?: GoogleProvider;

  constructor(scope: Construct, id: string, props: GkeProvidersProps) {
    super(scope, id);
    const credentials = props.credentials ?? 'gke-gcloud-auth-plugin';
    const connection = { host: `https://${props.endpoint}`, clusterCaCertificate: props.caCertificate };
    if (credentials === 'access-token') {
      this.google = labGoogleProvider(this, 'google', { project: props.project, region: props.region, labels: props.labels });
      const client = new DataGoogleClientConfig(this, 'client-config', {});
      this.kubernetes = new KubernetesProvider(this, 'kubernetes', { ...connection, token: client.accessToken });
    } else {
      this.kubernetes = new KubernetesProvider(this, 'kubernetes', {
        ...connection,
        exec: [{ apiVersion: GKE_AUTH_PLUGIN_EXEC.apiVersion, command: GKE_AUTH_PLUGIN_EXEC.command, args: [...GKE_AUTH_PLUGIN_EXEC.args] }],
      });
    }
  }
}
