/**
 * Requests for more quota: for every quota preflight finds short, the request
 * that would make room (the value in use plus what the lab needs, or, checked
 * without credentials, what the lab needs with what a fresh account holds),
 * as a command to paste (AWS CLI `service-quotas
 * request-service-quota-increase`; gcloud `quotas preferences create`, or the
 * console where no public source names the quota's Cloud Quotas ID: `--request-quotas`
 * then finds it by the quota's metric in the project's own quota list), and the
 * record of the requests `preflight --request-quotas` filed
 * (`.hoplab/quota-requests.json`), whose status later runs show.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { commandLines, wrapIndented } from '../../kit/terminal/text-table';
import { QuotaSpec } from '../../model/quotas';
import { AwsSlot } from '../../model/slots';
import { parseJson } from '../../config/json-syntax';

/** The Compute Engine service, as Cloud Quotas names it. */
export const COMPUTE_SERVICE = 'compute.googleapis.com';

/** A request for more of one AWS quota in one slot (account x region). */
export interface AwsQuotaRequest {
  readonly cloud: 'aws';
  /** The quota's id in the table (`vpcs`), its name and Service Quotas codes. */
  readonly quota: { readonly id: string; readonly name: string; readonly serviceCode: string; readonly quotaCode: string };
  readonly region: string;
  /** The account of `aws.accounts` and the role assumed there; undefined: the host's own account. */
  readonly account?: { readonly id: string; readonly roleArn: string };
  /** `us-east-2`, or `us-east-2 of account 111122223333`. */
  readonly where: string;
  /** The value to ask for. */
  readonly desired: number;
}

/** A request for more of one Compute Engine quota of a project (per region for a regional quota). */
export interface GcpQuotaRequest {
  readonly cloud: 'gcp';
  /**
   * The metric (`CPUS`), its name, and its Cloud Quotas ID when a public source names one (or `--request-quotas`
   * found it), else the metric as Cloud Quotas names it, to find the ID by.
   */
  readonly quota: { readonly id: string; readonly name: string; readonly cloudQuotaId?: string; readonly quotaMetric?: string };
  readonly project: string;
  /** The `region` dimension of a regional quota. */
  readonly region?: string;
  /** `project p1`, or `us-central1 of project p1`. */
  readonly where: string;
  readonly desired: number;
}

export type QuotaRequest = AwsQuotaRequest | GcpQuotaRequest;

/** The request for an AWS quota of `slot`, asking for `desired`. */
export function awsQuotaRequest(
  shortfall: { readonly slot: AwsSlot; readonly quota: QuotaSpec; readonly used: number; readonly need: number },
  desired = shortfall.used + shortfall.need,
): AwsQuotaRequest {
  const { slot, quota } = shortfall;
  return {
    cloud: 'aws',
    quota: { id: quota.id, name: quota.name, serviceCode: quota.serviceCode ?? '', quotaCode: quota.quotaCode ?? '' },
    region: slot.region,
    ...(slot.account ? { account: { id: slot.account.id, roleArn: slot.account.roleArn } } : {}),
    where: slot.account ? `${slot.region} of account ${slot.account.id}` : slot.region,
    desired,
  };
}

/** The request for a GCP quota of `project` (and `region`, for a regional quota), asking for `desired`. */
export function gcpQuotaRequest(quota: QuotaSpec, project: string, region: string | undefined, desired: number): GcpQuotaRequest {
  const regional = quota.scope !== 'project' ? region : undefined;
  return {
    cloud: 'gcp',
    quota: {
      id: quota.id,
      name: quota.name,
      ...(quota.cloudQuotaId ? { cloudQuotaId: quota.cloudQuotaId } : quota.quotaMetric ? { quotaMetric: quota.quotaMetric } : {}),
    },
    project,
    ...(regional ? { region: regional } : {}),
    where: regional ? `${regional} of project ${project}` : `project ${project}`,
    desired,
  };
}

/** `aws service-quotas request-service-quota-increase ...`, ready to paste (with the account to run it in, as a comment). */
export function awsRequestCommand(request: AwsQuotaRequest): string {
  const command = `aws service-quotas request-service-quota-increase --service-code ${request.quota.serviceCode} --quota-code ${request.quota.quotaCode} --desired-value ${request.desired} --region ${request.region}`;
  return request.account ? `${command}  # with credentials of account ${request.account.id} (its role ${request.account.roleArn})` : command;
}

/** The quota preference ID hoplab files a request under: `hoplab-cpus-per-project-region-us-central1`. */
export function preferenceId(request: GcpQuotaRequest): string {
  return ['hoplab', request.quota.cloudQuotaId ?? request.quota.id, request.region]
    .filter(Boolean)
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
}

