/**
 * Waits until a GKE cluster serves the CustomResourceDefinitions the
 * `<env>-gcp-lb` stack's `kubernetes_manifest` resources are, before it is
 * planned: the kubernetes provider reads a custom resource's schema from the
 * cluster at plan time. The Gateway API CRDs (the `gateway` exposure) come
 * some time after `gateway_api_config` is set on the cluster (the cluster
 * stack), not within its apply; GKE's own BackendConfig (the Ingress
 * exposures' Cloud Armor policy) and GCPBackendPolicy (the Gateway's) come
 * with the cluster's HTTP load balancing and Gateway API, and are waited for
 * the same way where they are used.
 */
import { ApiError, GCP_REQUEST_TIMEOUT_MS, GoogleApiReader } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS } from '../../lab/checks/google-calls';
import { EXPOSURE_BUILT_BY, gkeNeedsSecurityPolicy } from '../../model/exposure-facts';
import { ExposureMode } from '../../model/modes';

/** The CRDs the `gateway` exposure's objects are: a Gateway and an HTTPRoute. */
export const GATEWAY_API_CRDS = ['gateways.gateway.networking.k8s.io', 'httproutes.gateway.networking.k8s.io'] as const;
/** GKE's BackendConfig: the Ingress exposures' Cloud Armor policy (a narrowed app.allowedSourceCidrs). */
export const BACKEND_CONFIG_CRD = 'backendconfigs.cloud.google.com';
/** GKE's GCPBackendPolicy: the `gateway` exposure's Cloud Armor policy. */
export const GCP_BACKEND_POLICY_CRD = 'gcpbackendpolicies.networking.gke.io';

/** What each CRD is for, in the messages. */
const CRD_USE: Readonly<Record<string, { readonly label: string; readonly objects: string }>> = {
  [GATEWAY_API_CRDS[0]]: { label: 'Gateway API', objects: "the gateway exposure's Gateway and HTTPRoute" },
  [GATEWAY_API_CRDS[1]]: { label: 'Gateway API', objects: "the gateway exposure's Gateway and HTTPRoute" },
  [BACKEND_CONFIG_CRD]: { label: 'BackendConfig', objects: "the Ingress exposures' BackendConfig (their Cloud Armor policy)" },
  [GCP_BACKEND_POLICY_CRD]: { label: 'GCPBackendPolicy', objects: "the gateway exposure's GCPBackendPolicy (its Cloud Armor policy)" },
};

/**
 * The CRDs `<env>-gcp-lb` makes objects of, for the exposures configured: the
 * Gateway API's with the `gateway` exposure; with a narrowed
 * `app.allowedSourceCidrs` (the Cloud Armor policy), BackendConfig where an
 * Ingress exposure is, GCPBackendPolicy where the Gateway is (as the lb stack
 * decides: gcp-lb-stack.ts passes the policy to both).
 */
export function gcpLbCrds(exposures: readonly ExposureMode[], allowedSourceCidrs: readonly string[]): string[] {
  const built = (kind: string) => exposures.some((mode) => EXPOSURE_BUILT_BY.gcp[mode] === kind);
  const policy = gkeNeedsSecurityPolicy(exposures, allowedSourceCidrs);
  return [...(built('gke-gateway') ? GATEWAY_API_CRDS : []), ...(policy && built('gce-ingress') ? [BACKEND_CONFIG_CRD] : []), ...(policy && built('gke-gateway') ? [GCP_BACKEND_POLICY_CRD] : [])];
}

/** `a`, `a and b`, `a, b and c`. */
const listWords = (words: readonly string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);
const uses = (crds: readonly string[], key: 'label' | 'objects') => [...new Set(crds.map((c) => CRD_USE[c]?.[key] ?? c))];
/** `Gateway API CRDs`, `Gateway API and GCPBackendPolicy CRDs`. */
export const crdWords = (crds: readonly string[]) => `${listWords(uses(crds, 'label'))} CRDs`;

/** How long deploy waits for them by default: GKE gives no figure; a third-party report saw GatewayClasses appear after up to 45 minutes, most clusters take minutes. */
export const GATEWAY_CRD_WAIT_MS = 20 * 60_000;

export interface GatewayCrdWaitOptions {
  /** The CRDs to wait for. @default GATEWAY_API_CRDS */
  readonly crds?: readonly string[];
  readonly project: string;
  /** The cluster's location (zone or region). */
  readonly location: string;
  readonly clusterName: string;
  /** Application Default Credentials' token: the identity the gcp-lb stack's kubernetes provider uses. */
  readonly accessToken: string;
  /** @default - none */
  readonly quotaProject?: string;
  /** @default GOOGLE_API_BASES.container */
  readonly containerApi?: string;
  /** The Kubernetes API base instead of `https://<cluster endpoint>` (tests). @default - from the cluster */
  readonly kubernetesApi?: string;
  /** Bound of each request. @default GCP_REQUEST_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** Longest wait in all. @default GATEWAY_CRD_WAIT_MS */
  readonly waitMs?: number;
  /** Between two looks. @default 10000 */
  readonly pollMs?: number;
  /** Between two progress lines while waiting. @default 30000 */
  readonly progressMs?: number;
  /** Progress lines. */
  readonly write: (line: string) => void;
  /** Stops the wait (Ctrl-C). */
  readonly signal?: AbortSignal;
}

