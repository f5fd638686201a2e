/**
 * Quota requests: the commands preflight prints, and `--request-quotas` filing them against stubbed
 * Service Quotas clients (each client's `send` answers as the Service Quotas API documents, with
 * requests already open) and a loopback Cloud Quotas API (quota preferences listed, created, patched
 * and read as its REST reference documents), with the record of what was filed and its status on the
 * next run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GetRequestedServiceQuotaChangeCommand,
  ListRequestedServiceQuotaChangeHistoryByQuotaCommand,
  RequestedServiceQuotaChange,
  RequestServiceQuotaIncreaseCommand,
  ServiceQuotasClient,
} from '@aws-sdk/client-service-quotas';
import { GoogleApiReader } from '../../../lib/kit/google/google-api-reader';
import { AWS_QUOTAS, GCP_QUOTAS, QuotaSpec } from '../../../lib/model/quotas';
import { awsSlot } from '../../../lib/model/slots';
import { filedRequestFindings, planQuotaRequests, requestQuotas } from '../../../lib/commands/preflight/quota-filing';
import {
  awsQuotaRequest,
  awsRequestCommand,
  gcpQuotaRequest,
  gcpRequestCommand,
  QuotaRequest,
  readQuotaRequests,
  recordQuotaRequests,
  requestLines,
} from '../../../lib/commands/preflight/quota-requests';
import { PREFLIGHT_PROJECT as PROJECT, PREFLIGHT_TOKEN as TOKEN, PreflightScenario, servePreflightApi } from '../../support/google-api';

const quota = (id: string) => [...AWS_QUOTAS, ...GCP_QUOTAS].find((q) => q.id === id)!;
const OTHER = '111122223333';
const vpcs = awsQuotaRequest({ slot: awsSlot('us-east-2', ['us-east-2a', 'us-east-2b']), quota: quota('vpcs'), used: 5, need: 4 });
const eips = awsQuotaRequest({ slot: awsSlot('us-east-2', ['us-east-2a', 'us-east-2b'], { id: OTHER, roleName: 'OrganizationAccountAccessRole' }), quota: quota('elasticIps'), used: 2, need: 8 });
const cpus = gcpQuotaRequest(quota('CPUS'), PROJECT, 'us-central1', 40);
const routers = gcpQuotaRequest(quota('ROUTERS'), PROJECT, 'us-central1', 12);
const negs = gcpQuotaRequest(quota('NETWORK_ENDPOINT_GROUPS'), PROJECT, 'us-central1', 48);
/** The Cloud Quotas API on loopback, with the project's quota preferences and quotas; the rest of preflight's APIs idle. */
const cloudQuotasApi = (scenario: Pick<PreflightScenario, 'preferences' | 'quotaInfos'>) =>
  servePreflightApi({ enabled: [], granted: (p) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 0 }, ...scenario });

