/** Versions hoplab is tested against: EKS releases and the AWS Load Balancer Controller charts whose IAM policy it ships. */
/** EKS Kubernetes versions hoplab is tested against. */
export const EKS_VERSIONS = ['1.31', '1.32', '1.33', '1.34', '1.35'] as const;

export type EksVersion = (typeof EKS_VERSIONS)[number];

/** Where the upstream kubectl image is published. */
export const KUBECTL_IMAGE_REPOSITORY = 'registry.k8s.io/kubectl';

/**
 * The `registry.k8s.io/kubectl` tag hoplab runs in a cluster of each EKS minor
 * (the ALB Gateway's wait Job): the same minor as the API server, since kubectl
 * is supported within one minor of it (kubernetes.io/releases/version-skew-policy/#kubectl).
 * Keyed by EKS_VERSIONS, so a new EKS version does not compile without its tag.
 *
 * Each is a published patch tag, read where the project publishes it (no
 * registry is reachable from here, so not pulled):
 * - v1.31.12, v1.32.8, v1.33.5: in the image promoter's manifest of
 *   registry.k8s.io (kubernetes/k8s.io, `registry.k8s.io/images/k8s-staging-kubernetes/images.yaml`,
 *   commit ecf019a8), the newest promoted patch of each minor in that copy.
 * - v1.34.3, v1.35.0: in the "Container Images" table of the upstream
 *   changelog (kubernetes/kubernetes `CHANGELOG/CHANGELOG-1.34.md` at 034debc1,
 *   `CHANGELOG-1.35.md` at 8a84988b), which lists `registry.k8s.io/kubectl:<tag>`.
 * Newer patches exist; a bump is a one-line change (check with
 * `crane ls registry.k8s.io/kubectl` or the changelog first).
 */
export const KUBECTL_IMAGE_TAGS: Readonly<Record<EksVersion, string>> = {
  '1.31': 'v1.31.12',
  '1.32': 'v1.32.8',
  '1.33': 'v1.33.5',
  '1.34': 'v1.34.3',
  '1.35': 'v1.35.0',
};

/** The kubectl image at the minor of an EKS cluster of `kubernetesVersion`. */
export function kubectlImage(kubernetesVersion: EksVersion): string {
  return `${KUBECTL_IMAGE_REPOSITORY}:${KUBECTL_IMAGE_TAGS[kubernetesVersion]}`;
}

/** AWS Load Balancer Controller Helm chart versions whose IAM policy hoplab ships. */
export const LB_CONTROLLER_CHART_VERSIONS = ['3.5.0'] as const;

/** The Cilium release hoplab installs on EKS (`aws.datapath: cilium`): its Helm chart's version, whose chart pins the agent image below. */
export const CILIUM_VERSION = '1.18.5';

/**
 * Cilium's agent image at {@link CILIUM_VERSION}, by tag and digest: the image the
 * chart of that version installs (its values.yaml `image.digest`), as `cilium status`
 * prints it for clusters installed from chart 1.18.5 (several public install write-ups
 * of 2026 agree on this digest). No registry is reachable from here, so it is not
 * pulled: `crane digest quay.io/cilium/cilium:v1.18.5` confirms it. The datapath
 * inspector runs it on every datapath: it carries bash, iptables (legacy and nf_tables
 * backends), ipset, iproute2, awk and `cilium-dbg` (Cilium's images/runtime and
 * images/cilium Dockerfiles), but not `nft`, `ipvsadm` or `conntrack`.
 */
export const CILIUM_AGENT_IMAGE = `quay.io/cilium/cilium:v${CILIUM_VERSION}@sha256:2c92fb05962a346eaf0ce11b912ba434dc10bd54b9989e970416681f4a069628`;