/** What one CRD looks like now. */
type CrdState = 'established' | 'absent' | 'not established yet' | `unreadable: ${string}`;

const short = (name: string) => name.split('.')[0];
const minutes = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('interrupted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('interrupted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves once every CRD of `crds` ({@link GATEWAY_API_CRDS} by default) exists and is
 * Established in the cluster (`GET .../customresourcedefinitions/<name>` on
 * the cluster's endpoint, trusted through its CA, as the kubernetes provider
 * does); rejects with what to check and how to retry when they are not within
 * `waitMs`, or at once when the cluster refuses the identity.
 */
export async function waitForGatewayCrds(options: GatewayCrdWaitOptions): Promise<void> {
  const started = Date.now();
  const crds = options.crds ?? GATEWAY_API_CRDS;
  const what = crdWords(crds);
  const gateway = crds.some((c) => (GATEWAY_API_CRDS as readonly string[]).includes(c));
  const waitMs = options.waitMs ?? GATEWAY_CRD_WAIT_MS;
  const timeoutMs = options.timeoutMs ?? GCP_REQUEST_TIMEOUT_MS;
  const google = new GoogleApiReader({ accessToken: options.accessToken, timeoutMs, quotaProject: options.quotaProject, bases: { container: options.containerApi } });
  const cluster = await google.call(CALLS.clustersGet, { project: options.project, location: options.location, cluster: options.clusterName });
  const endpoint = typeof cluster.endpoint === 'string' ? cluster.endpoint : '';
  const ca = (cluster.masterAuth as { clusterCaCertificate?: string } | undefined)?.clusterCaCertificate;
  if (!endpoint || !ca)
    throw new Error(
      `GKE cluster ${options.clusterName} (${options.location}) has no endpoint or CA certificate yet (status ${String(cluster.status ?? 'unknown')}); run npm run deploy again when it is RUNNING`,
    );
  const kubernetes = new GoogleApiReader({
    accessToken: options.accessToken,
    timeoutMs,
    kubernetes: { base: options.kubernetesApi ?? `https://${endpoint}`, caCertificate: Buffer.from(ca, 'base64').toString('utf8') },
  });

  const look = async (name: string): Promise<CrdState> => {
    try {
      const crd = await kubernetes.call(CALLS.customResourceDefinitionGet, { crd: name });
      const conditions = ((crd.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? []) as { type?: string; status?: string }[];
      return conditions.some((c) => c.type === 'Established' && c.status === 'True') ? 'established' : 'not established yet';
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return 'absent';
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new Error(
          `cluster ${options.clusterName} refused to show CRD ${name} (${error.status}): ${error.message}; ` +
            (error.status === 403
              ? 'the deploying identity needs container.customResourceDefinitions.get (roles/container.admin has it; npm run preflight checks it)'
              : 'the Google token was refused: run gcloud auth application-default login again'),
        );
      }
      return `unreadable: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  let lastProgress = -Infinity;
  for (;;) {
    // Every look settles before a refusal is thrown: no request is left running.
    const settled = await Promise.allSettled(crds.map(async (name) => [name, await look(name)] as const));
    const refused = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (refused) throw refused.reason;
    const states = settled.map((r) => (r as PromiseFulfilledResult<readonly [string, CrdState]>).value);
    const elapsed = Date.now() - started;
    if (states.every(([, state]) => state === 'established')) {
      options.write(`${what} served by ${options.clusterName} (${crds.map(short).join(', ')}) after ${minutes(elapsed)}`);
      return;
    }
    const now = states.map(([name, state]) => `${short(name)} ${state}`).join(', ');
    if (elapsed >= waitMs) {
      throw new Error(
        `GKE has not installed the ${what} in cluster ${options.clusterName} within ${minutes(waitMs)} (${now}); ` +
          `${listWords(uses(crds, 'objects'))} cannot be planned without them. ` +
          `Check: ${
            gateway
              ? `that the cluster's Gateway API channel is CHANNEL_STANDARD (gcloud container clusters describe ${options.clusterName} --location ${options.location} --project ${options.project} --format="value(networkConfig.gatewayApiConfig.channel)"), `
              : ''
          }` +
          `that HTTP load balancing is on, that this machine's address is in gcp.masterAuthorizedCidrs, and kubectl get crd ${crds.join(' ')}. ` +
          `Then run npm run deploy again: the cluster stack is applied, so only the -lb stack is left${gateway ? ' (or leave gateway out of exposures)' : ''}`,
      );
    }
    if (elapsed - lastProgress >= (options.progressMs ?? 30_000)) {
      options.write(`waiting for GKE to install the ${what} in ${options.clusterName}: ${now} (${minutes(elapsed)} of at most ${minutes(waitMs)})`);
      lastProgress = elapsed;
    }
    await sleep(Math.min(options.pollMs ?? 10_000, Math.max(0, waitMs - elapsed)), options.signal);
  }
}
