/**
 * Preflight on Google Cloud with the identity Terraform's google provider
 * uses (Application Default Credentials), one project at a time: who it is,
 * the APIs the stacks call are enabled (Service Usage), it holds every
 * permission the stacks need (`projects.testIamPermissions`), the zones and
 * quotas of each of the project's regions (`regions.get`) and the project's
 * quotas (`projects.get`) against what the environments placed there take,
 * and the names are free.
 */
import { ApiError, GoogleApiReader } from '../../kit/google/google-api-reader';
import { GOOGLE_API_BASES, GoogleApiBases } from '../../kit/google/google-calls';
import { GOOGLE_CALLS as CALLS } from '../../lab/checks/google-calls';
import { SynthStack, block, isRecord, literalString, resourcesOf } from '../../kit/terraform/terraform-json';
import { TAG_KEYS } from '../../model/tags';
import { Finding } from '../../lab/checks/finding';
import { GcpQuotaNeed, GcpQuotaNeeds } from '../../lab/estimate/quotas';
import { GCP_QUOTAS } from '../../model/quotas';
import { gcpQuotaRequest, gcpRequestCommand, quotasConsoleUrl } from './quota-requests';
import { gcpNotChecked, UncheckedScope } from './not-checked';
import { countQuota } from './quota-count';
import { attendeeReachFindings } from './gcp-member-reach';
import { GCP_PERMISSION_HOLDERS } from './required-permissions';

/** Google API bases; tests serve recorded-format responses on loopback. */
export type GoogleApis = Omit<GoogleApiBases, 'tokenInfo'> & {
  /** OAuth2 token info (who the token belongs to). */
  readonly tokenInfo: string;
};

export const GOOGLE_APIS: GoogleApis = GOOGLE_API_BASES;

/** `projects.testIamPermissions` takes at most 100 permissions per call. */
const PERMISSIONS_PER_CALL = 100;

/** Predefined roles that together hold what the stacks need (docs/real-deploy.md, Before it: APIs and roles). */
export const GCP_DEPLOYER_ROLES = [
  'roles/container.admin',
  'roles/compute.networkAdmin',
  'roles/compute.securityAdmin',
  'roles/iam.serviceAccountAdmin',
  'roles/iam.serviceAccountUser',
  'roles/resourcemanager.projectIamAdmin',
  'roles/serviceusage.serviceUsageConsumer',
];

export interface GcpPreflightInput {
  readonly project: string;
  /** The regions of the project's slots, each with the zones its environments' nodes take. */
  readonly regions: readonly { readonly region: string; readonly zones: readonly string[] }[];
  /** Name each check with its project and region (the lab has more than one GCP slot). @default false */
  readonly named?: boolean;
  /** The token to check with; undefined when none could be had. */
  readonly accessToken: string | undefined;
  /**
   * The quota project sent as `x-goog-user-project` (Application Default Credentials' `quota_project_id`, or GOOGLE_CLOUD_QUOTA_PROJECT).
   * @default - none
   */
  readonly quotaProject?: string;
  /** Where the quota project was read, for the identity line. @default - not said */
  readonly quotaProjectFrom?: string;
  readonly apis?: Partial<GoogleApis>;
  readonly clusterStacks: readonly { readonly env: string; readonly stack: SynthStack }[];
  readonly permissions: readonly string[];
  readonly requiredApis: readonly string[];
  /** The project's needs: project-scoped metrics, and region-scoped ones with their `region`. */
  readonly needs: GcpQuotaNeeds;
  /**
   * The part of `needs` that the project's environments already deployed hold (their state says they
   * are here), each with how many they are: in use already, so not counted again (quota-count.ts).
   * @default - none deployed
   */
  readonly deployed?: readonly (GcpQuotaNeed & { readonly environments: number })[];
  /**
   * Attendees' Google identities (their environment and IAM member, `user:` or `serviceAccount:`):
   * each gets roles/container.clusterViewer on the project, and must hold nothing there that reaches inside clusters.
   * @default - none
   */
  readonly attendees?: readonly { readonly env: string; readonly member: string }[];
  /** Per-request bound. @default 15000 */
  readonly timeoutMs?: number;
}

/** A quota short in a project (or one of its regions), with what a request for more would ask. */
export interface GcpQuotaShortfall {
  readonly project: string;
  /** The region of a regional metric. */
  readonly region?: string;
  readonly metric: string;
  readonly used: number;
  readonly need: number;
  readonly limit: number;
}

