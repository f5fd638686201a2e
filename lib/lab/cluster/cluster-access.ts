/**
 * The host's access to an environment's clusters, from the deployed stacks'
 * outputs: where each cluster's API is (endpoint, CA), where the cluster is
 * (region, GKE location, account or project: the `placement` output where the
 * config places environments), and a Kubernetes client that authenticates as
 * the host, the cluster's admin:
 * - GKE: the host's Google access token (the one Terraform's google provider uses);
 * - EKS: a token made as `aws eks get-token` makes it, from the host's AWS
 *   credentials, or from the role the host assumes in the environment's account,
 *   as the `-lb` stack's providers do: the role its placement output records (the
 *   one it was deployed with), else the one `aws.accounts` names.
 */
import { LabConfig } from '../../config/schema';
import { DEFAULT_ACCOUNT_ROLE_NAME } from '../../config/schema';
import { gkeLocation } from '../../constructs/gcp/gke-cluster';
import { awsCredentials, AwsCredentials, eksToken } from '../../kit/aws/eks-token';
import { gcpCredentialsAsync } from '../../kit/google/google-credentials';
import { KubernetesClient } from '../../kit/kubernetes/kubernetes-client';
import { Cloud, PlacementOutput } from '../../model/contract';
import { HOST_ACCOUNT, accountRoleArn } from '../../model/slots';
import { EnvironmentOutputs } from '../files/outputs';

/** One cluster of an environment, as the host reaches it. */
export interface ClusterTarget {
  readonly env: string;
  readonly cloud: Cloud;
  readonly clusterName: string;
  /** The API's URL, `https://...`. */
  readonly server: string;
  /** The cluster's CA certificate, base64-encoded PEM (a kubeconfig's `certificate-authority-data`). */
  readonly caCertificateData: string;
  /** The region of the cluster's slot. */
  readonly region: string;
  /** Where the cluster API names it: GKE's zone or region (`--location`); EKS's region. */
  readonly location: string;
  /** The AWS account (its id, or `host` for the host's own) or the GCP project. */
  readonly owner: string;
  /** The role the host assumes in the environment's account (AWS, an account of `aws.accounts`). @default - none: the host's own credentials */
  readonly roleArn?: string;
}

/** Why a cluster cannot be reached from the outputs. */
export interface Unreachable {
  readonly why: string;
}

export function isUnreachable<T extends object>(value: T | Unreachable): value is Unreachable {
  return 'why' in value;
}

const pem = (data: string) => Buffer.from(data, 'base64').toString('utf8');

/** `cloud`'s cluster of one environment, from its outputs (the config fills in what stacks deployed before an output lack), or why not. */
export function clusterTarget(outputs: EnvironmentOutputs, cloud: Cloud, config: Pick<LabConfig, 'aws' | 'gcp'>): ClusterTarget | Unreachable {
  const stack = `${outputs.env}-${cloud}-cluster`;
  const info = outputs.clusters[cloud];
  if (!info) return { why: `no outputs of ${stack} (not deployed, or not in the outputs read)` };
  if (!info.cluster_name || !info.cluster_endpoint || !info.cluster_ca_certificate) {
    const missing = [!info.cluster_name && 'cluster_name', !info.cluster_endpoint && 'cluster_endpoint', !info.cluster_ca_certificate && 'cluster_ca_certificate'].filter(
      (m): m is string => typeof m === 'string',
    );
    return { why: `${stack} has no ${missing.join(' or ')} output (deployed before hoplab exported it: npx hoplab deploy --env ${outputs.env} --stacks ${cloud}-cluster adds it)` };
  }
  const placement = info.placement;
  const base = { env: outputs.env, cloud, clusterName: info.cluster_name, server: info.cluster_endpoint, caCertificateData: info.cluster_ca_certificate };
  if (cloud === 'aws') {
    const region = placement?.region ?? info.region ?? config.aws.region;
    const account = placement?.cloud === 'aws' ? placement.account : HOST_ACCOUNT;
    return { ...base, region, location: region, owner: account, ...(account === HOST_ACCOUNT ? {} : { roleArn: placedRoleArn(placement, account, config) }) };
  }
  const region = placement?.region ?? info.region ?? config.gcp.region;
  const zones = placement?.zones.length ? placement.zones : config.gcp.zones;
  return { ...base, region, location: info.cluster_location ?? gkeLocation(region, zones).location, owner: placement?.cloud === 'gcp' ? placement.project : config.gcp.project };
}

/**
 * The role the host reaches an environment in `account` through: the one its placement output records
 * (the role it was deployed with, whose EKS access entry is the cluster's admin, even after the account
 * has left aws.accounts or its roleName has changed), else the one aws.accounts names (outputs written
 * before the placement output named the role), else the default role.
 */
function placedRoleArn(placement: PlacementOutput | null, account: string, config: Pick<LabConfig, 'aws'>): string {
  if (placement?.cloud === 'aws' && placement.role_arn) return placement.role_arn;
  const listed = (config.aws.accounts ?? []).find((a) => a.id === account);
  return accountRoleArn(account, listed?.roleName ?? DEFAULT_ACCOUNT_ROLE_NAME);
}

/** Bearer tokens for the host, per cluster. */
export interface HostTokens {
  token(target: ClusterTarget): Promise<string>;
}

