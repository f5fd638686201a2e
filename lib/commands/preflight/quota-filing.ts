/**
 * Filing quota requests (`preflight --request-quotas`) and reading their
 * status on later runs.
 *
 * AWS, through Service Quotas in the request's region and account
 * (`RequestServiceQuotaIncrease`; a request already open for the quota, found
 * with `ListRequestedServiceQuotaChangeHistoryByQuota` in status `PENDING` or
 * `CASE_OPENED`, is shown and not filed again; `GetRequestedServiceQuotaChange`
 * for the status). GCP, through the Cloud Quotas API's quota preferences
 * (cloudquotas.googleapis.com v1, keyed by the service, the quota ID and its
 * dimensions: one preference per quota and dimensions, so an existing one is
 * updated with `patch` and only a missing one is created; read again for its
 * status: `reconciling` while Google decides, then `quotaConfig.grantedValue`).
 * A quota whose ID no public source names is found in the project's own quota
 * list (`quotaInfos.list`, once per project) by its metric and dimensions; one
 * Cloud Quotas calls fixed or not eligible for an increase is left to be asked
 * by hand, saying so.
 * Sources: Service Quotas API reference; Cloud Quotas API reference,
 * projects.locations.quotaPreferences (read 2026-12-02) and
 * projects.locations.services.quotaInfos (QuotaInfo: quotaId, metric, dimensions,
 * isFixed, quotaIncreaseEligibility; read 2026-12-07).
 */
import {
  GetRequestedServiceQuotaChangeCommand,
  ListRequestedServiceQuotaChangeHistoryByQuotaCommand,
  RequestedServiceQuotaChange,
  RequestServiceQuotaIncreaseCommand,
  ServiceQuotasClient,
} from '@aws-sdk/client-service-quotas';
import { GoogleApiReader, GoogleItem } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS } from '../../lab/checks/google-calls';
import { Finding } from '../../lab/checks/finding';
import { awsSlotClientConfig } from './aws-slot-clients';
import { AwsQuotaRequest, COMPUTE_SERVICE, FiledRequest, GcpQuotaRequest, preferenceId, QuotaRequest, quotasConsoleUrl, recordQuotaRequests, requestCommand } from './quota-requests';

/** Service Quotas statuses of a request still being decided. */
const OPEN_STATUSES = new Set(['PENDING', 'CASE_OPENED']);

const message = (error: unknown) => (error instanceof Error ? `${error.name !== 'Error' ? `${error.name}: ` : ''}${error.message.split('\n')[0]}` : String(error));

/** A quota preference as the Cloud Quotas API returns it (the fields read here). */
interface QuotaPreference {
  readonly name?: string;
  readonly service?: string;
  readonly quotaId?: string;
  readonly dimensions?: Readonly<Record<string, string>>;
  readonly quotaConfig?: { readonly preferredValue?: string | number; readonly grantedValue?: string | number; readonly stateDetail?: string };
  readonly reconciling?: boolean;
  readonly etag?: string;
}

/** A quota as Cloud Quotas lists it (`quotaInfos.list`; the fields read here). */
interface QuotaInfo {
  readonly quotaId?: string;
  readonly metric?: string;
  /** The dimensions it is defined on: `['region']` for a regional quota, none for a project's. */
  readonly dimensions?: readonly string[];
  readonly isFixed?: boolean;
  readonly quotaIncreaseEligibility?: { readonly isEligible?: boolean; readonly ineligibilityReason?: string };
}

/** What is to be done with one request. */
export type RequestPlan =
  /** `found`: how its Cloud Quotas ID was found, when it was read from the project's quotas. */
  | { readonly kind: 'file'; readonly request: QuotaRequest; readonly existing?: QuotaPreference; readonly found?: string }
  | { readonly kind: 'open'; readonly request: QuotaRequest; readonly detail: string }
  | { readonly kind: 'by hand'; readonly request: QuotaRequest; readonly detail: string };