describe('the request for a quota found short, ready to paste', () => {
  test('GIVEN AWS shortfalls in the host account and in an assumed account WHEN printed THEN each is the Service Quotas request for in use + need, in its region and account', () => {
    expect(awsRequestCommand(vpcs)).toBe('aws service-quotas request-service-quota-increase --service-code vpc --quota-code L-F678F1CE --desired-value 9 --region us-east-2');
    expect(awsRequestCommand(eips)).toBe(
      `aws service-quotas request-service-quota-increase --service-code ec2 --quota-code L-0263D0A3 --desired-value 10 --region us-east-2  # with credentials of account ${OTHER} (its role arn:aws:iam::${OTHER}:role/OrganizationAccountAccessRole)`,
    );
  });

  test('GIVEN GCP shortfalls WHEN printed THEN a quota with a Cloud Quotas ID is the gcloud request with its dimensions and contact; one without is the console', () => {
    expect(gcpRequestCommand(cpus, 'host@example.com')).toBe(
      `gcloud beta quotas preferences create --service=compute.googleapis.com --project=${PROJECT} --quota-id=CPUS-per-project-region --preferred-value=40 --dimensions=region=us-central1 --preference-id=hoplab-cpus-per-project-region-us-central1 --email=host@example.com`,
    );
    // A project-wide quota has no region dimension.
    expect(gcpRequestCommand(routers)).toBe(
      `gcloud beta quotas preferences create --service=compute.googleapis.com --project=${PROJECT} --quota-id=ROUTERS-per-project --preferred-value=12 --preference-id=hoplab-routers-per-project --email=YOUR_EMAIL`,
    );
    // DISKS_TOTAL_GB: the ID is Compute Engine's limit name for it.
    expect(gcpRequestCommand(gcpQuotaRequest(quota('DISKS_TOTAL_GB'), PROJECT, 'us-central1', 2048))).toBe(
      `gcloud beta quotas preferences create --service=compute.googleapis.com --project=${PROJECT} --quota-id=DISKS-TOTAL-GB-per-project-region --preferred-value=2048 --dimensions=region=us-central1 --preference-id=hoplab-disks-total-gb-per-project-region-us-central1 --email=YOUR_EMAIL`,
    );
    // No public source names the NEGs' ID: the console, or --request-quotas, which finds it by the metric.
    expect(gcpRequestCommand(negs)).toBe(
      `https://console.cloud.google.com/iam-admin/quotas?project=${PROJECT}  # ask for 48 of "Network endpoint groups, zonal and regional (NETWORK_ENDPOINT_GROUPS)" in us-central1, or let npx hoplab preflight --request-quotas find its ID and file it`,
    );
  });

  test('GIVEN the GCP quota table WHEN each quota is to be requested THEN each has a Cloud Quotas ID or the metric to find it by, never neither', () => {
    const table: readonly QuotaSpec[] = GCP_QUOTAS;
    expect(table.filter((q) => !q.cloudQuotaId && !q.quotaMetric).map((q) => q.id)).toEqual([]);
    expect(table.filter((q) => q.quotaMetric).map((q) => q.id)).toEqual([
      'NETWORK_ENDPOINT_GROUPS',
      'GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES',
      'EXTERNAL_NETWORK_LB_FORWARDING_RULES',
      'REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES',
    ]);
  });

  test.each([80, 72])('GIVEN a terminal %i wide WHEN a request is printed THEN every line fits, broken before flags with continuations, and the lines join back into the command', (width) => {
    for (const request of [vpcs, eips, cpus] as QuotaRequest[]) {
      const lines = requestLines(request, 'host@example.com', width);
      expect(lines.filter((l) => l.length > width)).toEqual([]);
      const command = lines
        .filter((l) => !l.trim().startsWith('#'))
        .map((l) => l.trim().replace(/ \\$/, ''))
        .join(' ');
      expect(command).toBe((request.cloud === 'aws' ? awsRequestCommand(request) : gcpRequestCommand(request, 'host@example.com')).split('  # ')[0]);
    }
  });
});

/** Service Quotas as a stub: each quota's request history, requests filed, their status on reading. */
function serviceQuotas(history: Record<string, RequestedServiceQuotaChange[]>) {
  const filed: { quotaCode: string; desired: number; region: string }[] = [];
  const status = new Map<string, string>();
  const spy = jest.spyOn(ServiceQuotasClient.prototype, 'send').mockImplementation(async function (this: { config: { region: () => Promise<string> } }, command: object) {
    const region = await this.config.region();
    if (command instanceof ListRequestedServiceQuotaChangeHistoryByQuotaCommand) return { RequestedQuotas: history[command.input.QuotaCode ?? ''] ?? [] };
    if (command instanceof RequestServiceQuotaIncreaseCommand) {
      const id = `req-${filed.length + 1}`;
      filed.push({ quotaCode: command.input.QuotaCode ?? '', desired: command.input.DesiredValue ?? 0, region });
      status.set(id, 'PENDING');
      return { RequestedQuota: { Id: id, Status: 'PENDING', QuotaCode: command.input.QuotaCode, DesiredValue: command.input.DesiredValue } };
    }
    if (command instanceof GetRequestedServiceQuotaChangeCommand) return { RequestedQuota: { Id: command.input.RequestId, Status: status.get(command.input.RequestId ?? '') ?? 'INVALID_REQUEST' } };
    throw new Error(`the stub does not answer ${command.constructor.name}`);
  } as never);
  return { filed, status, restore: () => spy.mockRestore() };
}

