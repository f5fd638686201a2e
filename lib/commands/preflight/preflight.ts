/**
 * `preflight`: everything that can be known before a deploy spends money, for
 * the selected environments and stack kinds. The lab is synthesized into a
 * temporary directory and every list (permissions, APIs, quotas, names) is
 * derived from what it synthesizes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { DEFAULT_GCP_PROJECT, LabConfig } from '../../config/schema';
import { labEnvironments, narrowedConfig } from '../../config/environments';
import { explainDir } from '../../lab/anatomy/explain-dir';
import { ExplainModel } from '../../lab/anatomy/model';
import { readSynthDir, SynthDir } from '../../lab/files/synth-dir';
import { SynthStack } from '../../kit/terraform/terraform-json';
import { addPlacedLab } from '../../lab/placement/placed-lab';
import { DeployedPlacement, placeDeployed } from '../../lab/placement/deployed-placement';
import { slotEnvironments } from '../../lab/placement/lab-placement';
import { countedNeeds, PlacementReport, placementReport } from '../../lab/placement/placement-report';
import { GcpCredentials, gcpCredentials } from '../../kit/google/google-credentials';
import { findProviderMirror } from '../../lab/files/terraform-env';
import { StackKind, STACK_KINDS } from '../../lab/selection/stack-graph';
import { LabSelection } from '../../lab/selection/selection';
import { awsFindings } from './aws-checks';
import { AwsQuotaShortfall } from './aws-quota-checks';
import { blocking, Finding } from '../../lab/checks/finding';
import { GcpQuotaShortfall, gcpFindings, GOOGLE_APIS, GoogleApis } from './gcp-checks';
import { GoogleApiReader } from '../../kit/google/google-api-reader';
import { FilingClients, filedRequestFindings } from './quota-filing';
import { awsQuotaRequest, gcpQuotaRequest, QUOTA_REQUESTS_FILE, QuotaRequest, readQuotaRequests, requestCommand } from './quota-requests';
import { addressFindings, learnPublicAddress, providerSourceFinding, runTool, ToolRunner, toolFindings } from '../../lab/checks/host-checks';
import { exposuresOfModel, formatOverDefault, LabQuotaNeeds, labQuotaNeeds, overDefaultLimits, QuotaNeed } from '../../lab/estimate/quotas';
import { AWS_QUOTAS, GCP_QUOTAS } from '../../model/quotas';
import { AwsSlot, GcpSlot } from '../../model/slots';
import { requestProblems } from '../../lab/selection/request-problems';
import type { AwsQuotaNeeds, GcpQuotaNeed, GcpQuotaNeeds } from '../../lab/estimate/quotas';
import { Shard } from '../../lab/selection/shard';
import { requiredPermissions } from './required-permissions';
import { admitsAnyAddress, notCoveredBy } from '../../model/cidr';
import { OUTSIDE_SOURCES_SEES, outsideSourcesFix } from '../../model/exposure-facts';

/** `awsEndpoint`: AWS checks run against the emulator, and GCP is left out (only aws-cluster runs there). */
export interface PreflightOptions extends LabSelection {
  /** `--shard K/N` (shards need an s3 or gcs backend). @default - no sharding */
  readonly shard?: Shard;
  /** The host's public address (`--my-ip`); learned with one request when undefined. */
  readonly myIp?: string;
  /** Overrides for tests. */
  readonly myIpUrl?: string;
  readonly registryUrl?: string;
  readonly googleApis?: Partial<GoogleApis>;
  /** Where the AWS checks send their requests, with dummy credentials (tests: a loopback stand-in). @default - AWS, or the emulator */
  readonly awsApi?: string;
  /** A Google access token (tests); else GOOGLE_OAUTH_ACCESS_TOKEN or gcloud's ADC token. */
  readonly googleAccessToken?: string;
  readonly runTool?: ToolRunner;
  /** Progress (one line per check group), e.g. to stderr. */
  readonly progress?: (line: string) => void;
  /** The lab placed where its states say it is, when the caller has read them (deploy). @default - read from the states in the current directory */
  readonly deployed?: DeployedPlacement;
  /** The date of the check (the workshop's expiry). @default the host's clock */
  readonly now?: Date;
  /** The record of filed quota requests. @default .hoplab/quota-requests.json */
  readonly quotaRequestsFile?: string;
}