/** Where the clouds are asked. */
export interface FilingClients {
  /** AWS: an emulator's endpoint (tests). @default - AWS */
  readonly awsEndpoint?: string;
  /** GCP: the reader (a token, the API bases); undefined without Google credentials. */
  readonly google?: GoogleApiReader;
  /** The contact email a GCP increase needs (the Google identity's). */
  readonly email?: string;
}

function quotasClient(request: { readonly region: string; readonly account?: { readonly roleArn: string } }, endpoint?: string): ServiceQuotasClient {
  return new ServiceQuotasClient(awsSlotClientConfig(request, endpoint));
}

/** An open AWS request for the quota, if there is one. */
async function openAwsRequest(client: ServiceQuotasClient, request: AwsQuotaRequest): Promise<RequestedServiceQuotaChange | undefined> {
  let token: string | undefined;
  do {
    const page = await client.send(new ListRequestedServiceQuotaChangeHistoryByQuotaCommand({ ServiceCode: request.quota.serviceCode, QuotaCode: request.quota.quotaCode, NextToken: token }));
    const open = (page.RequestedQuotas ?? []).find((r) => OPEN_STATUSES.has(r.Status ?? ''));
    if (open) return open;
    token = page.NextToken;
  } while (token);
  return undefined;
}

/** The project's quota preference for the request's quota and dimensions, if there is one. */
async function existingPreference(reader: GoogleApiReader, request: GcpQuotaRequest): Promise<QuotaPreference | undefined> {
  const all = await reader.pages(CALLS.quotaPreferencesList, { project: request.project }, (page) =>
    ((page.quotaPreferences as QuotaPreference[] | undefined) ?? []).map((p) => ({ ...p, name: p.name ?? '' })),
  );
  const wanted = request.region ? { region: request.region } : {};
  const same = (a: Readonly<Record<string, string>> | undefined) => JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(wanted).sort());
  return (all as QuotaPreference[]).find((p) => p.service === COMPUTE_SERVICE && p.quotaId === request.quota.cloudQuotaId && same(p.dimensions));
}

/** The same dimension names, in any order. */
const sameDimensions = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * The request with its Cloud Quotas ID: the table's, or the one quota of the project's list (`infos`) with
 * the request's metric and dimensions (`region` for a regional quota, none for a project's); or why it
 * cannot be filed.
 */
async function withQuotaId(request: GcpQuotaRequest, infos: () => Promise<readonly QuotaInfo[]>): Promise<{ request: GcpQuotaRequest; found?: string } | { why: string }> {
  const { cloudQuotaId, quotaMetric } = request.quota;
  if (cloudQuotaId) return { request };
  const byHand = `ask in the console, ${quotasConsoleUrl(request.project)}`;
  if (!quotaMetric) return { why: `no public source names its Cloud Quotas ID: ${byHand}` };
  const wanted = request.region ? ['region'] : [];
  const ofMetric = (await infos()).filter((q) => q.metric?.toLowerCase() === quotaMetric.toLowerCase());
  const matching = ofMetric.filter((q) => sameDimensions(q.dimensions ?? [], wanted));
  const per = request.region ? 'per region' : 'per project';
  const listed = (qs: readonly QuotaInfo[]) => qs.map((q) => `${q.quotaId ?? '?'} [${(q.dimensions ?? []).join(', ')}]`).join(', ');
  if (matching.length !== 1) {
    const what =
      matching.length === 0
        ? `no quota of metric ${quotaMetric} ${per}${ofMetric.length > 0 ? ` (only ${listed(ofMetric)})` : ''}`
        : `${matching.length} quotas of metric ${quotaMetric} ${per} (${listed(matching)})`;
    return { why: `the project's Cloud Quotas list ${what}: ${byHand}` };
  }
  const [quota] = matching;
  const id = quota.quotaId ?? '';
  if (!id) return { why: `the project's Cloud Quotas list its quota of metric ${quotaMetric} without a quotaId: ${byHand}` };
  if (quota.isFixed) return { why: `Cloud Quotas says ${id} is fixed: it cannot be raised` };
  const eligibility = quota.quotaIncreaseEligibility;
  if (eligibility?.isEligible === false) return { why: `Cloud Quotas says ${id} is not eligible for an increase (${eligibility.ineligibilityReason ?? 'no reason given'}): ${byHand}` };
  return { request: { ...request, quota: { ...request.quota, cloudQuotaId: id } }, found: `Cloud Quotas ID ${id}, found by its metric` };
}

