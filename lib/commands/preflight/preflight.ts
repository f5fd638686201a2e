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
import { placeLab, slotEnvironments } from '../../lab/placement/lab-placement';
import { countedNeeds, PlacementReport, placementReport } from '../../lab/placement/placement-report';
import { GcpCredentials, gcpCredentials } from '../../kit/google/google-credentials';
import { findProviderMirror } from '../../kit/terraform/terraform';
import { StackKind, STACK_KINDS } from '../../lab/selection/stack-graph';
import { LabSelection } from '../../lab/selection/selection';
import { awsFindings } from './aws-checks';
import { blocking, Finding } from '../../lab/checks/finding';
import { gcpFindings, GoogleApis } from './gcp-checks';
import { addressFindings, learnPublicAddress, providerSourceFinding, runTool, ToolRunner, toolFindings } from '../../lab/checks/host-checks';
import { exposuresOfModel, formatOverDefault, LabQuotaNeeds, labQuotaNeeds, overDefaultLimits, QuotaNeed } from '../../lab/estimate/quotas';
import { AWS_QUOTAS } from '../../model/quotas';
import { HOST_ACCOUNT } from '../../model/slots';
import { requestProblems } from '../../lab/selection/request-problems';
import type { AwsQuotaNeeds, GcpQuotaNeeds } from '../../lab/estimate/quotas';
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
  /** The date of the check (the workshop's expiry). @default the host's clock */
  readonly now?: Date;
}

export interface PreflightResult {
  readonly findings: readonly Finding[];
  readonly ok: boolean;
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
  const findings: Finding[] = requestProblems({ direction: 'deploy', kinds, config: options.config, awsEndpoint: emulator, shard: options.shard, now: options.now });
  if (emulator && kinds.length < requested.length) {
    findings.push({
      check: 'emulator mode',
      verdict: 'skip',
      detail: `HOPLAB_AWS_ENDPOINT=${emulator}: only aws-cluster stacks are checked (against the emulator); ${requested.filter((k) => k !== 'aws-cluster').join(', ')} left out`,
    });
  }
  // Placed as the whole lab is (an environment's slot does not depend on which are selected), synthesized for the selection.
  const placement = placeLab(options.config);
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
  const slots = slotEnvironments(placement).filter((s) => (s.slot.cloud === 'aws' ? aws : gcp));
  const quotaNeeds = labQuotaNeeds(selected, exposures, slots);
  findings.push(...defaultLimitFindings(quotaNeeds.needs, envs.length, emulator !== undefined));
  // With credentials, the slot the credentials and aws.region / gcp.project point at (per-slot credentials: issue 26, pass 2).
  const credentialSlots = { aws: `${HOST_ACCOUNT}/${config.aws.region}`, gcp: `${config.gcp.project}/${config.gcp.region}` };
  const awsNeeds = aws ? awsNeedsOf(quotaNeeds, credentialSlots.aws, quotaNeeds.notes) : undefined;
  const gcpNeeds = gcp ? gcpNeedsOf(quotaNeeds, credentialSlots.gcp, config.gcp.project, quotaNeeds.notes) : undefined;
  for (const cloud of ['aws', 'gcp'] as const) {
    const others = slots.filter((s) => s.slot.cloud === cloud && s.slot.id !== credentialSlots[cloud]).map((s) => s.slot.id);
    if ((cloud === 'aws' ? aws : gcp) && others.length > 0 && !emulator) {
      findings.push({
        check: `${cloud} quotas of other slots`,
        verdict: 'warn',
        detail: `checked with credentials: ${credentialSlots[cloud]} only; ${others.join(', ')} against the documented defaults only`,
        fix: 'check each slot in its Service Quotas or IAM & Admin > Quotas console until preflight reads every slot with its own credentials',
      });
    }
  }

