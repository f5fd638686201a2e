/**
 * A kubeconfig file (kind `Config`, apiVersion `v1`), as kubectl reads it:
 * clusters (server, CA), users (a bearer token, or an exec credential plugin
 * such as `aws eks get-token` or `gke-gcloud-auth-plugin`) and contexts
 * joining them, with a namespace. Written as YAML; it knows no lab.
 */
import { stringify } from 'yaml';

export interface KubeconfigCluster {
  readonly name: string;
  /** `https://...` */
  readonly server: string;
  /** The CA certificate, base64-encoded PEM. */
  readonly certificateAuthorityData: string;
}

/** An exec credential plugin (client.authentication.k8s.io/v1beta1): kubectl runs it for a token. */
export interface KubeconfigExec {
  readonly command: string;
  readonly args?: readonly string[];
  /** What kubectl prints when `command` is not found. */
  readonly installHint?: string;
  /** Hand the cluster's details to the plugin (gke-gcloud-auth-plugin reads them). @default false */
  readonly provideClusterInfo?: boolean;
}

export type KubeconfigUser = { readonly name: string; readonly token: string } | { readonly name: string; readonly exec: KubeconfigExec };

export interface KubeconfigContext {
  readonly name: string;
  readonly cluster: string;
  readonly user: string;
  /** @default - kubectl's `default` */
  readonly namespace?: string;
}

export interface Kubeconfig {
  readonly clusters: readonly KubeconfigCluster[];
  readonly users: readonly KubeconfigUser[];
  readonly contexts: readonly KubeconfigContext[];
  /** @default - the first context */
  readonly currentContext?: string;
}

/** The file's text: YAML, with a comment first (`# ...` lines) when given. */
export function kubeconfigYaml(config: Kubeconfig, comment: readonly string[] = []): string {
  const document = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: config.clusters.map((c) => ({ name: c.name, cluster: { server: c.server, 'certificate-authority-data': c.certificateAuthorityData } })),
    users: config.users.map((u) => ({
      name: u.name,
      user:
        'token' in u
          ? { token: u.token }
          : {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1beta1',
                command: u.exec.command,
                ...(u.exec.args ? { args: [...u.exec.args] } : {}),
                ...(u.exec.installHint ? { installHint: u.exec.installHint } : {}),
                provideClusterInfo: u.exec.provideClusterInfo ?? false,
                interactiveMode: 'IfAvailable',
              },
            },
    })),
    contexts: config.contexts.map((c) => ({ name: c.name, context: { cluster: c.cluster, user: c.user, ...(c.namespace ? { namespace: c.namespace } : {}) } })),
    'current-context': config.currentContext ?? config.contexts[0]?.name ?? '',
    preferences: {},
  };
  return [...comment.map((line) => `# ${line}`.trimEnd()), stringify(document, { lineWidth: 0 })].join('\n');
}