/**
 * What would be done with each request, asking the clouds first: an AWS request already open is shown,
 * not filed again; a GCP preference already asking for as much and still being decided likewise; a GCP
 * quota whose Cloud Quotas ID is not known and cannot be found, or without Google credentials, is left to
 * be filed by hand.
 */
export async function planQuotaRequests(requests: readonly QuotaRequest[], clients: FilingClients): Promise<RequestPlan[]> {
  const plans: RequestPlan[] = [];
  // Each project's quotas, listed once (only when a request needs an ID found).
  const listed = new Map<string, Promise<readonly QuotaInfo[]>>();
  const infosOf = (reader: GoogleApiReader, project: string) => () => {
    let infos = listed.get(project);
    if (!infos) {
      infos = reader.pages(CALLS.quotaInfosList, { project, service: COMPUTE_SERVICE }, (page) => (page.quotaInfos as GoogleItem[] | undefined) ?? []) as Promise<readonly QuotaInfo[]>;
      listed.set(project, infos);
    }
    return infos;
  };
  for (const request of requests) {
    if (request.cloud === 'aws') {
      const client = quotasClient(request, clients.awsEndpoint);
      try {
        const open = await openAwsRequest(client, request);
        plans.push(
          open
            ? {
                kind: 'open',
                request,
                detail: `request ${open.Id ?? '?'} for ${open.DesiredValue ?? '?'} is ${open.Status ?? '?'}${open.CaseId ? ` (support case ${open.CaseId})` : ''}${
                  open.Created ? ` since ${open.Created.toISOString().slice(0, 10)}` : ''
                }`,
              }
            : { kind: 'file', request },
        );
      } catch (error) {
        plans.push({ kind: 'by hand', request, detail: `could not read the requests already filed for it: ${message(error)}` });
      } finally {
        client.destroy();
      }
      continue;
    }
    if (!clients.google) {
      plans.push({ kind: 'by hand', request, detail: 'no Google credentials' });
      continue;
    }
    let resolved: Awaited<ReturnType<typeof withQuotaId>>;
    try {
      resolved = await withQuotaId(request, infosOf(clients.google, request.project));
    } catch (error) {
      plans.push({
        kind: 'by hand',
        request,
        detail: `could not read the project's quotas to find its Cloud Quotas ID (needs cloudquotas.googleapis.com enabled and cloudquotas.quotas.get): ${message(error)}`,
      });
      continue;
    }
    if ('why' in resolved) {
      plans.push({ kind: 'by hand', request, detail: resolved.why });
      continue;
    }
    const found = resolved.found ? { found: resolved.found } : {};
    try {
      const existing = await existingPreference(clients.google, resolved.request);
      const preferred = Number(existing?.quotaConfig?.preferredValue ?? Number.NaN);
      plans.push(
        existing?.reconciling && preferred >= request.desired
          ? { kind: 'open', request: resolved.request, detail: `quota preference ${existing.name ?? '?'} already asks for ${preferred} and is still being decided (reconciling)` }
          : { kind: 'file', request: resolved.request, ...(existing ? { existing } : {}), ...found },
      );
    } catch (error) {
      plans.push({ kind: 'by hand', request, detail: `could not read the project's quota preferences (needs cloudquotas.googleapis.com enabled and cloudquotas.quotas.get): ${message(error)}` });
    }
  }
  return plans;
}

