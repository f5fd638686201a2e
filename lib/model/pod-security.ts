/**
 * Pod Security admission (kubernetes.io/docs/concepts/security/pod-security-admission/):
 * the labels a namespace carries to say which Pod Security Standard its Pods must meet.
 * The API server's built-in admission plugin reads them; nothing else is installed.
 */

/** The three modes: `enforce` rejects a Pod, `warn` tells the client, `audit` annotates the audit log entry. */
export const POD_SECURITY_MODES = ['enforce', 'warn', 'audit'] as const;

export type PodSecurityMode = (typeof POD_SECURITY_MODES)[number];

/** The Pod Security Standards, least to most restrictive. */
export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

const PREFIX = 'pod-security.kubernetes.io';

/**
 * The level namespace `hoplab` (attendees' own) holds its Pods to, in all three modes:
 * `baseline`, which forbids what reaches the node (privileged containers, host
 * namespaces, host paths and ports, added capabilities beyond the default set),
 * so `kubectl debug node/... --profile=sysadmin` and every host-network Pod are
 * refused, and with them root on the node, its kubelet's service-account tokens
 * and the node role through IMDS.
 *
 * Not `restricted` for warn and audit: it also requires `runAsNonRoot`, and the
 * default echo image (registry.k8s.io/echoserver:1.10, nginx/OpenResty) starts
 * as root and writes its pid and logs under root-owned paths; whether it runs
 * as another user cannot be tried here (no container runtime), and every
 * attendee `kubectl apply` of the exercises would print warnings about Pods the
 * lab itself makes.
 */
export const APP_NAMESPACE_POD_SECURITY: PodSecurityLevel = 'baseline';

/**
 * The `enforce-version` (and `warn-`, `audit-version`) of a cluster at this
 * Kubernetes version: its minor, `v1.34` for `1.34` or `1.34.5-gke.1000`, so
 * the standard does not change under the lab when the control plane is upgraded.
 * Returns undefined for a string that does not start with a minor version.
 */
export function podSecurityVersion(kubernetesVersion: string): string | undefined {
  const minor = /^v?(\d+\.\d+)(?:\.|-|$)/.exec(kubernetesVersion)?.[1];
  return minor ? `v${minor}` : undefined;
}

/**
 * The labels that hold a namespace's Pods to `level` in every mode, each pinned to `version`
 * (`v1.34`, see {@link podSecurityVersion}, or a Terraform expression that yields one).
 */
export function podSecurityLabels(level: PodSecurityLevel, version: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const mode of POD_SECURITY_MODES) {
    labels[`${PREFIX}/${mode}`] = level;
    labels[`${PREFIX}/${mode}-version`] = version;
  }
  return labels;
}

/** The label key of one mode (`pod-security.kubernetes.io/enforce`), for readers of the labels. */
export function podSecurityLabelKey(mode: PodSecurityMode, version = false): string {
  return `${PREFIX}/${mode}${version ? '-version' : ''}`;
}