/** Leave a token this long before it expires. */
const RENEW_BEFORE_MS = 60_000;

/** The share of `reaskAfterMs` at whose end an answer in use is asked again ahead, while it still serves. */
export const REASK_AHEAD = 0.25;

/**
 * The host's tokens: Google's access token (asked once per run), and per EKS cluster a token made from
 * the host's credentials or the assumed role's (asked once per role and region), renewed before it runs out.
 * With `reaskAfterMs` (a process that runs for hours: watch's live page) Google's token and the AWS
 * credentials, or the failure to get them, are kept that long and then asked again: a Google token
 * lasts an hour, assumed-role credentials an hour by default, and a host who signs in during the run
 * is seen at the next ask. One that is used in the last {@link REASK_AHEAD} of that time is asked
 * again then, while it goes on serving until the new answer comes (a gcloud run or an AssumeRole
 * takes about a second, and every read of the clusters would otherwise wait for it: watch
 * --endpoints reads each cluster twice a second); gcloud prints a token with at least 5 minutes
 * left (`_CREDENTIALS_EXPIRY_WINDOW = '300s'` in googlecloudsdk/core/credentials/store.py), so one
 * kept 2 minutes and used a few seconds more is still good.
 */
export function hostTokens(
  options: {
    readonly env?: NodeJS.ProcessEnv;
    readonly now?: () => number;
    /** The AWS credentials for a region and role. @default awsCredentials: the SDK's default chain, or the role assumed with it */
    readonly awsCredentials?: (region: string, roleArn?: string) => Promise<AwsCredentials>;
    /** The host's Google token. @default - gcpCredentialsAsync: GOOGLE_OAUTH_ACCESS_TOKEN, Application Default Credentials, gcloud */
    readonly googleToken?: () => string | undefined | Promise<string | undefined>;
    /** How long Google's token and the AWS credentials (or the failure to get them) are kept. @default - the whole run */
    readonly reaskAfterMs?: number;
  } = {},
): HostTokens {
  const now = options.now ?? Date.now;
  const aws = options.awsCredentials ?? ((region: string, roleArn?: string) => awsCredentials({ region, ...(roleArn ? { roleArn } : {}) }));
  const googleToken = options.googleToken ?? (async () => (await gcpCredentialsAsync(options.env))?.accessToken);
  const keep = options.reaskAfterMs ?? Infinity;
  const google = kept(
    () =>
      Promise.resolve()
        .then(googleToken)
        .then((found) => {
          if (!found) throw new Error('no Google credentials: run gcloud auth application-default login (the identity that deployed)');
          return found;
        }),
    keep,
    now,
  );
  const credentials = new Map<string, () => Promise<AwsCredentials>>();
  const eks = new Map<string, { token: string; until: number; credentials: Promise<AwsCredentials> }>();
  return {
    async token(target) {
      if (target.cloud === 'gcp') return google();
      const key = `${target.region} ${target.roleArn ?? ''}`;
      let ask = credentials.get(key);
      if (!ask) {
        ask = kept(() => aws(target.region, target.roleArn), keep, now);
        credentials.set(key, ask);
      }
      const answer = ask();
      // A token is made again before it runs out, and from credentials asked again.
      const cached = eks.get(target.clusterName + key);
      if (cached && cached.credentials === answer && cached.until - RENEW_BEFORE_MS > now()) return cached.token;
      const made = await eksToken({ clusterName: target.clusterName, region: target.region, credentials: await answer, signingDate: new Date(now()) });
      eks.set(target.clusterName + key, { token: made.token, until: Date.parse(made.expirationTimestamp), credentials: answer });
      return made.token;
    },
  };
}

/**
 * `ask`'s answer, or the failure to get it, kept `keep` ms and then asked again; one that was got is
 * asked again ahead, in the last {@link REASK_AHEAD} of that time, and serves until the new answer
 * (or failure) comes.
 */
function kept<T>(ask: () => Promise<T>, keep: number, now: () => number): () => Promise<T> {
  interface Asked {
    readonly answer: Promise<T>;
    readonly at: number;
    /** Whether it came, rather than failed; undefined while asked. */
    got?: boolean;
  }
  let current: Asked | undefined;
  let next: Asked | undefined;
  const start = (): Asked => {
    const asked: Asked = { answer: ask(), at: now() };
    const settle = (got: boolean) => {
      asked.got = got;
      if (next === asked) [current, next] = [asked, undefined];
    };
    asked.answer.then(
      () => settle(true),
      () => settle(false),
    );
    return asked;
  };
  return () => {
    const age = current ? now() - current.at : Infinity;
    if (current?.got === true && next) return current.answer;
    if (current?.got === true && age >= keep * (1 - REASK_AHEAD) && age < keep) {
      next = start();
      return current.answer;
    }
    if (!current || age >= keep) {
      current = start();
      next = undefined;
    }
    return current.answer;
  };
}

/** A client of `target`'s API that authenticates as the host. */
export function hostClusterClient(target: ClusterTarget, tokens: HostTokens, timeoutMs?: number): KubernetesClient {
  return new KubernetesClient({ server: target.server, caCertificate: pem(target.caCertificateData), token: () => tokens.token(target), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}