describe('preflight --request-quotas on AWS (stubbed Service Quotas)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'hoplab-quota-requests-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('GIVEN one quota with a request already pending and one without WHEN filed after yes THEN the pending one is shown, not filed again; the other is filed, recorded, and its status read on the next run', async () => {
    const stub = serviceQuotas({
      // VPCs: an approved request long ago, and one still pending.
      'L-F678F1CE': [
        { Id: 'old', Status: 'APPROVED', DesiredValue: 6 },
        { Id: 'open-1', Status: 'PENDING', DesiredValue: 8, Created: new Date('2026-11-20T10:00:00Z') },
      ],
      // Elastic IPs: only a request that was closed.
      'L-0263D0A3': [{ Id: 'closed', Status: 'CASE_CLOSED', DesiredValue: 7 }],
    });
    const lines: string[] = [];
    const questions: string[] = [];
    const recordFile = join(dir, 'quota-requests.json');
    try {
      const ok = await requestQuotas([vpcs, eips], {}, { confirm: async (q) => (questions.push(q), true), write: (l) => lines.push(l), recordFile });
      expect(ok).toBe(true);
      expect(questions).toEqual(['File 1 quota request?']);
      expect(stub.filed).toEqual([{ quotaCode: 'L-0263D0A3', desired: 10, region: 'us-east-2' }]);
      expect(lines).toEqual([
        'Quota requests:',
        '  open    aws vpcs in us-east-2: 9 (request open-1 for 8 is PENDING since 2026-11-20)',
        `  file    aws elasticIps in us-east-2 of account ${OTHER}: 10`,
        `  filed   aws elasticIps in us-east-2 of account ${OTHER}: 10 (request req-1: PENDING)`,
        `hoplab preflight: recorded in ${recordFile}; the next preflight shows their status`,
      ]);
      const record = readQuotaRequests(recordFile);
      expect(record.requests.map((r) => [r.request.quota.id, r.request.where, r.aws?.requestId, r.aws?.status])).toEqual([['elasticIps', `us-east-2 of account ${OTHER}`, 'req-1', 'PENDING']]);
      // The next run: still pending, then approved.
      const pending = await filedRequestFindings(record.requests, {});
      expect(pending).toEqual([
        {
          check: `quota request aws elasticIps (us-east-2 of account ${OTHER})`,
          verdict: 'warn',
          detail: `10 asked ${record.requests[0].filedAt.slice(0, 10)} (request req-1): PENDING: not decided yet`,
          fix: 'wait: requests take hours to days; run preflight again to see it',
        },
      ]);
      stub.status.set('req-1', 'APPROVED');
      expect((await filedRequestFindings(record.requests, {}))[0].verdict).toBe('pass');
    } finally {
      stub.restore();
    }
  });

  test('GIVEN the question declined WHEN --request-quotas runs THEN nothing is filed or recorded', async () => {
    const stub = serviceQuotas({});
    const recordFile = join(dir, 'quota-requests.json');
    try {
      expect(await requestQuotas([vpcs], {}, { confirm: async () => false, write: () => undefined, recordFile })).toBe(true);
      expect(stub.filed).toEqual([]);
      expect(readQuotaRequests(recordFile).requests).toEqual([]);
    } finally {
      stub.restore();
    }
  });
});