  const clusterStacks = (cloud: 'aws' | 'gcp') =>
    kinds.includes(`${cloud}-cluster`) ? synth.clouds.filter((c) => c.cloud === cloud && c.cluster).map((c) => ({ env: c.env, stack: c.cluster! })) : [];
  if (aws) {
    progress(`preflight: AWS (${emulator ? `emulator ${emulator}` : config.aws.region})`);
    findings.push(
      ...(await awsFindings({
        region: config.aws.region,
        endpoint: emulator ?? options.awsApi,
        clusterAdminArns: config.aws.clusterAdminArns ?? [],
        workshop: config.workshop.name,
        clusterStacks: clusterStacks('aws'),
        actions: permissions.aws,
        needs: awsNeeds!,
        attendees: kinds.includes('aws-cluster') ? labEnvironments(config).flatMap((e) => (e.attendee?.aws ? [{ env: e.name, arn: e.attendee.aws }] : [])) : [],
      })),
    );
  }
  if (gcp && config.gcp.project === DEFAULT_GCP_PROJECT) {
    findings.push({ check: 'gcp', verdict: 'skip', detail: `not checked: gcp.project is the placeholder "${DEFAULT_GCP_PROJECT}" (see gcp project)` });
  } else if (gcp) {
    progress(`preflight: GCP (project ${config.gcp.project})`);
    const credentials: Partial<GcpCredentials> | undefined = options.googleAccessToken ? { accessToken: options.googleAccessToken } : gcpCredentials();
    findings.push(
      ...(await gcpFindings({
        project: config.gcp.project,
        region: config.gcp.region,
        accessToken: credentials?.accessToken,
        quotaProject: credentials?.quotaProject,
        quotaProjectFrom: credentials?.quotaProjectFrom,
        apis: options.googleApis,
        clusterStacks: clusterStacks('gcp'),
        permissions: permissions.gcp,
        requiredApis: permissions.gcpApis,
        needs: gcpNeeds!,
        attendees: kinds.includes('gcp-cluster') ? labEnvironments(config).flatMap((e) => (e.attendee?.gcp ? [{ env: e.name, member: e.attendee.gcp }] : [])) : [],
      })),
    );
  }
  const stacks = selectedStacks.map((s) => s.name);
  return {
    findings,
    ok: blocking(findings).length === 0,
    ...(placement.configured ? { placement: { report: placementReport(placement, countedNeeds(quotaNeeds)), order: placement.envs } } : {}),
    meta: {
      title: `hoplab preflight: ${envs.join(', ')} (${kinds.join(', ')})`,
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
 * The quotas the selected environments take beyond each cloud's documented default, per slot (or
 * per project): checked without credentials, and said to be the default limit, not the account's
 * (the account's own quotas are checked with credentials, as `aws quota ...` and `gcp quota ...`).
 */
export function defaultLimitFindings(needs: readonly QuotaNeed[], environments: number, emulator = false): Finding[] {
  // The emulator has no quotas worth the name; its run is about the stacks.
  if (emulator || needs.length === 0) return [];
  const over = overDefaultLimits(needs);
  const clouds = (['aws', 'gcp'] as const).filter((c) => needs.some((n) => n.quota.cloud === c));
  if (over.length === 0) {
    const names = clouds.map((c) => (c === 'aws' ? "AWS's" : "Google Cloud's")).join(' and ');
    return [{ check: 'default quotas', verdict: 'pass', detail: `${environments} environment${environments === 1 ? ' fits' : 's fit'} ${names} default limits (checked without credentials)` }];
  }
  // Named by where when the quota is counted in more than one place (several slots or projects).
  const places = (id: string) => needs.filter((n) => n.quota.id === id).length;
  return over.map((o) => ({
    check: `${o.quota.cloud} default quota ${o.quota.id}${places(o.quota.id) > 1 ? ` (${o.where})` : ''}`,
    verdict: 'warn' as const,
    detail: `${formatOverDefault(o)} (checked without credentials)`,
    fix: o.quota.quotaCode
      ? `with credentials preflight checks your account's own (aws quota ${o.quota.id}); to raise it: Service Quotas, ${o.quota.serviceCode} ${o.quota.quotaCode} in ${o.where}, or deploy fewer environments (--env)`
      : `with credentials preflight checks your project's own (gcp quota ${o.quota.id}); to raise it: IAM & Admin > Quotas in ${o.where}, or deploy fewer environments (--env)`,
  }));
}

/** The AWS needs of one slot, as the credential checks read them. */
function awsNeedsOf(needs: LabQuotaNeeds, slotId: string, notes: readonly string[]): AwsQuotaNeeds {
  const of = (id: string) => needs.needs.find((n) => n.quota.cloud === 'aws' && n.quota.id === id && n.slots.some((s) => s.id === slotId))?.need ?? 0;
  return { ...(Object.fromEntries(AWS_QUOTAS.map((q) => [q.id, of(q.id)])) as Omit<AwsQuotaNeeds, 'clbs' | 'notes'>), clbs: 0, notes };
}

/** The GCP needs of one slot (region-scoped metrics) and of its project (project-scoped ones), as the credential checks read them. */
function gcpNeedsOf(needs: LabQuotaNeeds, slotId: string, project: string, notes: readonly string[]): GcpQuotaNeeds {
  const quotas = needs.needs
    .filter((n) => n.quota.cloud === 'gcp' && (n.quota.scope === 'project' ? n.slots.some((s) => s.cloud === 'gcp' && s.project === project) : n.slots.some((s) => s.id === slotId)))
    .map((n) => ({ metric: n.quota.id, scope: n.quota.scope === 'project' ? ('project' as const) : ('region' as const), need: n.need, counted: n.counted ?? 'per slot' }));
  return { quotas, notes };
}
