/**
 * The leftover check of a lab, per slot: each environment is looked for where it
 * is (its slot from placement, which keeps a deployed environment where its state
 * says): AWS in its slot's region, as its account's role; GCP in its slot's
 * project. What could not be looked at is said once per cloud and slot (not once
 * per environment: 30 attendees without credentials are one line per slot), and
 * it never reads as something found.
 */
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { labNames } from '../../model/names';
import { Slot } from '../../model/slots';
import { GcpCredentials, gcpCredentials } from '../../kit/google/google-credentials';
import { plural } from '../../kit/terminal/terminal';
import { LabPlacement } from '../placement/lab-placement';
import { AwsLeftoverQuery, findAwsLeftovers } from './aws-leftovers';
import { findGcpLeftovers, GcpLeftoverQuery } from './gcp-leftovers';
import { CloudFinders, formatLeftover, Leftover } from './leftover';

/** How the clouds are asked for leftovers (tests: stand-ins per account, region and project). */
export type LeftoverFinders = CloudFinders<AwsLeftoverQuery, GcpLeftoverQuery, Leftover>;

const FINDERS: LeftoverFinders = { aws: findAwsLeftovers, gcp: findGcpLeftovers, gcpCredentials };

export interface SlotLeftoverOptions {
  readonly config: LabConfig;
  readonly envs: readonly string[];
  /** The stack kinds torn down: which clouds, and whether the cluster stacks went too. */
  readonly kinds: readonly string[];
  /** Each environment's slot per cloud. */
  readonly placement: Pick<LabPlacement, 'aws' | 'gcp'>;
  readonly awsEndpoint?: string;
  readonly write: (line: string) => void;
  /** Overrides for tests (recorded GCP responses on loopback). */
  readonly gcpApis?: { readonly compute: string; readonly container: string; readonly iam?: string; readonly resourceManager?: string };
  /** @default the clouds' own */
  readonly finders?: Partial<LeftoverFinders>;
}

/** What the check found, and each cloud and slot it could not look at (one line each). */
export interface SlotLeftoverResult {
  readonly leftovers: Leftover[];
  readonly uncheckedClouds: string[];
}

/** One slot of one cloud with the environments in it. */
interface SlotEnvs {
  readonly cloud: Cloud;
  readonly slot: Slot;
  readonly envs: string[];
}

/** `a01, a02, a03 and 27 more`. */
function names(envs: readonly string[]): string {
  return envs.length <= 4 ? envs.join(', ') : `${envs.slice(0, 3).join(', ')} and ${envs.length - 3} more`;
}

/** Checks each selected cloud for anything left of each environment, in its slot, and prints it. */
export async function checkSlotLeftovers(options: SlotLeftoverOptions): Promise<SlotLeftoverResult> {
  const finders = { ...FINDERS, ...options.finders };
  const clouds = (['aws', 'gcp'] as const).filter((cloud) => options.kinds.some((k) => k.startsWith(`${cloud}-`)));
  const slots: SlotEnvs[] = [];
  for (const cloud of clouds) {
    for (const env of options.envs) {
      const slot = options.placement[cloud].slotOf.get(env);
      if (!slot) throw new Error(`checkSlotLeftovers: no ${cloud} slot for environment ${env}`);
      const entry = slots.find((s) => s.cloud === cloud && s.slot.id === slot.id);
      if (entry) entry.envs.push(env);
      else slots.push({ cloud, slot, envs: [env] });
    }
  }
  // One token for every environment: each `gcloud` call takes about a second.
  const gcp = clouds.includes('gcp') ? finders.gcpCredentials() : undefined;
  const leftovers: Leftover[] = [];
  const unchecked: string[] = [];
  const found = new Set<string>();
  // Different accounts, regions and projects do not share API rate limits: slots are looked at side by side.
  const results = await Promise.all(slots.map((s) => checkSlot(s, options, finders, gcp)));
  for (const [i, result] of results.entries()) {
    leftovers.push(...result.leftovers);
    if (result.leftovers.length > 0) found.add(`${slots[i].cloud} ${slots[i].slot.id}`);
    if (result.failed.length > 0) unchecked.push(uncheckedLine(slots[i], result.failed));
  }
  if (leftovers.length > 0) {
    options.write(`leftovers: ${plural(leftovers.length, 'resource')} of ${names(options.envs)} still exist (in ${[...found].join(', ')}):`);
    for (const leftover of leftovers) options.write(`  ${formatLeftover(leftover)}`);
    options.write('  run npm run teardown again; what still stays was made outside Terraform: delete it in the console or CLI, then check with --leftovers-only');
  }
  for (const line of unchecked) options.write(`leftover check could not run: ${line}`);
  if (unchecked.length > 0) {
    const looked = slots.length - unchecked.length;
    options.write(
      `leftovers: ${plural(unchecked.length, 'slot')} of ${slots.length} not looked at (above)` +
        (looked > 0 ? `; ${leftovers.length === 0 ? 'nothing' : 'the resources above'} found in the ${plural(looked, 'other')}` : '') +
        '; look again once the check can run: npx hoplab teardown --leftovers-only',
    );
  } else if (leftovers.length === 0) {
    options.write(`leftovers: none in ${clouds.join(' and ')} for ${options.envs.join(', ')}`);
  }
  return { leftovers, uncheckedClouds: unchecked };
}