describe('preflight --request-quotas on GCP (Cloud Quotas on loopback)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'hoplab-quota-requests-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const pref = (id: string, quotaId: string, preferredValue: string, reconciling: boolean, region?: string) => ({
    name: `projects/123456789012/locations/global/quotaPreferences/${id}`,
    service: 'compute.googleapis.com',
    quotaId,
    ...(region ? { dimensions: { region } } : {}),
    quotaConfig: { preferredValue, grantedValue: '24' },
    etag: `etag-${id}`,
    reconciling,
  });

  test('GIVEN a preference for CPUS in us-central1 (decided, lower), one for ROUTERS still pending as high, none for FIREWALLS, and NEGs whose ID the project does not list WHEN filed THEN CPUS is patched, FIREWALLS created, ROUTERS shown as open, NEGs left to the console', async () => {
    const firewalls = gcpQuotaRequest(quota('FIREWALLS'), PROJECT, 'us-central1', 150);
    // Another region's CPUS preference is not this one.
    const preferences = [
      pref('console-cpus', 'CPUS-per-project-region', '24', false, 'us-central1'),
      pref('cpus-east', 'CPUS-per-project-region', '99', true, 'us-east1'),
      pref('routers', 'ROUTERS-per-project', '15', true),
    ];
    const api = await cloudQuotasApi({ preferences });
    const google = new GoogleApiReader({ accessToken: TOKEN, timeoutMs: 30_000, bases: { cloudQuotas: `${api.base}/cloudquotas/v1` } });
    const lines: string[] = [];
    const recordFile = join(dir, 'quota-requests.json');
    try {
      const plans = await planQuotaRequests([cpus, routers, firewalls, negs], { google });
      expect(plans.map((p) => p.kind)).toEqual(['file', 'open', 'file', 'by hand']);
      const ok = await requestQuotas([cpus, routers, firewalls, negs], { google, email: 'host@example.com' }, { confirm: async () => true, write: (l) => lines.push(l), recordFile });
      expect(ok).toBe(true);
      expect(lines.slice(0, 5)).toEqual([
        'Quota requests:',
        `  update  gcp CPUS in us-central1 of project ${PROJECT}: 40`,
        `  open    gcp ROUTERS in project ${PROJECT}: 12 (quota preference projects/123456789012/locations/global/quotaPreferences/routers already asks for 15 and is still being decided (reconciling))`,
        `  create  gcp FIREWALLS in project ${PROJECT}: 150`,
        `  by hand gcp NETWORK_ENDPOINT_GROUPS in us-central1 of project ${PROJECT}: 48 (the project's Cloud Quotas list no quota of metric compute.googleapis.com/network_endpoint_groups per region: ask in the console, https://console.cloud.google.com/iam-admin/quotas?project=${PROJECT})`,
      ]);
      // The existing preference is patched with its etag; the missing one created under hoplab's ID, with the contact and no region for a project-wide quota.
      expect(api.quotaWrites).toEqual([
        {
          method: 'PATCH',
          query: '?updateMask=quotaConfig.preferredValue%2Cjustification%2CcontactEmail',
          body: {
            name: 'projects/123456789012/locations/global/quotaPreferences/console-cpus',
            etag: 'etag-console-cpus',
            quotaConfig: { preferredValue: '40' },
            justification: 'workshop environments deployed by hoplab (npx hoplab preflight --request-quotas)',
            contactEmail: 'host@example.com',
          },
        },
        {
          method: 'POST',
          query: '?quotaPreferenceId=hoplab-firewalls-per-project',
          body: {
            service: 'compute.googleapis.com',
            quotaId: 'FIREWALLS-per-project',
            quotaConfig: { preferredValue: '150' },
            justification: 'workshop environments deployed by hoplab (npx hoplab preflight --request-quotas)',
            contactEmail: 'host@example.com',
          },
        },
      ]);
      const record = JSON.parse(readFileSync(recordFile, 'utf8'));
      expect(record.requests.map((r: { request: QuotaRequest; gcp: { name: string; action: string } }) => [r.request.quota.id, r.gcp.action, r.gcp.name])).toEqual([
        ['CPUS', 'updated', 'projects/123456789012/locations/global/quotaPreferences/console-cpus'],
        ['FIREWALLS', 'created', 'projects/123456789012/locations/global/quotaPreferences/hoplab-firewalls-per-project'],
      ]);
      // The next run reads each preference again: both are being decided.
      const status = await filedRequestFindings(record.requests, { google });
      expect(status.map((f) => [f.check, f.verdict])).toEqual([
        [`quota request gcp CPUS (us-central1 of project ${PROJECT})`, 'warn'],
        [`quota request gcp FIREWALLS (project ${PROJECT})`, 'warn'],
      ]);
      expect(status[0].detail).toMatch(/^40 asked \d{4}-\d\d-\d\d \(projects\/123456789012\/locations\/global\/quotaPreferences\/console-cpus\): being decided \(reconciling\)$/);
      // Decided and granted: it passes.
      Object.assign(preferences[0], { reconciling: false, quotaConfig: { preferredValue: '40', grantedValue: '40' } });
      expect((await filedRequestFindings(record.requests, { google }))[0].verdict).toBe('pass');
    } finally {
      await api.close();
    }
  });
});