/** The console page where a project's quotas are raised by hand. */
export function quotasConsoleUrl(project: string): string {
  return `https://console.cloud.google.com/iam-admin/quotas?project=${encodeURIComponent(project)}`;
}

/**
 * `gcloud beta quotas preferences create ...` (Cloud Quotas; an increase needs a contact email, `email`
 * when known), or, without a Cloud Quotas ID, the console page and what to ask for there (and, for a
 * quota with a metric to find its ID by, that `--request-quotas` files it).
 */
export function gcpRequestCommand(request: GcpQuotaRequest, email?: string): string {
  if (!request.quota.cloudQuotaId) {
    const filer = request.quota.quotaMetric ? ', or let npx hoplab preflight --request-quotas find its ID and file it' : '';
    return `${quotasConsoleUrl(request.project)}  # ask for ${request.desired} of "${request.quota.name}"${request.region ? ` in ${request.region}` : ''}${filer}`;
  }
  return [
    'gcloud beta quotas preferences create',
    `--service=${COMPUTE_SERVICE}`,
    `--project=${request.project}`,
    `--quota-id=${request.quota.cloudQuotaId}`,
    `--preferred-value=${request.desired}`,
    ...(request.region ? [`--dimensions=region=${request.region}`] : []),
    `--preference-id=${preferenceId(request)}`,
    `--email=${email ?? 'YOUR_EMAIL'}`,
  ].join(' ');
}

/** The command of any request. */
export function requestCommand(request: QuotaRequest, email?: string): string {
  return request.cloud === 'aws' ? awsRequestCommand(request) : gcpRequestCommand(request, email);
}

/**
 * A request's command for the terminal: a comment line saying where to run it when that is not
 * obvious, then the command broken before its flags with shell continuations (` \`), so that each
 * line fits `width` and the lines still paste as one command.
 */
export function requestLines(request: QuotaRequest, email: string | undefined, width: number, indent = '    '): string[] {
  const [command, comment] = requestCommand(request, email).split('  # ');
  return [...(comment ? wrapIndented(comment, width, `${indent}# `) : []), ...commandLines(command, width, indent)];
}

/** A request `preflight --request-quotas` filed, as recorded. */
export interface FiledRequest {
  readonly request: QuotaRequest;
  readonly filedAt: string;
  /** AWS: the Service Quotas request id and its status when filed. */
  readonly aws?: { readonly requestId: string; readonly caseId?: string; readonly status: string };
  /** GCP: the quota preference's resource name, and whether it was created or updated. */
  readonly gcp?: { readonly name: string; readonly action: 'created' | 'updated' };
}

/** The record of filed requests (`.hoplab/quota-requests.json`). */
export interface QuotaRequestRecord {
  readonly schema: 'hoplab.quota-requests/v1';
  readonly requests: readonly FiledRequest[];
}

/** Where the record is kept, under the working directory. */
export const QUOTA_REQUESTS_FILE = join('.hoplab', 'quota-requests.json');

/** Two requests are for the same quota in the same place. */
export function sameQuota(a: QuotaRequest, b: QuotaRequest): boolean {
  return a.cloud === b.cloud && a.quota.id === b.quota.id && a.where === b.where;
}

/** The record at `file`; an empty one when there is none. A record that cannot be read is an error naming the file. */
export function readQuotaRequests(file: string): QuotaRequestRecord {
  if (!existsSync(file)) return { schema: 'hoplab.quota-requests/v1', requests: [] };
  const parsed = (parseJson(readFileSync(file, 'utf8'), (reason) => new Error(`${file} ${reason}: move it away and run preflight again`)) ?? {}) as Partial<QuotaRequestRecord>;
  if (parsed.schema !== 'hoplab.quota-requests/v1' || !Array.isArray(parsed.requests)) {
    throw new Error(`${file} is not a record of quota requests (schema hoplab.quota-requests/v1): move it away and run preflight again`);
  }
  return parsed as QuotaRequestRecord;
}

/** Adds `filed` to the record at `file` (a newer request for the same quota and place replaces the older), written whole (temp file and rename). */
export function recordQuotaRequests(file: string, filed: readonly FiledRequest[]): QuotaRequestRecord {
  const before = readQuotaRequests(file);
  const record: QuotaRequestRecord = {
    schema: 'hoplab.quota-requests/v1',
    requests: [...before.requests.filter((r) => !filed.some((f) => sameQuota(f.request, r.request))), ...filed],
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return record;
}
