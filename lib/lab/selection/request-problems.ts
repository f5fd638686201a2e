/**
 * Every reason `deploy` or `teardown` refuses a request before anything runs, found at once: a
 * placeholder project, world-open API endpoints, stacks the emulator cannot run, a cluster
 * destroyed without its lb stack, shards on local state, a workshop whose expiry has passed
 * (deploy), a deployed environment the config would move (deploy) or whose state says not where
 * it is (lib/lab/placement/deployed-placement.ts). `preflight` reports the same as failing
 * findings, and deploy's refusal lists them all, so fixing one never leads to the next refusal.
 */
import { DEFAULT_GCP_PROJECT, LabConfig } from '../../config/schema';
import { EMULATOR_STATE_DIR } from '../../stacks/state-placement';
import { Finding } from '../checks/finding';
import { DEPLOYED_PLACEMENT_CHECK, DeployedPlacement, deployedPlacementProblems } from '../placement/deployed-placement';
import { Shard } from './shard';
import { Direction, StackKind } from './stack-graph';
import { expiryProblem } from './expiry-problem';

export interface LifecycleRequest {
  readonly direction: Direction;
  readonly kinds: readonly StackKind[];
  readonly config: LabConfig;
  /** A local AWS emulator (HOPLAB_AWS_ENDPOINT). @default - the real clouds */
  readonly awsEndpoint?: string;
  /** `--shard K/N`. @default - no sharding */
  readonly shard?: Shard;
  /** The date a deploy is asked on (the command's clock), for the workshop's expiry. @default the host's clock */
  readonly now?: Date;
  /** The environments acted on. @default - every environment */
  readonly envs?: readonly string[];
  /** The lab placed where its states say it is (placeDeployed). @default - not checked */
  readonly deployed?: DeployedPlacement;
}

/** The check names of the request problems, as preflight lists them. */
export const REQUEST_CHECKS = ['shard backend', 'emulator stacks', 'gcp project', 'api endpoints', 'destroy order', 'workshop expiry', DEPLOYED_PLACEMENT_CHECK] as const;

/** Every problem with the request, as failing findings (check, detail, fix); empty when it may go ahead. */
export function requestProblems(request: LifecycleRequest): Finding[] {
  const { direction, kinds, config, awsEndpoint, shard, deployed } = request;
  const problems: Finding[] = [];
  if (shard && config.backend.type === 'local') {
    problems.push({
      check: 'shard backend',
      verdict: 'fail',
      detail:
        `--shard ${shard.index}/${shard.total}: backend.type is "local", but shards run on different machines (CI runners), ` +
        'each with its own disk: their state files would be lost with the runner, and a later teardown or another shard could not find them',
      fix: 'set backend to { "type": "s3", "bucket": ..., "region": ... } (locked with its lock file) or { "type": "gcs", "bucket": ... }',
    });
  }
  if (awsEndpoint && kinds.some((k) => k !== 'aws-cluster')) {
    // Emulator runs keep their own state (.hoplab/emulator/ or the emulator's S3), so this advice cannot reach real state.
    problems.push({
      check: 'emulator stacks',
      verdict: 'fail',
      detail: `HOPLAB_AWS_ENDPOINT is set (emulator mode; state in ${EMULATOR_STATE_DIR}/ or the emulator's S3, never the real state): only the aws-cluster stacks can run against the emulator`,
      fix: 'add --stacks aws-cluster to run them there, or unset HOPLAB_AWS_ENDPOINT for the real clouds',
    });
  }
  if (kinds.some((k) => k.startsWith('gcp-')) && config.gcp.project === DEFAULT_GCP_PROJECT) {
    problems.push({
      check: 'gcp project',
      verdict: 'fail',
      detail: `gcp.project is "${DEFAULT_GCP_PROJECT}", a placeholder that lets the lab synthesize without config`,
      fix: 'set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
    });
  }
  if (direction === 'deploy' && !awsEndpoint) {
    const open = worldOpenFields(kinds, config);
    if (open.length > 0) {
      problems.push({
        check: 'api endpoints',
        verdict: 'fail',
        detail: `${open.join(' and ')} would open the cluster API endpoint${open.length > 1 ? 's' : ''} to any address on the internet`,
        fix:
          'set them to the addresses you and the attendees deploy and run kubectl from, e.g. your own as "<ip>/32" ' +
          '(curl https://checkip.amazonaws.com shows it), or set allowWorldOpenEndpoints: true in the config to deploy them open',
      });
    }
  }
  // A deploy after the workshop's end, emulator or not (a teardown then is what is wanted).
  const expired = direction === 'deploy' ? expiryProblem(config, request.now ?? new Date()) : undefined;
  if (expired) problems.push(expired);
  if (direction === 'destroy' && !awsEndpoint) {
    for (const cloud of ['aws', 'gcp'] as const) {
      if (kinds.includes(`${cloud}-cluster`) && !kinds.includes(`${cloud}-lb`)) {
        problems.push({
          check: 'destroy order',
          verdict: 'fail',
          detail: `--stacks: destroying ${cloud}-cluster without ${cloud}-lb would strand the load balancers its controller made (and block deleting the network)`,
          fix: `add ${cloud}-lb (it is destroyed first)`,
        });
      }
    }
  }
  if (deployed) {
    const clouds = (['aws', 'gcp'] as const).filter((cloud) => kinds.some((k) => k.startsWith(`${cloud}-`)));
    problems.push(...deployedPlacementProblems(config, deployed, { moves: direction === 'deploy', envs: request.envs, clouds }));
  }
  return problems;
}

/**
 * The fields whose /0 block would open a cluster API endpoint to any address (the defaults keep
 * synth, `local` and emulator runs free of config), unless `allowWorldOpenEndpoints: true`.
 */
function worldOpenFields(kinds: readonly StackKind[], config: LabConfig): string[] {
  if (config.allowWorldOpenEndpoints) return [];
  const worldOpen = (cidrs: readonly string[]) => cidrs.some((c) => c.endsWith('/0'));
  return [
    ...(kinds.includes('aws-cluster') && worldOpen(config.aws.endpointPublicAccessCidrs) ? [`aws.endpointPublicAccessCidrs (${JSON.stringify(config.aws.endpointPublicAccessCidrs)})`] : []),
    ...(kinds.includes('gcp-cluster') && worldOpen(config.gcp.masterAuthorizedCidrs) ? [`gcp.masterAuthorizedCidrs (${JSON.stringify(config.gcp.masterAuthorizedCidrs)})`] : []),
  ];
}

/** One problem as a line: what is wrong; how to fix it. */
export const problemLine = (problem: Finding) => (problem.fix ? `${problem.detail}; ${problem.fix}` : problem.detail);

/**
 * The refusal for `problems`, all of them: one problem as one line, several as a list under a
 * line that says how many (`deploy` is the command refused).
 */
export function formatRefusal(command: string, problems: readonly Finding[]): string {
  if (problems.length === 1) return problemLine(problems[0]);
  return [`${command} refused before anything ran: ${problems.length} problems, fix all of them:`, ...problems.map((p) => `  - ${problemLine(p)}`)].join('\n');
}
