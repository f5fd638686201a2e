/**
 * Google REST calls as data: the APIs and their bases, one method's name in
 * Google's reference, its HTTP verb and path, and the IAM permissions the
 * caller needs for it. The reader ({@link GoogleApiReader}) only makes calls
 * of this shape, so a call cannot be made without naming its permission. The
 * table of the calls hoplab makes is the lab's (lib/lab/checks/google-calls.ts).
 */
/** The Google APIs hoplab calls, and the cluster's Kubernetes API (authorized by IAM on GKE). */
export type GoogleApi = 'compute' | 'container' | 'iam' | 'resourceManager' | 'resourceManagerV3' | 'serviceUsage' | 'cloudQuotas' | 'tokenInfo' | 'kubernetes';

/** Base URLs of the Google APIs; tests serve recorded-format answers on loopback instead. The Kubernetes API's is the cluster's endpoint. */
export type GoogleApiBases = Readonly<Record<Exclude<GoogleApi, 'kubernetes'>, string>>;

export const GOOGLE_API_BASES: GoogleApiBases = {
  compute: 'https://compute.googleapis.com/compute/v1',
  container: 'https://container.googleapis.com/v1',
  iam: 'https://iam.googleapis.com/v1',
  resourceManager: 'https://cloudresourcemanager.googleapis.com/v1',
  // Folders are not in Resource Manager v1; their policies (and the organization's, for one shape of both) are read from v3.
  resourceManagerV3: 'https://cloudresourcemanager.googleapis.com/v3',
  serviceUsage: 'https://serviceusage.googleapis.com/v1',
  cloudQuotas: 'https://cloudquotas.googleapis.com/v1',
  tokenInfo: 'https://oauth2.googleapis.com/tokeninfo',
};

/**
 * APIs that take the quota project (`x-goog-user-project`), as Google's client
 * libraries and gcloud send it. Not tokeninfo (it reads the token itself) and
 * not the cluster's Kubernetes API.
 */
export const QUOTA_PROJECT_APIS: ReadonlySet<GoogleApi> = new Set(['compute', 'container', 'iam', 'resourceManager', 'resourceManagerV3', 'serviceUsage', 'cloudQuotas']);

/** One REST method. */
export interface GoogleCall {
  /** Its name in Google's reference, e.g. `compute.firewalls.list`. */
  readonly name: string;
  readonly api: GoogleApi;
  readonly verb: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path under the API's base; `{param}` is filled in per request (URL-encoded). */
  readonly path: string;
  /** IAM permissions the caller needs on the resource the path names: the project, or a folder or organization (empty only with {@link noPermission}). */
  readonly permissions: readonly string[];
  /** Why the call needs no permission. */
  readonly noPermission?: string;
  /**
   * Why its permissions are not asked of every deployer: the command makes the call only in
   * some cases, and goes on without it, saying what it could not read ({@link optionalPermissions}).
   */
  readonly optional?: string;
}

/** A call of {@link GoogleCall}'s shape, for a table of them. */
export const googleCall = (name: string, api: GoogleApi, verb: GoogleCall['verb'], path: string, permissions: readonly string[], noPermission?: string, optional?: string): GoogleCall => ({
  name,
  api,
  verb,
  path,
  permissions,
  ...(noPermission ? { noPermission } : {}),
  ...(optional ? { optional } : {}),
});

/** The IAM permissions of some calls, sorted and without duplicates. */
export function permissionsOf(calls: readonly GoogleCall[]): string[] {
  return [...new Set(calls.flatMap((c) => c.permissions))].sort();
}

/** The path of a call with its parameters filled in (each URL-encoded); a missing parameter is a programming error. */
export function callPath(c: GoogleCall, params: Readonly<Record<string, string>>): string {
  return c.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${c.name}: no value for {${key}} in ${c.path}`);
    return encodeURIComponent(value);
  });
}
