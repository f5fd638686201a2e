/**
 * Each attendee's kubeconfig, `<env>.kubeconfig` beside their handout: one
 * context per cluster of their environment, in namespace hoplab, with
 * - their own cloud identity where they have one: `aws eks get-token` (EKS;
 *   with a second context adding `--role-arn` for a role they assume rather
 *   than sign in as), `gke-gcloud-auth-plugin` (GKE); nothing secret;
 * - otherwise a token of their ServiceAccount, minted now by the host
 *   (TokenRequest): a secret, valid until the `expirationTimestamp` the API
 *   answered.
 * Written from the outputs (endpoint, CA), never from `aws eks
 * update-kubeconfig` (it needs eks:DescribeCluster, which attendees do not get).
 */
import { AttendeeIdentities } from '../../config/attendees';
import { Kubeconfig, KubeconfigContext, kubeconfigYaml, KubeconfigUser } from '../../kit/kubernetes/kubeconfig';
import { mintAttendeeToken } from '../../lab/cluster/attendee-token';
import { clusterTarget, ClusterTarget, hostClusterClient, HostTokens, isUnreachable, Unreachable } from '../../lab/cluster/cluster-access';
import { EnvironmentOutputs } from '../../lab/files/outputs';
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { ATTENDEE_SERVICE_ACCOUNT, isRefusal, parseIamPrincipal } from '../../model/identities';
import { APP_NAMESPACE } from '../../model/names';

/** The file of an environment's kubeconfig, beside its handout. */
export const kubeconfigFile = (env: string) => `${env}.kubeconfig`;

/** What gke-gcloud-auth-plugin prints when missing, as `gcloud container clusters get-credentials` writes it. */
export const GKE_AUTH_PLUGIN_HINT = 'Install gke-gcloud-auth-plugin for use with kubectl by following https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin';

/** How the attendee authenticates to one cluster. */
export type KubeconfigAuth =
  | {
      readonly kind: 'token';
      /** When the minted token expires, as the cluster answered; undefined when none was minted here (--no-kubeconfigs). */
      readonly expirationTimestamp?: string;
      readonly warnings: readonly string[];
    }
  | { readonly kind: 'aws'; readonly identity: string; readonly assumeRoleContext?: string }
  | { readonly kind: 'gcloud'; readonly identity: string };

/** One cluster in the file. */
export interface KubeconfigEntry {
  readonly target: ClusterTarget;
  readonly context: string;
  readonly auth: KubeconfigAuth;
}

/** An environment's kubeconfig: its clusters, and why a cluster is not in it. */
export interface EnvironmentKubeconfig {
  readonly env: string;
  readonly file: string;
  readonly entries: readonly KubeconfigEntry[];
  /** Per cloud, why it has no context (no outputs, no CA output, the token could not be minted). */
  readonly missing: Partial<Record<Cloud, string>>;
  /** Whether the file holds a token (a secret). */
  readonly secret: boolean;
  /** The file's text; undefined when no cluster made it in. */
  readonly text?: string;
}

export interface KubeconfigSources {
  readonly outputs: EnvironmentOutputs;
  readonly attendee: AttendeeIdentities;
  readonly config: Pick<LabConfig, 'aws' | 'gcp'>;
  /** The host's access, to mint tokens. */
  readonly tokens: HostTokens;
  /** The lifetime asked for a token. */
  readonly tokenSeconds: number;
  /** Bound of each request to a cluster. @default - the client's */
  readonly timeoutMs?: number;
  /** Mint tokens and make the file; false: only say what it would hold (the handout's words), mint nothing. @default true */
  readonly write?: boolean;
}