/** What the GCP checks of one project found, the quotas they found short, and who the credentials are (the contact a quota request names). */
export interface GcpPreflightResult {
  readonly findings: Finding[];
  readonly shortfalls: GcpQuotaShortfall[];
  readonly email?: string;
}

/** The API that files quota requests (`preflight --request-quotas`). */
export const CLOUD_QUOTAS_API = 'cloudquotas.googleapis.com';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether an API error is a 404 (the name is free). */
const notFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** What the checks after the identity would have covered (said when there is none). */
function uncheckedScope(input: GcpPreflightInput): UncheckedScope {
  return {
    clusterEnvs: input.clusterStacks.map((c) => c.env),
    permissions: input.permissions.length,
    apis: input.requiredApis,
    quotas: input.needs.quotas.filter((q) => q.need > 0).map((q) => `${q.metric} ${q.need}${q.scope === 'region' && q.region ? ` in ${q.region}` : ''}`),
    zoneRegions: input.regions.map((r) => r.region),
    attendees: input.attendees?.length ?? 0,
  };
}

export async function gcpFindings(input: GcpPreflightInput): Promise<GcpPreflightResult> {
  const found = await projectFindings(input);
  if (!input.named) return found;
  // The project-wide checks named with their project (the quota and zone checks name their own place).
  const own = (check: string) => /^gcp (quota [A-Z_]+|quotas|zones) \(/.test(check);
  return { ...found, findings: found.findings.map((f) => (own(f.check) ? f : { ...f, check: `${f.check} (project ${input.project})` })) };
}

async function projectFindings(input: GcpPreflightInput): Promise<GcpPreflightResult> {
  const apis = { ...GOOGLE_APIS, ...input.apis };
  const timeoutMs = input.timeoutMs ?? 15_000;
  const token = input.accessToken;
  if (!token) {
    return {
      findings: [
        {
          check: 'gcp identity',
          verdict: 'fail',
          detail: 'no Google credentials: Application Default Credentials are not set up',
          fix: 'run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN',
        },
        ...notChecked(input, 'no Google credentials'),
      ],
      shortfalls: [],
    };
  }
  const reader = new GoogleApiReader({ accessToken: token, timeoutMs, quotaProject: input.quotaProject, bases: apis });
  const findings: Finding[] = [];
  const p = { project: input.project };
  const quota = input.quotaProject ? `, quota project ${input.quotaProject}${input.quotaProjectFrom ? ` (${input.quotaProjectFrom})` : ''}` : '';

  let email: string | undefined;
  try {
    const info = await reader.call(CALLS.tokenInfo, {}, { query: { access_token: token } });
    email = typeof info.email === 'string' ? info.email : undefined;
    const who = email ?? `an identity without the email scope (client ${String(info.azp ?? info.aud ?? 'unknown')})`;
    findings.push({ check: 'gcp identity', verdict: 'pass', detail: `${who}, project ${input.project}${quota}` });
  } catch (error) {
    findings.push({
      check: 'gcp identity',
      verdict: 'fail',
      // The token is part of the tokeninfo URL: never print it.
      detail: `the Google token was refused: ${message(error).split(token).join('<token>')}`,
      fix: 'run gcloud auth application-default login again (the token may have expired)',
    });
    return { findings: [...findings, ...notChecked(input, 'the Google token was refused')], shortfalls: [] };
  }

  let enabled: ReadonlySet<string> | undefined;
  try {
    const listed = new Set(
      (
        await reader.pages(
          CALLS.servicesList,
          p,
          (page) => ((page.services as { config?: { name?: string }; name?: string }[] | undefined) ?? []).map((s) => ({ name: s.config?.name ?? s.name?.split('/').pop() ?? '' })),
          { filter: 'state:ENABLED', pageSize: '200' },
        )
      ).map((s) => s.name),
    );
    enabled = listed;
    const missing = input.requiredApis.filter((a) => !listed.has(a));
    findings.push(
      missing.length > 0
        ? {
            check: 'gcp apis',
            verdict: 'fail',
            detail: `not enabled in ${input.project}: ${missing.join(', ')}`,
            fix: `gcloud services enable ${missing.join(' ')} --project ${input.project}`,
          }
        : { check: 'gcp apis', verdict: 'pass', detail: `all ${input.requiredApis.length} APIs enabled: ${input.requiredApis.join(', ')}` },
    );
  } catch (error) {
    // Service Usage is a client-based API: with gcloud's own client project as the quota project it refuses local ADC.
    const quotaProjectMissing = !input.quotaProject && /quota project/i.test(message(error));
    findings.push({
      check: 'gcp apis',
      verdict: 'fail',
      detail: `could not list the enabled APIs: ${message(error)}`,
      fix: quotaProjectMissing
        ? `gcloud auth application-default set-quota-project ${input.project} (or set GOOGLE_CLOUD_QUOTA_PROJECT=${input.project}), then run preflight again`
        : `gcloud services enable serviceusage.googleapis.com ${input.requiredApis.join(' ')} --project ${input.project}, and grant the deployer roles/serviceusage.serviceUsageConsumer`,
    });
  }

  try {
    const granted = new Set<string>();
    for (let i = 0; i < input.permissions.length; i += PERMISSIONS_PER_CALL) {
      const answer = await reader.call(CALLS.testIamPermissions, p, { body: { permissions: input.permissions.slice(i, i + PERMISSIONS_PER_CALL) } });
      for (const permission of (answer.permissions as string[] | undefined) ?? []) granted.add(permission);
    }
    const missing = input.permissions.filter((permission) => !granted.has(permission));
    findings.push(
      missing.length > 0
        ? {
            check: 'gcp permissions',
            verdict: 'fail',
            detail: `the deployer lacks ${missing.length} of ${input.permissions.length} permissions the stacks need on ${input.project}: ${missing.join(', ')}`,
            fix: `grant the roles that hold them, e.g. ${GCP_DEPLOYER_ROLES.join(', ')} (gcloud projects add-iam-policy-binding ${input.project} --member=... --role=...)${heldBy(missing)}`,
          }
        : { check: 'gcp permissions', verdict: 'pass', detail: `all ${input.permissions.length} permissions the stacks need are held on ${input.project}` },
    );
  } catch (error) {
    findings.push({
      check: 'gcp permissions',
      verdict: 'fail',
      detail: `could not test the permissions: ${message(error)}`,
      fix: 'enable cloudresourcemanager.googleapis.com and check the project ID',
    });
  }

  const quotas = await quotaFindings(reader, input);
  findings.push(...quotas.findings);
  if (quotas.shortfalls.length > 0) findings.push(requestsFinding(input.project, quotas.shortfalls.length, enabled));
  findings.push(...(await nameFindings(reader, input)));
  findings.push(...(await attendeeReachFindings(reader, input)));
  return { findings, shortfalls: quotas.shortfalls, ...(email ? { email } : {}) };
}

/** `; <permission>, <what needs it>, is in <role>` for each missing permission worth naming a role for. */
function heldBy(missing: readonly string[]): string {
  return missing
    .flatMap((permission) => (GCP_PERMISSION_HOLDERS[permission] ? [`; ${permission}, ${GCP_PERMISSION_HOLDERS[permission].neededBy}, is in ${GCP_PERMISSION_HOLDERS[permission].role}`] : []))
    .join('');
}

/** What a project's checks would have covered, said when there is no identity (`why`). */
function notChecked(input: GcpPreflightInput, why: string): Finding[] {
  return gcpNotChecked(uncheckedScope(input), why);
}

/** Whether the quota requests for this project can be filed through the Cloud Quotas API (`preflight --request-quotas`). */
function requestsFinding(project: string, count: number, enabled: ReadonlySet<string> | undefined): Finding {
  const check = 'gcp quota requests';
  const needs = `${CLOUD_QUOTAS_API} enabled in ${project} and cloudquotas.quotas.get and cloudquotas.quotas.update (roles/cloudquotas.admin)`;
  if (enabled?.has(CLOUD_QUOTAS_API)) {
    return {
      check,
      verdict: 'pass',
      detail: `${count} quota request${
        count === 1 ? '' : 's'
      } to file: ${CLOUD_QUOTAS_API} is enabled; preflight --request-quotas also needs cloudquotas.quotas.get and cloudquotas.quotas.update (roles/cloudquotas.admin)`,
    };
  }
  return {
    check,
    verdict: 'warn',
    detail: `${count} quota request${count === 1 ? '' : 's'} to file, and preflight --request-quotas files them through the Cloud Quotas API, which needs ${needs}: ${
      enabled ? 'the API is not enabled' : 'whether the API is enabled is not known'
    }`,
    fix: `gcloud services enable ${CLOUD_QUOTAS_API} --project ${project}, or file the requests printed below by hand`,
  };
}

interface GoogleQuota {
  readonly metric: string;
  readonly limit: number;
  readonly usage: number;
}

/**
 * The project's quotas (`projects.get`) and each region's (`regions.get`, which also lists the region's
 * zones: the live answer the slots' zones are checked against), against what the environments placed
 * there take. A need that brings the total exactly to the limit fits; one more is short.
 */
async function quotaFindings(reader: GoogleApiReader, input: GcpPreflightInput): Promise<{ findings: Finding[]; shortfalls: GcpQuotaShortfall[] }> {
  const findings: Finding[] = [];
  const shortfalls: GcpQuotaShortfall[] = [];
  const named = (check: string, where: string) => (input.named ? `${check} (${where})` : check);
  const regional = new Map<string, GoogleQuota[]>();
  for (const { region, zones } of input.regions) {
    const where = `${region} of project ${input.project}`;
    try {
      const answer = await reader.call(CALLS.regionsGet, { project: input.project, region });
      regional.set(region, (answer.quotas as GoogleQuota[] | undefined) ?? []);
      findings.push(zoneFinding(named('gcp zones', where), region, zones, answer.zones));
    } catch (error) {
      findings.push({
        check: named('gcp quotas', where),
        verdict: 'warn',
        detail: `could not read the quotas and zones of ${where}, so they were not checked: ${message(error)}`,
        fix: 'grant the deployer compute.regions.get (roles/compute.viewer)',
      });
    }
  }
  let global: GoogleQuota[] | undefined;
  try {
    global = ((await reader.call(CALLS.projectsGet, { project: input.project })).quotas as GoogleQuota[] | undefined) ?? [];
  } catch (error) {
    findings.push({
      check: named('gcp quotas', `project ${input.project}`),
      verdict: 'warn',
      detail: `could not read the quotas of project ${input.project}, so its project-wide quotas were not checked: ${message(error)}`,
      fix: 'grant the deployer compute.projects.get (roles/compute.viewer)',
    });
  }
  for (const { metric, need, scope, counted, region } of input.needs.quotas) {
    if (need === 0) continue;
    const inRegion = region ?? input.regions[0]?.region;
    const list = scope === 'region' ? regional.get(inRegion ?? '') : global;
    // Not read: said above.
    if (!list) continue;
    const where = scope === 'region' ? `${inRegion} of project ${input.project}` : `project ${input.project}`;
    const check = named(`gcp quota ${metric}`, where);
    const quota = list.find((q) => q.metric === metric);
    if (!quota) {
      findings.push({ check, verdict: 'warn', detail: `${metric} is not among the quotas of ${where}; ${need} needed (${counted}), not checked` });
      continue;
    }
    const deployed = input.deployed?.find((d) => d.metric === metric && d.scope === scope && (scope === 'project' || (d.region ?? input.regions[0]?.region) === inRegion));
    const count = countQuota(quota.usage, { need, deployedNeed: deployed?.need, deployedEnvs: deployed?.environments }, quota.limit, `for this lab (${counted})`);
    const detail = `${metric} in ${where}: ${count.text}`;
    if (count.verdict === 'fail') {
      const shortfall: GcpQuotaShortfall = {
        project: input.project,
        ...(scope === 'region' && inRegion ? { region: inRegion } : {}),
        metric,
        used: quota.usage,
        need: count.still,
        limit: quota.limit,
      };
      shortfalls.push(shortfall);
      const spec = GCP_QUOTAS.find((q) => q.id === metric);
      const command = spec ? gcpRequestCommand(gcpQuotaRequest(spec, input.project, shortfall.region, quota.usage + count.still)) : `${quotasConsoleUrl(input.project)} (${metric})`;
      findings.push({
        check,
        verdict: 'fail',
        detail,
        fix: `request ${quota.usage + count.still} (npx hoplab preflight --request-quotas files it): ${command}; or free some, or deploy fewer environments (--env)`,
      });
    } else {
      findings.push({ check, verdict: 'pass', detail });
    }
  }
  for (const note of input.needs.notes) findings.push({ check: 'gcp quotas', verdict: 'warn', detail: note });
  return { findings, shortfalls };
}

/** Whether the zones of a region's slots are among the zones `regions.get` lists for it (URLs ending in the zone's name). */
function zoneFinding(check: string, region: string, zones: readonly string[], listed: unknown): Finding {
  const names = (Array.isArray(listed) ? listed : []).map((z) => String(z).split('/').pop() ?? '');
  if (names.length === 0) return { check, verdict: 'warn', detail: `regions.get listed no zones for ${region}: ${zones.join(', ')} not checked` };
  const missing = zones.filter((z) => !names.includes(z));
  return missing.length > 0
    ? {
        check,
        verdict: 'fail',
        detail: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not a zone of ${region}; it has ${names.join(', ')}`,
        fix: 'use zones of that list: gcp.zones for gcp.region; in the other regions of gcp.regions hoplab derives them from its zone table (lib/model/zones.ts)',
      }
    : { check, verdict: 'pass', detail: `${zones.join(', ')} ${zones.length === 1 ? 'is a zone' : 'are zones'} of ${region} (regions.get)` };
}

/** The `hoplab-env` and `hoplab-workshop` labels the stack's google provider puts on everything. */
function expectedLabels(stack: SynthStack): Record<string, string> {
  const provider = block(block(stack.json.provider)?.google);
  const labels = provider?.default_labels;
  return isRecord(labels) ? (labels as Record<string, string>) : {};
}

async function nameFindings(reader: GoogleApiReader, input: GcpPreflightInput): Promise<Finding[]> {
  let clusters: { name?: string; resourceLabels?: Record<string, string>; location?: string }[];
  try {
    clusters = ((await reader.call(CALLS.clustersList, { project: input.project })).clusters as typeof clusters | undefined) ?? [];
  } catch (error) {
    return [{ check: 'gcp names', verdict: 'warn', detail: `could not list GKE clusters: ${message(error)}`, fix: 'grant the deployer container.clusters.list' }];
  }
  const findings: Finding[] = [];
  for (const { env, stack } of input.clusterStacks) {
    const labels = expectedLabels(stack);
    const names = (type: string, field = 'name') =>
      resourcesOf(stack, type)
        .map((r) => literalString(stack, r.config[field]))
        .filter((n): n is string => n !== undefined);
    const taken: string[] = [];
    const mine: string[] = [];
    const errors: string[] = [];
    let clusterIsOurs = false;
    for (const name of names('google_container_cluster')) {
      const found = clusters.find((c) => c.name === name);
      if (!found) continue;
      const isOurs = found.resourceLabels?.[TAG_KEYS.env] === labels[TAG_KEYS.env] && found.resourceLabels?.[TAG_KEYS.workshop] === labels[TAG_KEYS.workshop];
      clusterIsOurs ||= isOurs;
      (isOurs ? mine : taken).push(`GKE cluster ${name} (${found.location ?? '?'})`);
    }
    // Networks and service accounts carry no labels: they are this lab's when its cluster is.
    const lookups = [
      ...names('google_compute_network').map((n) => ({ label: `network ${n}`, look: () => reader.call(CALLS.networksGet, { project: input.project, network: n }) })),
      ...names('google_service_account', 'account_id').map((id) => {
        const email = `${id}@${input.project}.iam.gserviceaccount.com`;
        return { label: `service account ${email}`, look: () => reader.call(CALLS.serviceAccountsGet, { project: input.project, email }) };
      }),
    ];
    for (const { label, look } of lookups) {
      try {
        await look();
        (clusterIsOurs ? mine : taken).push(label);
      } catch (error) {
        if (!notFound(error)) errors.push(`${label}: ${message(error)}`);
      }
    }
    const check = `gcp names ${env}`;
    if (taken.length > 0) {
      findings.push({
        check,
        verdict: 'fail',
        detail: `already exist and are not this workshop's (labels ${TAG_KEYS.env}=${labels[TAG_KEYS.env]}, ${TAG_KEYS.workshop}=${labels[TAG_KEYS.workshop]}): ${taken.join(', ')}`,
        fix: 'another lab of this name is in the project (or an earlier one was left over): pick another `name`, or tear it down first (npm run teardown -- --leftovers-only lists it)',
      });
    } else if (errors.length > 0) {
      findings.push({ check, verdict: 'warn', detail: `could not look up: ${errors.join('; ')}` });
    } else {
      findings.push({
        check,
        verdict: 'pass',
        detail:
          mine.length > 0
            ? `exist and are this workshop's own (a re-deploy updates them): ${mine.join(', ')}`
            : `all ${lookups.length + names('google_container_cluster').length} names free (cluster, network, service account)`,
      });
    }
  }
  return findings;
}