describe('preflight --request-quotas on GCP, a quota whose ID no public source names (Cloud Quotas on loopback)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'hoplab-quota-requests-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  // QuotaInfos as quotaInfos.list answers them (the fields read; the IDs are this stub's).
  const info = (quotaId: string, metric: string, dimensions: string[], extra: Record<string, unknown> = {}) => ({
    name: `projects/123456789012/locations/global/services/compute.googleapis.com/quotaInfos/${quotaId}`,
    quotaId,
    metric,
    service: 'compute.googleapis.com',
    dimensions,
    isFixed: false,
    quotaIncreaseEligibility: { isEligible: true },
    ...extra,
  });
  const infosPath = `/cloudquotas/v1/projects/${PROJECT}/locations/global/services/compute.googleapis.com/quotaInfos`;

  test('GIVEN the project lists its quotas with their metrics WHEN NEGs, managed backend services, NLB backend services and NLB forwarding rules are filed THEN each is filed under the one quota of its metric and dimensions, the list read once, a fixed one left to the console', async () => {
    const backendServices = gcpQuotaRequest(quota('GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES'), PROJECT, 'us-central1', 60);
    const nlbBackends = gcpQuotaRequest(quota('REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES'), PROJECT, 'us-central1', 20);
    const nlbRules = gcpQuotaRequest(quota('EXTERNAL_NETWORK_LB_FORWARDING_RULES'), PROJECT, 'us-central1', 20);
    const api = await cloudQuotasApi({
      quotaInfos: [
        // The global NEGs' quota is project-wide: not the zonal NEGs' one.
        info('GLOBAL-NEGS-stub-per-project', 'compute.googleapis.com/global_network_endpoint_groups', []),
        info('CPUS-per-project-region', 'compute.googleapis.com/cpus', ['region']),
        info('NEGS-stub-per-project-region', 'compute.googleapis.com/network_endpoint_groups', ['region']),
        info('MANAGED-BS-stub-per-project', 'compute.googleapis.com/global_external_managed_backend_services', []),
        // Google's pages write this metric with `LB`; the API may not.
        info('NLB-BS-stub-per-project-region', 'compute.googleapis.com/regional_external_network_lb_backend_services', ['region']),
        info('NLB-FR-stub-per-project-region', 'compute.googleapis.com/external_network_lb_forwarding_rules', ['region'], { isFixed: true }),
      ],
      // An existing preference for the NLB backend services (decided, lower): found under the ID read, and updated.
      preferences: [
        {
          name: 'projects/123456789012/locations/global/quotaPreferences/console-nlb',
          service: 'compute.googleapis.com',
          quotaId: 'NLB-BS-stub-per-project-region',
          dimensions: { region: 'us-central1' },
          quotaConfig: { preferredValue: '10', grantedValue: '10' },
          etag: 'etag-console-nlb',
          reconciling: false,
        },
      ],
    });
    const google = new GoogleApiReader({ accessToken: TOKEN, timeoutMs: 30_000, bases: { cloudQuotas: `${api.base}/cloudquotas/v1` } });
    const lines: string[] = [];
    const recordFile = join(dir, 'quota-requests.json');
    try {
      const ok = await requestQuotas([negs, backendServices, nlbBackends, nlbRules], { google, email: 'host@example.com' }, { confirm: async () => true, write: (l) => lines.push(l), recordFile });
      expect(ok).toBe(true);
      expect(lines.slice(0, 5)).toEqual([
        'Quota requests:',
        `  create  gcp NETWORK_ENDPOINT_GROUPS in us-central1 of project ${PROJECT}: 48 (Cloud Quotas ID NEGS-stub-per-project-region, found by its metric)`,
        `  create  gcp GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES in project ${PROJECT}: 60 (Cloud Quotas ID MANAGED-BS-stub-per-project, found by its metric)`,
        `  update  gcp REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES in us-central1 of project ${PROJECT}: 20 (Cloud Quotas ID NLB-BS-stub-per-project-region, found by its metric)`,
        `  by hand gcp EXTERNAL_NETWORK_LB_FORWARDING_RULES in us-central1 of project ${PROJECT}: 20 (Cloud Quotas says NLB-FR-stub-per-project-region is fixed: it cannot be raised)`,
      ]);
      // Both pages of the list, read once for the four requests.
      expect(api.requests.filter((r) => r.path === infosPath).map((r) => r.query.get('pageToken'))).toEqual([null, 'infos-2']);
      expect(api.quotaWrites.map((w) => [w.method, w.query, w.body.quotaId ?? w.body.name, w.body.dimensions ?? null])).toEqual([
        ['POST', '?quotaPreferenceId=hoplab-negs-stub-per-project-region-us-central1', 'NEGS-stub-per-project-region', { region: 'us-central1' }],
        ['POST', '?quotaPreferenceId=hoplab-managed-bs-stub-per-project', 'MANAGED-BS-stub-per-project', null],
        ['PATCH', '?updateMask=quotaConfig.preferredValue%2Cjustification%2CcontactEmail', 'projects/123456789012/locations/global/quotaPreferences/console-nlb', null],
      ]);
      // The record holds the ID it was filed under, so the next run reads its status as for any other.
      const record = readQuotaRequests(recordFile);
      expect(record.requests.map((r) => [r.request.quota.id, r.request.cloud === 'gcp' ? r.request.quota.cloudQuotaId : '', r.gcp?.action])).toEqual([
        ['NETWORK_ENDPOINT_GROUPS', 'NEGS-stub-per-project-region', 'created'],
        ['GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', 'MANAGED-BS-stub-per-project', 'created'],
        ['REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES', 'NLB-BS-stub-per-project-region', 'updated'],
      ]);
      expect((await filedRequestFindings(record.requests, { google })).map((f) => f.verdict)).toEqual(['warn', 'warn', 'warn']);
    } finally {
      await api.close();
    }
  });

  test('GIVEN a metric listed only with other dimensions, listed twice, not eligible for an increase, or a list that cannot be read WHEN planned THEN each is left to the console, saying why', async () => {
    const plan = async (quotaInfos: PreflightScenario['quotaInfos']) => {
      const api = await cloudQuotasApi({ quotaInfos });
      try {
        const google = new GoogleApiReader({ accessToken: TOKEN, timeoutMs: 30_000, bases: { cloudQuotas: `${api.base}/cloudquotas/v1` } });
        const [only] = await planQuotaRequests([negs], { google });
        return only.kind === 'by hand' ? only.detail : only.kind;
      } finally {
        await api.close();
      }
    };
    const consoleUrl = `https://console.cloud.google.com/iam-admin/quotas?project=${PROJECT}`;
    const NEGS = 'compute.googleapis.com/network_endpoint_groups';
    expect(await plan([info('NEGS-per-zone', NEGS, ['zone'])])).toBe(
      `the project's Cloud Quotas list no quota of metric ${NEGS} per region (only NEGS-per-zone [zone]): ask in the console, ${consoleUrl}`,
    );
    expect(await plan([info('A', NEGS, ['region']), info('B', NEGS, ['region'])])).toBe(
      `the project's Cloud Quotas list 2 quotas of metric ${NEGS} per region (A [region], B [region]): ask in the console, ${consoleUrl}`,
    );
    expect(await plan([info('A', NEGS, ['region'], { quotaIncreaseEligibility: { isEligible: false, ineligibilityReason: 'NO_VALID_BILLING_ACCOUNT' } })])).toBe(
      `Cloud Quotas says A is not eligible for an increase (NO_VALID_BILLING_ACCOUNT): ask in the console, ${consoleUrl}`,
    );
    const disabled = { status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED', message: 'Cloud Quotas API has not been used in project my-lab-project before or it is disabled.' } } };
    expect(await plan(disabled)).toMatch(
      /^could not read the project's quotas to find its Cloud Quotas ID \(needs cloudquotas\.googleapis\.com enabled and cloudquotas\.quotas\.get\): .*Cloud Quotas API has not been used in project my-lab-project before or it is disabled\./,
    );
  });
});