export interface PreflightResult {
  readonly findings: readonly Finding[];
  readonly ok: boolean;
  /** A request for more of each quota found short with credentials (`--request-quotas` files them). */
  readonly requests: readonly QuotaRequest[];
  /** Where the requests are filed: the clients preflight used. */
  readonly filing: FilingClients;
  /** Where each environment goes, when the config places them (the JSON form carries it as `placement`). */
  readonly placement?: { readonly report: PlacementReport; readonly order: readonly string[] };
  /** What was checked, for the report. */
  readonly meta: {
    readonly title: string;
    readonly generated_at: string;
    readonly environments: readonly string[];
    readonly stacks: readonly string[];
    readonly aws_region: string | null;
    readonly gcp_project: string | null;
    readonly emulator: string | null;
  };
}

/** The config narrowed to some environments. */
function narrowed(config: LabConfig, envs?: readonly string[]): LabConfig {
  return narrowedConfig(config, envs);
}

/** The explanation with the exposures of unselected `-lb` stacks left out (they make no load balancers). */
function selectedExposures(model: ExplainModel, kinds: readonly StackKind[]): ExplainModel {
  return {
    ...model,
    environments: model.environments.map((e) => ({ ...e, clouds: e.clouds.map((c) => (kinds.includes(`${c.cloud}-lb`) ? c : { ...c, exposures: [] })) })),
  };
}