/** The attendee's authentication to `target`: their identity, or a token minted now; or why neither. */
async function authFor(target: ClusterTarget, sources: KubeconfigSources): Promise<{ readonly auth: KubeconfigAuth; readonly token?: string } | Unreachable> {
  const identity = sources.attendee[target.cloud];
  if (identity !== undefined) {
    if (target.cloud === 'gcp') return { auth: { kind: 'gcloud', identity } };
    const principal = parseIamPrincipal(identity);
    return { auth: { kind: 'aws', identity, ...(!isRefusal(principal) && principal.kind === 'role' ? { assumeRoleContext: `${target.clusterName}-assume-role` } : {}) } };
  }
  if (sources.write === false) return { auth: { kind: 'token', warnings: [] } };
  try {
    const minted = await mintAttendeeToken(hostClusterClient(target, sources.tokens, sources.timeoutMs), sources.tokenSeconds);
    return { auth: { kind: 'token', expirationTimestamp: minted.expirationTimestamp, warnings: minted.warnings }, token: minted.token };
  } catch (error) {
    return { why: `no token for ${ATTENDEE_SERVICE_ACCOUNT} in ${target.clusterName}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The users and contexts of one cluster. */
function usersOf(entry: KubeconfigEntry & { readonly token?: string }): { users: KubeconfigUser[]; contexts: KubeconfigContext[] } {
  const { target, context, auth } = entry;
  const ctx = (name: string, user: string): KubeconfigContext => ({ name, cluster: target.clusterName, user, namespace: APP_NAMESPACE });
  if (auth.kind === 'token') return { users: [{ name: `${context}-${ATTENDEE_SERVICE_ACCOUNT}`, token: entry.token! }], contexts: [ctx(context, `${context}-${ATTENDEE_SERVICE_ACCOUNT}`)] };
  if (auth.kind === 'gcloud') {
    return {
      users: [{ name: `${context}-gcloud`, exec: { command: 'gke-gcloud-auth-plugin', installHint: GKE_AUTH_PLUGIN_HINT, provideClusterInfo: true } }],
      contexts: [ctx(context, `${context}-gcloud`)],
    };
  }
  const args = ['--region', target.region, 'eks', 'get-token', '--cluster-name', target.clusterName, '--output', 'json'];
  const users: KubeconfigUser[] = [{ name: `${context}-aws`, exec: { command: 'aws', args } }];
  const contexts = [ctx(context, `${context}-aws`)];
  if (auth.assumeRoleContext) {
    users.push({ name: auth.assumeRoleContext, exec: { command: 'aws', args: [...args, '--role-arn', auth.identity] } });
    contexts.push(ctx(auth.assumeRoleContext, auth.assumeRoleContext));
  }
  return { users, contexts };
}

/** The environment's kubeconfig: its clusters from the outputs, a token minted for each cluster where the attendee has no identity. */
export async function environmentKubeconfig(sources: KubeconfigSources): Promise<EnvironmentKubeconfig> {
  const env = sources.outputs.env;
  const missing: Partial<Record<Cloud, string>> = {};
  const entries: (KubeconfigEntry & { readonly token?: string })[] = [];
  for (const cloud of ['aws', 'gcp'] as const) {
    if (!sources.outputs.clusters[cloud]) continue;
    const target = clusterTarget(sources.outputs, cloud, sources.config);
    if (isUnreachable(target)) {
      missing[cloud] = target.why;
      continue;
    }
    const made = await authFor(target, sources);
    if (isUnreachable(made)) {
      missing[cloud] = made.why;
      continue;
    }
    entries.push({ target, context: target.clusterName, auth: made.auth, ...(made.token ? { token: made.token } : {}) });
  }
  const secret = entries.some((e) => e.auth.kind === 'token');
  const result = { env, file: kubeconfigFile(env), entries: entries.map(({ target, context, auth }) => ({ target, context, auth })), missing, secret };
  if (entries.length === 0 || sources.write === false) return result;
  const parts = entries.map(usersOf);
  const config: Kubeconfig = {
    clusters: entries.map((e) => ({ name: e.target.clusterName, server: e.target.server, certificateAuthorityData: e.target.caCertificateData })),
    users: parts.flatMap((p) => p.users),
    contexts: parts.flatMap((p) => p.contexts),
  };
  const until = entries.flatMap((e) => (e.auth.kind === 'token' ? [`${e.context} until ${e.auth.expirationTimestamp}`] : []));
  const comment = [
    `hoplab: ${sources.attendee.name}'s kubeconfig (environment ${env}): one context per cluster, namespace ${APP_NAMESPACE}.`,
    `Use it: kubectl --kubeconfig ${kubeconfigFile(env)} --context <context> get pods (contexts: ${config.contexts.map((c) => c.name).join(', ')}).`,
    ...(secret
      ? [
          `SECRET: it holds a token (${until.join('; ')}). Whoever has this file acts as you in your cluster: keep it to yourself.`,
          `When it runs out the host mints a new one: npx hoplab handout --refresh-kubeconfigs --env ${env}`,
        ]
      : ['It holds no secret: kubectl asks your own cloud credentials for a token each time.']),
  ];
  return { ...result, text: kubeconfigYaml(config, comment) };
}
