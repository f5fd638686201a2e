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
import { explainDir } from '../../plumbing/plan/explain-dir';
import { ExplainModel } from '../../plumbing/plan/model';
import { readSynthDir, SynthDir } from '../../plumbing/terraform/synth-dir';
import { SynthStack } from '../../plumbing/terraform/terraform-json';
import { addLab } from '../../stacks/hoplab-app';
import { gcpAccessToken } from '../../plumbing/cloud/google-api-reader';
import { findProviderMirror } from '../../plumbing/terraform/terraform';
import { StackKind, STACK_KINDS } from '../../plumbing/selection/stack-graph';
import { awsFindings } from './aws-checks';
import { blocking, Finding } from '../../plumbing/cli/finding';
import { gcpFindings, GoogleApis } from './gcp-checks';
import { addressFindings, learnPublicAddress, providerSourceFinding, runTool, ToolRunner, toolFindings } from '../../plumbing/host-checks';
import { awsQuotaNeeds, gcpQuotaNeeds } from './quota-needs';
import { requiredPermissions } from './required-permissions';

export interface PreflightOptions {
  readonly config: LabConfig;
  /** Environment names; all when undefined. */
  readonly envs?: readonly string[];
  /** @default all four */
  readonly kinds?: readonly StackKind[];
  /** Local AWS emulator: AWS checks run against it, GCP is left out (only aws-cluster runs there). */
  readonly awsEndpoint?: string;
  /** The host's public address (`--my-ip`); learned with one request when undefined. */
  readonly myIp?: string;
  /** Overrides for tests. */
  readonly myIpUrl?: string;
  readonly registryUrl?: string;
  readonly googleApis?: Partial<GoogleApis>;
  /** A Google access token (tests); else GOOGLE_OAUTH_ACCESS_TOKEN or gcloud's ADC token. */
  readonly googleAccessToken?: string;
  readonly runTool?: ToolRunner;
  /** Progress (one line per check group), e.g. to stderr. */
  readonly progress?: (line: string) => void;
}

export interface PreflightResult {
  readonly findings: readonly Finding[];
  readonly ok: boolean;
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
  const findings: Finding[] = [];
  if (emulator && kinds.length < requested.length) {
    findings.push({
      check: 'emulator mode',
      verdict: 'skip',
      detail: `HOPLAB_AWS_ENDPOINT=${emulator}: only aws-cluster stacks are checked (against the emulator); ${requested.filter((k) => k !== 'aws-cluster').join(', ')} left out`,
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-preflight-'));
  let synth: SynthDir;
  let model: ExplainModel;
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, config, { awsEmulator: emulator ? { endpoint: emulator } : undefined });
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
  ];
  if (lists.length > 0) findings.push(...addressFindings(await learnPublicAddress({ myIp: options.myIp, url: options.myIpUrl }), lists));

  const clusterStacks = (cloud: 'aws' | 'gcp') =>
    kinds.includes(`${cloud}-cluster`) ? synth.clouds.filter((c) => c.cloud === cloud && c.cluster).map((c) => ({ env: c.env, stack: c.cluster! })) : [];
  if (aws) {
    progress(`preflight: AWS (${emulator ? `emulator ${emulator}` : config.aws.region})`);
    findings.push(
      ...(await awsFindings({
        region: config.aws.region,
        endpoint: emulator,
        clusterAdminArns: config.aws.clusterAdminArns ?? [],
        workshop: config.workshop.name,
        clusterStacks: clusterStacks('aws'),
        actions: permissions.aws,
        needs: awsQuotaNeeds({ ...synth, clouds: synth.clouds.filter(() => kinds.includes('aws-cluster')) }, model),
      })),
    );
  }
  if (gcp && config.gcp.project === DEFAULT_GCP_PROJECT) {
    findings.push({
      check: 'gcp project',
      verdict: 'fail',
      detail: `gcp.project is "${DEFAULT_GCP_PROJECT}", the placeholder that lets the lab synthesize without config; GCP not checked`,
      fix: 'set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
    });
  } else if (gcp) {
    progress(`preflight: GCP (project ${config.gcp.project})`);
    findings.push(
      ...(await gcpFindings({
        project: config.gcp.project,
        region: config.gcp.region,
        accessToken: options.googleAccessToken ?? gcpAccessToken(),
        apis: options.googleApis,
        clusterStacks: clusterStacks('gcp'),
        permissions: permissions.gcp,
        requiredApis: permissions.gcpApis,
        needs: gcpQuotaNeeds({ ...synth, clouds: synth.clouds.filter(() => kinds.includes('gcp-cluster')) }, model, config),
      })),
    );
  }
  const stacks = selectedStacks.map((s) => s.name);
  return {
    findings,
    ok: blocking(findings).length === 0,
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