export async function runPreflight(options: PreflightOptions): Promise<PreflightResult> {
  const progress = options.progress ?? (() => undefined);
  const emulator = options.awsEndpoint;
  const requested = options.kinds ?? [...STACK_KINDS];
  // Only aws-cluster stacks run against the emulator.
  const kinds = emulator ? requested.filter((k) => k === 'aws-cluster') : requested;
  const config = narrowed(options.config, options.envs);
  const envs = labEnvironments(config).map((e) => e.name);
  // Every reason deploy would refuse this request, as failing findings (the stacks the emulator cannot run are said below, as left out).
  // Placed as the whole lab is, where its states say the deployed environments are (an environment's slot does not depend on which are selected).
  const deployed =
    options.deployed ?? (await placeDeployed(options.config, { cwd: process.cwd(), awsEndpoint: emulator, clouds: (['aws', 'gcp'] as const).filter((c) => kinds.some((k) => k.startsWith(c))) }));
  const findings: Finding[] = requestProblems({ direction: 'deploy', kinds, config: options.config, awsEndpoint: emulator, shard: options.shard, now: options.now, deployed, envs: options.envs });
  if (emulator && kinds.length < requested.length) {
    findings.push({
      check: 'emulator mode',
      verdict: 'skip',
      detail: `HOPLAB_AWS_ENDPOINT=${emulator}: only aws-cluster stacks are checked (against the emulator); ${requested.filter((k) => k !== 'aws-cluster').join(', ')} left out`,
    });
  }
  const placement = deployed.placement;
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-preflight-'));
  let synth: SynthDir;
  let model: ExplainModel;
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addPlacedLab(app, config, { awsEmulator: emulator ? { endpoint: emulator } : undefined, placement });
    app.synth();
    synth = readSynthDir(dir);
    model = selectedExposures(explainDir(dir), kinds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const selectedStacks: SynthStack[] = synth.clouds.flatMap((c) => [
    ...(c.cluster && kinds.includes(`${c.cloud}-cluster`) ? [c.cluster] : []),
    ...(c.lb && kinds.includes(`${c.cloud}-lb`) ? [c.lb] : []),
  ]);
  const aws = kinds.some((k) => k.startsWith('aws-'));
  const gcp = kinds.some((k) => k.startsWith('gcp-'));
  const permissions = requiredPermissions(selectedStacks);
  for (const type of permissions.unmapped) {
    findings.push({
      check: 'permission map',
      verdict: 'warn',
      detail: `${type} is synthesized but hoplab does not know what it needs: not checked`,
      fix: 'add it to lib/commands/preflight/required-permissions.ts',
    });
  }

  progress('preflight: tools and provider sources');
  findings.push(
    ...toolFindings(
      {
        awsCli: aws && !emulator && kinds.includes('aws-lb'),
        gcloud: gcp,
        gkeAuthPlugin: gcp && kinds.includes('gcp-lb') && config.gcp.kubernetesCredentials === 'gke-gcloud-auth-plugin',
      },
      options.runTool ?? runTool,
    ),
  );
  let mirror: string | undefined;
  try {
    mirror = emulator ? findProviderMirror() : undefined;
  } catch (error) {
    findings.push({ check: 'provider sources', verdict: 'fail', detail: error instanceof Error ? error.message : String(error) });
  }
  if (!findings.some((f) => f.check === 'provider sources')) {
    findings.push(await providerSourceFinding({ mirror, emulator: emulator !== undefined, registryUrl: options.registryUrl }));
  }

  progress('preflight: the host’s public address');
  const lists = [
    ...(aws && !emulator ? [{ field: 'aws.endpointPublicAccessCidrs', cidrs: config.aws.endpointPublicAccessCidrs }] : []),
    ...(gcp ? [{ field: 'gcp.masterAuthorizedCidrs', cidrs: config.gcp.masterAuthorizedCidrs }] : []),
    // A narrowed client list with load balancers selected: the lab deploys, but this machine cannot measure it.
    ...(kinds.some((k) => k.endsWith('-lb')) && !admitsAnyAddress(config.app.allowedSourceCidrs)
      ? [{ field: 'app.allowedSourceCidrs', cidrs: config.app.allowedSourceCidrs, outside: OUTSIDE_SOURCES_SEES, verdict: 'warn' as const, fix: outsideSourcesFix }]
      : []),
  ];
  if (lists.length > 0) findings.push(...addressFindings(await learnPublicAddress({ myIp: options.myIp, url: options.myIpUrl }), lists));
  findings.push(...endpointReachFindings(config, { aws: aws && !emulator, gcp }));

  // What the selected stacks take of each quota, per slot (the lb stacks' load balancers as explain derives them).
  const exposures = exposuresOfModel(model);
  const selected = { ...synth, clouds: synth.clouds.filter((c) => kinds.includes(`${c.cloud}-cluster`)) };
  // The slots of the selected environments (placed as the whole lab is).
  const slots = slotEnvironments(placement)
    .filter((s) => (s.slot.cloud === 'aws' ? aws : gcp))
    .map((s) => ({ slot: s.slot, envs: s.envs.filter((e) => envs.includes(e)) }))
    .filter((s) => s.envs.length > 0);
  const quotaNeeds = labQuotaNeeds(selected, exposures, slots);
  // Of those, the part the environments already deployed hold (in use already: quota-count.ts): what their cluster
  // stacks make, which their cluster states say is there. Not their load balancers: whether an -lb stack applied is
  // not read here (its state would need its providers), so they are counted, deployed or not.
  const isDeployed = (cloud: 'aws' | 'gcp', env: string) => (cloud === 'aws' ? deployed.state.aws : deployed.state.gcp).has(env);
  const deployedClusters = { ...selected, clouds: selected.clouds.filter((c) => isDeployed(c.cloud, c.env)).map((c) => ({ ...c, lb: undefined })) };
  const deployedNeeds = labQuotaNeeds(
    deployedClusters,
    [],
    slots.map((s) => ({ slot: s.slot, envs: s.envs.filter((e) => isDeployed(s.slot.cloud, e)) })).filter((s) => s.envs.length > 0),
  );
  findings.push(...defaultLimitFindings(quotaNeeds.needs, envs.length, emulator !== undefined));

  // With credentials, every slot in its own account (or project) and region.
  const clusterStacks = (cloud: 'aws' | 'gcp', slotEnvs: readonly string[]) =>
    kinds.includes(`${cloud}-cluster`) ? synth.clouds.filter((c) => c.cloud === cloud && c.cluster && slotEnvs.includes(c.env)).map((c) => ({ env: c.env, stack: c.cluster! })) : [];
  const attendeesIn = <K extends 'aws' | 'gcp'>(cloud: K, slotEnvs: readonly string[]) =>
    kinds.includes(`${cloud}-cluster`) ? labEnvironments(config).flatMap((e) => (e.attendee?.[cloud] && slotEnvs.includes(e.name) ? [{ env: e.name, id: e.attendee[cloud]! }] : [])) : [];
  const shortfalls: { aws: AwsQuotaShortfall[]; gcp: GcpQuotaShortfall[] } = { aws: [], gcp: [] };
  let googleEmail: string | undefined;
  const credentials: Partial<GcpCredentials> | undefined = gcp ? (options.googleAccessToken ? { accessToken: options.googleAccessToken } : gcpCredentials()) : undefined;
  if (aws) {
    const awsSlots = slots.filter((s): s is { slot: AwsSlot; envs: string[] } => s.slot.cloud === 'aws');
    progress(
      `preflight: AWS (${
        emulator ? `emulator ${emulator}` : awsSlots.length > 3 ? `${awsSlots.length} slots, ${awsSlots[0].slot.id} to ${awsSlots.at(-1)!.slot.id}` : awsSlots.map((s) => s.slot.id).join(', ')
      })`,
    );
    const result = await awsFindings({
      endpoint: emulator ?? options.awsApi,
      clusterAdminArns: config.aws.clusterAdminArns ?? [],
      workshop: config.workshop.name,
      actions: permissions.aws,
      slots: awsSlots.map(({ slot, envs: slotEnvs }, i) => ({
        slot,
        clusterStacks: clusterStacks('aws', slotEnvs),
        // The lab-wide notes once, with the first slot.
        needs: awsNeedsOf(quotaNeeds, slot.id, i === 0 ? quotaNeeds.notes : []),
        ...(slotEnvs.some((e) => isDeployed('aws', e)) ? { deployed: { envs: slotEnvs.filter((e) => isDeployed('aws', e)).length, needs: awsNeedsOf(deployedNeeds, slot.id, []) } } : {}),
        attendees: attendeesIn('aws', slotEnvs).map((a) => ({ env: a.env, arn: a.id })),
      })),
    });
    findings.push(...result.findings);
    shortfalls.aws.push(...result.shortfalls);
  }
  if (gcp) {
    const gcpSlots = slots.filter((s): s is { slot: GcpSlot; envs: string[] } => s.slot.cloud === 'gcp');
    const projects = [...new Set(gcpSlots.map((s) => s.slot.project))];
    for (const project of projects) {
      const mine = gcpSlots.filter((s) => s.slot.project === project);
      const slotEnvs = mine.flatMap((s) => s.envs);
      if (project === DEFAULT_GCP_PROJECT) {
        findings.push({ check: 'gcp', verdict: 'skip', detail: `not checked: gcp.project is the placeholder "${DEFAULT_GCP_PROJECT}" (see gcp project)` });
        continue;
      }
      progress(`preflight: GCP (project ${project})`);
      const result = await gcpFindings({
        project,
        regions: mine.map((s) => ({ region: s.slot.region, zones: s.slot.zones })),
        named: gcpSlots.length > 1,
        accessToken: credentials?.accessToken,
        quotaProject: credentials?.quotaProject,
        quotaProjectFrom: credentials?.quotaProjectFrom,
        apis: options.googleApis,
        clusterStacks: clusterStacks('gcp', slotEnvs),
        permissions: permissions.gcp,
        requiredApis: permissions.gcpApis,
        needs: gcpNeedsOf(
          quotaNeeds,
          project,
          mine.map((s) => s.slot.region),
          project === projects[0] ? quotaNeeds.notes : [],
        ),
        deployed: gcpProjectNeeds(
          deployedNeeds,
          project,
          mine.map((s) => s.slot.region),
        ),
        attendees: attendeesIn('gcp', slotEnvs).map((a) => ({ env: a.env, member: a.id })),
      });
      findings.push(...result.findings);
      shortfalls.gcp.push(...result.shortfalls);
      googleEmail ??= result.email;
    }
  }
  const requests = quotaRequestsOf(shortfalls);
  // The requests filed on an earlier run, and their status now.
  const recordFile = options.quotaRequestsFile ?? QUOTA_REQUESTS_FILE;
  const google = credentials?.accessToken
    ? new GoogleApiReader({ accessToken: credentials.accessToken, timeoutMs: 15_000, quotaProject: credentials.quotaProject, bases: { ...GOOGLE_APIS, ...options.googleApis } })
    : undefined;
  const filingClients = { awsEndpoint: emulator ?? options.awsApi, google, ...(googleEmail ? { email: googleEmail } : {}) };
  if (!emulator) {
    try {
      const recorded = readQuotaRequests(recordFile).requests;
      if (recorded.length > 0) progress('preflight: the quota requests filed before');
      findings.push(...(await filedRequestFindings(recorded, filingClients)));
    } catch (error) {
      findings.push({ check: 'quota requests', verdict: 'warn', detail: error instanceof Error ? error.message : String(error) });
    }
  }
  const stacks = selectedStacks.map((s) => s.name);
  return {
    findings,
    ok: blocking(findings).length === 0,
    requests,
    filing: filingClients,
    ...(placement.configured ? { placement: { report: placementReport(placement, countedNeeds(quotaNeeds)), order: placement.envs } } : {}),
    meta: {
      title: `hoplab preflight: ${envs.length > 4 ? `${envs.length} environments, ${envs[0]} to ${envs.at(-1)}` : envs.join(', ')} (${kinds.join(', ')})`,
      generated_at: new Date().toISOString(),
      environments: envs,
      stacks,
      aws_region: aws ? config.aws.region : null,
      gcp_project: gcp ? config.gcp.project : null,
      emulator: emulator ?? null,
    },
  };
}

/**
 * In a workshop, whether every address the load balancers admit (`app.allowedSourceCidrs`)
 * may also reach the cluster API endpoints (`aws.endpointPublicAccessCidrs`,
 * `gcp.masterAuthorizedCidrs`): an attendee outside them reaches the demo app but
 * `kubectl` to their cluster fails. Checked from the config alone.
 */
export function endpointReachFindings(config: LabConfig, clouds: { readonly aws: boolean; readonly gcp: boolean }): Finding[] {
  if (config.attendees === undefined) return [];
  const app = config.app.allowedSourceCidrs;
  const lists = [
    ...(clouds.aws ? [{ cloud: 'aws', field: 'aws.endpointPublicAccessCidrs', cidrs: config.aws.endpointPublicAccessCidrs }] : []),
    ...(clouds.gcp ? [{ cloud: 'gcp', field: 'gcp.masterAuthorizedCidrs', cidrs: config.gcp.masterAuthorizedCidrs }] : []),
  ];
  return lists.map(({ cloud, field, cidrs }) => {
    const outside = notCoveredBy(app, cidrs);
    return outside.length === 0
      ? {
          check: `attendee addresses ${cloud}`,
          verdict: 'pass' as const,
          detail: `every address app.allowedSourceCidrs admits (${app.join(', ')}) may reach the API endpoint (${field} ${cidrs.join(', ')})`,
        }
      : {
          check: `attendee addresses ${cloud}`,
          verdict: 'warn' as const,
          detail:
            `app.allowedSourceCidrs admits addresses that ${field} (${cidrs.join(', ')}) does not: ${outside.join(', ')}. ` +
            'Attendees there reach the demo app, but kubectl to their cluster fails (the API endpoint refuses them)',
          fix: `add the attendees' networks to ${field} (their addresses in ${outside.join(', ')}), or narrow app.allowedSourceCidrs to what ${field} admits`,
        };
  });
}

/**
 * Without credentials, per slot (or per project): the quotas the selected environments take beyond
 * each cloud's documented default, said to be the default limit, not the account's, with the request
 * that would raise it; and the needs of the quotas no default decides (AWS's vCPUs, set per account;
 * every GCP metric of the table, Google publishing a default for networks only), which preflight checks
 * with credentials against the account's or project's own limit (`aws quota ...`, `gcp quota ...`).
 */
export function defaultLimitFindings(needs: readonly QuotaNeed[], environments: number, emulator = false): Finding[] {
  // The emulator has no quotas worth the name; its run is about the stacks.
  if (emulator || needs.length === 0) return [];
  const over = overDefaultLimits(needs);
  const clouds = (['aws', 'gcp'] as const).filter((c) => needs.some((n) => n.quota.cloud === c));
  const findings: Finding[] = [];
  if (over.length === 0) {
    const names = clouds.map((c) => (c === 'aws' ? "AWS's" : "Google Cloud's")).join(' and ');
    findings.push({ check: 'default quotas', verdict: 'pass', detail: `${environments} environment${environments === 1 ? ' fits' : 's fit'} ${names} default limits (checked without credentials)` });
  }
  // Named by where when the quota is counted in more than one place (several slots or projects).
  const places = (id: string) => needs.filter((n) => n.quota.id === id).length;
  for (const o of over) {
    const request = defaultRequest(o);
    findings.push({
      check: `${o.quota.cloud} default quota ${o.quota.id}${places(o.quota.id) > 1 ? ` (${o.where})` : ''}`,
      verdict: 'warn' as const,
      detail: `${formatOverDefault(o)} (checked without credentials)`,
      fix:
        `with credentials preflight checks your ${o.quota.cloud === 'aws' ? 'account' : 'project'}'s own (${o.quota.cloud} quota ${o.quota.id}); ` +
        `if it holds the default, request ${o.need + o.quota.fresh}: ${request ? requestCommand(request) : `IAM & Admin > Quotas in ${o.where}`}; or deploy fewer environments (--env)`,
    });
  }
  const vcpus = needs.filter((n) => n.quota.cloud === 'aws' && n.quota.variesByAccount && n.need > 0);
  if (vcpus.length > 0) {
    findings.push({
      check: 'aws quota needs',
      verdict: 'skip',
      detail: `${vcpus[0].quota.name}, AWS sets its value per account, no default: ${vcpus
        .map((n) => `${n.slots[0].id} ${n.need}`)
        .join(', ')}; preflight checks each slot with credentials (aws quota vcpus)`,
    });
  }
  const gcpNeeds = needs.filter((n) => n.quota.cloud === 'gcp');
  const projects = [...new Set(gcpNeeds.map((n) => (n.slots[0].cloud === 'gcp' ? n.slots[0].project : '')))];
  for (const project of projects) {
    const inProject = gcpNeeds.filter((n) => n.slots[0].cloud === 'gcp' && n.slots[0].project === project);
    const regions = [...new Set(inProject.filter((n) => n.quota.scope !== 'project').map((n) => n.slots[0].region))];
    const list = (ns: readonly QuotaNeed[]) => ns.map((n) => `${n.quota.id} ${n.need}`).join(', ');
    const parts = [
      ...regions.map((region) => `${region}: ${list(inProject.filter((n) => n.quota.scope !== 'project' && n.slots[0].region === region))}`),
      `project-wide: ${list(inProject.filter((n) => n.quota.scope === 'project'))}`,
    ];
    findings.push({
      check: projects.length > 1 ? `gcp quota needs (project ${project})` : 'gcp quota needs',
      verdict: 'skip',
      detail: `every Compute Engine quota of the table, what the environments take in project ${project}: ${parts.join(
        '; ',
      )}. Google publishes a default for NETWORKS only; preflight checks each need against the project's own limit and usage with credentials (gcp quota <METRIC>)`,
    });
  }
  return findings;
}

/** The request that would raise a quota over its default to what the environments need with what a fresh account holds. */
function defaultRequest(over: QuotaNeed): QuotaRequest | undefined {
  const slot = over.slots[0];
  const desired = over.need + over.quota.fresh;
  if (slot.cloud === 'aws') return over.quota.quotaCode ? awsQuotaRequest({ slot, quota: over.quota, used: 0, need: 0 }, desired) : undefined;
  return gcpQuotaRequest(over.quota, slot.project, slot.region, desired);
}

/** The requests for the quotas found short with credentials. */
function quotaRequestsOf(shortfalls: { readonly aws: readonly AwsQuotaShortfall[]; readonly gcp: readonly GcpQuotaShortfall[] }): QuotaRequest[] {
  return [
    ...shortfalls.aws.map((s) => awsQuotaRequest(s)),
    ...shortfalls.gcp.flatMap((s) => {
      const quota = GCP_QUOTAS.find((q) => q.id === s.metric);
      return quota ? [gcpQuotaRequest(quota, s.project, s.region, s.used + s.need)] : [];
    }),
  ];
}

/** The AWS needs of one slot, as the credential checks read them. */
function awsNeedsOf(needs: LabQuotaNeeds, slotId: string, notes: readonly string[]): AwsQuotaNeeds {
  const of = (id: string) => needs.needs.find((n) => n.quota.cloud === 'aws' && n.quota.id === id && n.slots.some((s) => s.id === slotId))?.need ?? 0;
  return { ...(Object.fromEntries(AWS_QUOTAS.map((q) => [q.id, of(q.id)])) as Omit<AwsQuotaNeeds, 'clbs' | 'notes'>), clbs: 0, notes };
}

/** A project's GCP needs: its project-scoped metrics, and the region-scoped ones of each of its regions (with the region), each with how many environments take it. */
function gcpProjectNeeds(needs: LabQuotaNeeds, project: string, regions: readonly string[]): (GcpQuotaNeed & { readonly environments: number })[] {
  const inProject = needs.needs.filter((n) => n.quota.cloud === 'gcp' && n.slots.some((s) => s.cloud === 'gcp' && s.project === project));
  return inProject.flatMap((n): (GcpQuotaNeed & { readonly environments: number })[] => {
    const common = { metric: n.quota.id, need: n.need, counted: n.counted ?? 'per slot', environments: n.environments };
    if (n.quota.scope === 'project') return [{ ...common, scope: 'project' as const }];
    const region = n.slots[0].region;
    return regions.includes(region) ? [{ ...common, scope: 'region' as const, region }] : [];
  });
}

/** The GCP needs of one project, as the credential checks read them. */
function gcpNeedsOf(needs: LabQuotaNeeds, project: string, regions: readonly string[], notes: readonly string[]): GcpQuotaNeeds {
  return { quotas: gcpProjectNeeds(needs, project, regions).map(({ metric, need, counted, scope, region }) => ({ metric, need, counted, scope, ...(region ? { region } : {}) })), notes };
}
