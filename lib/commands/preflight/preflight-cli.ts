/**
 * The `preflight` command line, and the gate `deploy` runs before it applies
 * anything. Kept apart from bin/preflight.ts so tests can run it in-process.
 */
import { strictArgs } from '../../kit/cli/cli';
import { loadConfig } from '../../config/load';
import { LabConfig } from '../../config/schema';
import { parseSelection } from '../../lab/selection/selection';
import { Shard, SHARD_OPTION } from '../../lab/selection/shard';
import { StackKind } from '../../lab/selection/stack-graph';
import { blocking, parseReportFormat, renderFindings, ReportFormat } from '../../lab/checks/finding';
import { PreflightOptions, runPreflight } from './preflight';
import { checkMyIp } from '../../lab/checks/host-checks';

export const PREFLIGHT_HELP = `usage: npm run preflight -- [--env a,b] [--stacks kinds] [--my-ip ADDRESS] [--format table|markdown|json]
                               [--shard K/N]

Checks, before a deploy spends money, for the selected environments and stack kinds:
  tools           terraform 1.10+, the AWS CLI v2, gcloud and gke-gcloud-auth-plugin;
                  provider sources (the registry; the filesystem mirror in emulator mode)
  host address    your public address (one request to checkip.amazonaws.com, or --my-ip)
                  is inside aws.endpointPublicAccessCidrs and gcp.masterAuthorizedCidrs
  aws             who the deployer is (STS); not also in aws.clusterAdminArns; IAM policy
                  simulation of every action the stacks need; quotas (VPCs, internet and
                  NAT gateways, Elastic IPs, EKS clusters, ALBs, NLBs: Service Quotas, or
                  AWS's documented defaults, said as such); cluster, role and policy names free
  gcp             who the ADC principal is; the APIs enabled (Service Usage); every
                  permission the stacks need (projects.testIamPermissions); quotas (CPUS,
                  IN_USE_ADDRESSES, BACKEND_SERVICES, FORWARDING_RULES); names free
  default quotas  every quota of the table (lib/model/quotas.ts) per slot, without
                  credentials, against its documented default and what a fresh
                  account or project holds (the credential checks read the slot of
                  aws.region and gcp.project)
The permission, API and quota lists are derived from the synthesized stacks.
When the config places environments (aws.regions, aws.accounts, gcp.regions,
gcp.projects, placement), the report ends with where each goes (per slot: the
binding quota and the vCPUs its nodes need); the JSON form has it as "placement".
With HOPLAB_AWS_ENDPOINT set only the aws-cluster stacks are checked, against the emulator.

  --env a,b          only these environments
  --stacks kinds     only these stack kinds (aws-cluster,aws-lb,gcp-cluster,gcp-lb)
  --my-ip ADDRESS    your public address (skips the request to checkip.amazonaws.com)
  --format FORMAT    table (default), markdown or json (schema hoplab.preflight/v1)
  --shard K/N        only the environments of shard K of N, as deploy --shard puts them
  -h, --help         this help
Exit 0 when nothing blocks a deploy (warnings allowed), 1 when a check failed, 2 for a bad command line.`;

export interface PreflightArgs {
  readonly config: LabConfig;
  readonly envs?: string[];
  readonly kinds: StackKind[];
  readonly shard?: Shard;
  readonly myIp?: string;
  readonly format: ReportFormat;
}

/** Parses the command line; undefined after printing --help. */
export function parsePreflightArgs(argv: readonly string[]): PreflightArgs | undefined {
  const values = strictArgs(argv, {
    env: { type: 'string' },
    stacks: { type: 'string' },
    'my-ip': { type: 'string' },
    format: { type: 'string', default: 'table' },
    ...SHARD_OPTION,
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(PREFLIGHT_HELP);
    return undefined;
  }
  const format = parseReportFormat(values.format);
  const myIp = checkMyIp(values['my-ip']);
  const config = loadConfig().config;
  // A shard on local state is one of the findings, with every other reason deploy would refuse.
  const { envs, kinds, shard } = parseSelection(config, values, false);
  return { config, envs, kinds, shard, myIp, format };
}

/**
 * What `deploy` runs first: preflight for the same selection, its table on
 * stdout; returns whether the deploy may go on. `skip` (--skip-preflight)
 * goes on without it, loudly.
 */
export async function preflightGate(options: PreflightOptions & { readonly skip: boolean; readonly write: (line: string) => void }): Promise<boolean> {
  if (options.skip) {
    options.write('hoplab deploy: --skip-preflight: PREFLIGHT SKIPPED. Nothing was checked before spending money; a missing permission or quota fails mid-deploy.');
    return true;
  }
  const result = await runPreflight(options);
  options.write(renderFindings(result.findings, 'table', result.meta).trimEnd());
  const blockers = blocking(result.findings);
  if (blockers.length > 0) {
    options.write(
      `hoplab deploy: stopped before anything was applied: preflight found ${blockers.length} blocking problem${blockers.length === 1 ? '' : 's'} (${blockers
        .map((b) => b.check)
        .join(', ')}); fix them, or add --skip-preflight to deploy anyway`,
    );
    return false;
  }
  return true;
}