/** Files the requests `plans` says to file; returns what was filed, and a line per request that failed. */
export async function fileQuotaRequests(plans: readonly RequestPlan[], clients: FilingClients, now = () => new Date()): Promise<{ filed: FiledRequest[]; failed: string[] }> {
  const filed: FiledRequest[] = [];
  const failed: string[] = [];
  for (const plan of plans) {
    if (plan.kind !== 'file') continue;
    const { request } = plan;
    try {
      if (request.cloud === 'aws') {
        const client = quotasClient(request, clients.awsEndpoint);
        try {
          const answer = await client.send(new RequestServiceQuotaIncreaseCommand({ ServiceCode: request.quota.serviceCode, QuotaCode: request.quota.quotaCode, DesiredValue: request.desired }));
          const q = answer.RequestedQuota;
          filed.push({ request, filedAt: now().toISOString(), aws: { requestId: q?.Id ?? '?', ...(q?.CaseId ? { caseId: q.CaseId } : {}), status: q?.Status ?? '?' } });
        } finally {
          client.destroy();
        }
        continue;
      }
      const reader = clients.google!;
      const config = { preferredValue: String(request.desired) };
      const justification = 'workshop environments deployed by hoplab (npx hoplab preflight --request-quotas)';
      const contact = clients.email ? { contactEmail: clients.email } : {};
      if (plan.existing?.name) {
        const id = plan.existing.name.split('/').pop() ?? '';
        const answer = await reader.call(
          CALLS.quotaPreferencesPatch,
          { project: request.project, preference: id },
          {
            query: { updateMask: 'quotaConfig.preferredValue,justification,contactEmail' },
            body: { name: plan.existing.name, ...(plan.existing.etag ? { etag: plan.existing.etag } : {}), quotaConfig: config, justification, ...contact },
          },
        );
        filed.push({ request, filedAt: now().toISOString(), gcp: { name: String(answer.name ?? plan.existing.name), action: 'updated' } });
      } else {
        const answer = await reader.call(
          CALLS.quotaPreferencesCreate,
          { project: request.project },
          {
            query: { quotaPreferenceId: preferenceId(request) },
            body: {
              service: COMPUTE_SERVICE,
              quotaId: request.quota.cloudQuotaId,
              ...(request.region ? { dimensions: { region: request.region } } : {}),
              quotaConfig: config,
              justification,
              ...contact,
            },
          },
        );
        filed.push({ request, filedAt: now().toISOString(), gcp: { name: String(answer.name ?? ''), action: 'created' } });
      }
    } catch (error) {
      failed.push(`${request.cloud} ${request.quota.id} in ${request.where}: ${message(error)} (file it by hand: ${requestCommand(request, clients.email)})`);
    }
  }
  return { filed, failed };
}