describe('the record of filed requests', () => {
  test('GIVEN a record cut short (not JSON) WHEN read THEN the error names the file and where, the same on every Node', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-quota-record-'));
    try {
      const file = join(dir, 'quota-requests.json');
      writeFileSync(file, '{"schema": "hoplab.quota-requests/v1", "requests": [');
      expect(() => readQuotaRequests(file)).toThrow(
        new Error(
          `${file} is not valid JSON at line 1, column 53: the file ends before the JSON does (line 1: "{\\"schema\\": \\"hoplab.quota-requests/v1\\", \\"requests\\": ["): move it away and run preflight again`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('GIVEN a record WHEN a newer request for the same quota and place is filed THEN it replaces the older; others stay', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-quota-record-'));
    try {
      const file = join(dir, '.hoplab', 'quota-requests.json');
      recordQuotaRequests(file, [
        { request: vpcs, filedAt: '2026-11-01T00:00:00.000Z', aws: { requestId: 'a', status: 'PENDING' } },
        { request: eips, filedAt: '2026-11-01T00:00:00.000Z', aws: { requestId: 'b', status: 'PENDING' } },
      ]);
      recordQuotaRequests(file, [{ request: { ...vpcs, desired: 12 }, filedAt: '2026-11-02T00:00:00.000Z', aws: { requestId: 'c', status: 'PENDING' } }]);
      expect(readQuotaRequests(file).requests.map((r) => r.aws?.requestId)).toEqual(['b', 'c']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