async function checkSlot(
  slot: SlotEnvs,
  options: SlotLeftoverOptions,
  finders: LeftoverFinders,
  gcp: GcpCredentials | undefined,
): Promise<{ leftovers: Leftover[]; failed: { env: string; message: string }[] }> {
  const leftovers: Leftover[] = [];
  const failed: { env: string; message: string }[] = [];
  if (slot.slot.cloud === 'gcp' && !gcp) {
    return { leftovers, failed: slot.envs.map((env) => ({ env, message: 'no credentials: run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN' })) };
  }
  for (const env of slot.envs) {
    const names = labNames({ name: env });
    try {
      if (slot.slot.cloud === 'aws') {
        // With the cluster stack kept, only the controller's own resources count as left over.
        const scope = options.kinds.includes('aws-cluster') ? 'environment' : 'controller';
        leftovers.push(...(await finders.aws({ env, clusterName: names.eksCluster, region: slot.slot.region, roleArn: slot.slot.account?.roleArn, endpoint: options.awsEndpoint, scope })));
      } else {
        leftovers.push(
          ...(await finders.gcp({
            env,
            project: slot.slot.project,
            networkName: names.gkeCluster,
            clusterName: names.gkeCluster,
            accessToken: gcp!.accessToken,
            quotaProject: gcp!.quotaProject,
            computeApi: options.gcpApis?.compute,
            containerApi: options.gcpApis?.container,
            iamApi: options.gcpApis?.iam,
            resourceManagerApi: options.gcpApis?.resourceManager,
            scope: options.kinds.includes('gcp-cluster') ? 'environment' : 'controller',
          })),
        );
      }
    } catch (error) {
      failed.push({ env, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { leftovers, failed };
}

/** One line for a slot that could not be looked at: which environments, and why (the first reason, and how many others). */
function uncheckedLine(slot: SlotEnvs, failed: readonly { env: string; message: string }[]): string {
  const first = failed[0].message;
  const hint = slot.cloud === 'aws' && /credentials/i.test(first) ? ' (the same credentials Terraform uses: AWS_PROFILE, `aws sso login`, or AWS_ACCESS_KEY_ID)' : '';
  const others = new Set(failed.map((f) => f.message).filter((m) => m !== first)).size;
  const who = failed.length === slot.envs.length && slot.envs.length > 4 ? `all ${slot.envs.length}: ${names(slot.envs)}` : names(failed.map((f) => f.env));
  return `${slot.cloud} ${slot.slot.id} (${who}): ${first}${hint}${others > 0 ? ` (and ${plural(others, 'other error')})` : ''}`;
}