/** The status of each recorded request, asked of the cloud again: one finding each. */
export async function filedRequestFindings(recorded: readonly FiledRequest[], clients: FilingClients): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const r of recorded) {
    const check = `quota request ${r.request.cloud} ${r.request.quota.id} (${r.request.where})`;
    const asked = `${r.request.desired} asked ${r.filedAt.slice(0, 10)}`;
    try {
      if (r.aws) {
        const client = quotasClient(r.request as AwsQuotaRequest, clients.awsEndpoint);
        let q: RequestedServiceQuotaChange | undefined;
        try {
          q = (await client.send(new GetRequestedServiceQuotaChangeCommand({ RequestId: r.aws.requestId }))).RequestedQuota;
        } finally {
          client.destroy();
        }
        const status = q?.Status ?? '?';
        const caseId = q?.CaseId ?? r.aws.caseId;
        const detail = `${asked} (request ${r.aws.requestId}${caseId ? `, support case ${caseId}` : ''}): ${status}`;
        if (status === 'APPROVED') findings.push({ check, verdict: 'pass', detail });
        else if (OPEN_STATUSES.has(status)) findings.push({ check, verdict: 'warn', detail: `${detail}: not decided yet`, fix: 'wait: requests take hours to days; run preflight again to see it' });
        else findings.push({ check, verdict: 'warn', detail, fix: caseId ? `read support case ${caseId} in the AWS Support Center` : 'see the request in the Service Quotas console' });
        continue;
      }
      if (r.gcp) {
        if (!clients.google) {
          findings.push({ check, verdict: 'skip', detail: `${asked}: not read (no Google credentials)` });
          continue;
        }
        const id = r.gcp.name.split('/').pop() ?? '';
        const p = (await clients.google.call(CALLS.quotaPreferencesGet, { project: (r.request as GcpQuotaRequest).project, preference: id })) as QuotaPreference;
        const granted = Number(p.quotaConfig?.grantedValue ?? Number.NaN);
        const state = p.quotaConfig?.stateDetail ? `; ${p.quotaConfig.stateDetail}` : '';
        const detail = `${asked} (${r.gcp.name}): ${p.reconciling ? 'being decided (reconciling)' : `granted ${Number.isFinite(granted) ? granted : 'unknown'}`}${state}`;
        if (p.reconciling) findings.push({ check, verdict: 'warn', detail, fix: 'wait: requests take hours to days; run preflight again to see it' });
        else if (granted >= r.request.desired) findings.push({ check, verdict: 'pass', detail });
        else findings.push({ check, verdict: 'warn', detail: `${detail}, less than asked`, fix: `see IAM & Admin > Quotas: ${quotasConsoleUrl((r.request as GcpQuotaRequest).project)}` });
      }
    } catch (error) {
      findings.push({ check, verdict: 'warn', detail: `${asked}: its status could not be read: ${message(error)}` });
    }
  }
  return findings;
}

/** What `--request-quotas` needs beside the clouds: the question, where lines go, where the record is. */
export interface RequestQuotasIo {
  readonly confirm: (question: string) => Promise<boolean>;
  readonly write: (line: string) => void;
  readonly recordFile: string;
}

/**
 * `preflight --request-quotas`: says what would be done with each request (file it, already open, by
 * hand), asks once, files, records what was filed and says it. Returns whether every request that was
 * to be filed was filed (declining the question files nothing and is not a failure).
 */
export async function requestQuotas(requests: readonly QuotaRequest[], clients: FilingClients, io: RequestQuotasIo): Promise<boolean> {
  if (requests.length === 0) {
    io.write('hoplab preflight: --request-quotas: no quota was found short with credentials; nothing to request');
    return true;
  }
  const plans = await planQuotaRequests(requests, clients);
  const verb = (p: RequestPlan) => (p.kind === 'file' ? (p.request.cloud === 'gcp' ? (p.existing ? 'update' : 'create') : 'file') : p.kind);
  io.write('Quota requests:');
  for (const p of plans) {
    const note = p.kind === 'file' ? (p.found ? ` (${p.found})` : '') : ` (${p.detail})`;
    io.write(`  ${verb(p).padEnd(7)} ${p.request.cloud} ${p.request.quota.id} in ${p.request.where}: ${p.request.desired}${note}`);
  }
  const toFile = plans.filter((p) => p.kind === 'file');
  if (toFile.length === 0) {
    io.write('hoplab preflight: nothing to file');
    return true;
  }
  if (!(await io.confirm(`File ${toFile.length} quota request${toFile.length === 1 ? '' : 's'}?`))) return true;
  const { filed, failed } = await fileQuotaRequests(plans, clients);
  if (filed.length > 0) recordQuotaRequests(io.recordFile, filed);
  for (const f of filed) {
    const id = f.aws ? `request ${f.aws.requestId}: ${f.aws.status}${f.aws.caseId ? `, support case ${f.aws.caseId}` : ''}` : `${f.gcp!.action} ${f.gcp!.name}`;
    io.write(`  filed   ${f.request.cloud} ${f.request.quota.id} in ${f.request.where}: ${f.request.desired} (${id})`);
  }
  for (const line of failed) io.write(`  FAILED  ${line}`);
  if (filed.length > 0) io.write(`hoplab preflight: recorded in ${io.recordFile}; the next preflight shows their status`);
  return failed.length === 0;
}
