/**
 * Before `<env>-aws-cluster` is applied: the stack's IAM roles and policies and
 * its log group that exist in the account, tagged as this environment's of
 * this workshop, but that its state does not hold, are imported into it
 * (adopted).
 *
 * Why: these have fixed names, and a deploy interrupted while Terraform
 * created one can leave it made but not recorded. On Ctrl-C Terraform stops
 * the providers, whose calls under way are cancelled; IAM may still carry out
 * a CreateRole it had received (seen against the emulator, which answered a
 * cancelled call after the next deploy had begun). The next apply then fails
 * with `EntityAlreadyExists`, and a host would have to find the role and
 * `terraform import` it by hand. The tags say it is the lab's own (the
 * provider's default tags: `hoplab-env` and `hoplab-workshop`, as preflight's
 * name check reads them): one without them, or another workshop's, is left
 * alone (the apply fails on it, and preflight names it first).
 */
import { GetPolicyCommand, GetRoleCommand, IAMClient, NoSuchEntityException, Tag } from '@aws-sdk/client-iam';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { CloudWatchLogsClient, DescribeLogGroupsCommand, ListTagsForResourceCommand } from '@aws-sdk/client-cloudwatch-logs';
import { awsClientConfig } from '../../kit/aws/aws-clients';
import { literalString, resourcesOf, SynthStack } from '../../kit/terraform/terraform-json';
import { awsTagMap, isEnvironmentsOwn } from '../../model/tags';

/** Looks a name up in the account: its tags, or absent. */
export interface AccountLookup {
  role(name: string): Promise<Found>;
  policy(arn: string): Promise<Found>;
  logGroup(name: string): Promise<Found>;
  /** The account's id, for a policy's ARN. */
  account(): Promise<string>;
}

/** What is found of a name in the account: its tags, or that there is nothing of that name. */
export type Found = { readonly tags: Readonly<Record<string, string>> } | 'absent';

/** Each kind adopted: what the host is told it is, the id `terraform import` takes for one, and how it is looked up by that id. */
const KINDS = {
  aws_iam_role: { what: 'IAM role', importId: async (name: string) => name, find: (lookup: AccountLookup, id: string) => lookup.role(id) },
  aws_iam_policy: {
    what: 'IAM policy',
    importId: async (name: string, lookup: AccountLookup) => `arn:aws:iam::${await lookup.account()}:policy/${name}`,
    find: (lookup: AccountLookup, id: string) => lookup.policy(id),
  },
  aws_cloudwatch_log_group: { what: 'log group', importId: async (name: string) => name, find: (lookup: AccountLookup, id: string) => lookup.logGroup(id) },
} as const;

/** A resource of the stack with a fixed name: its Terraform address, what it is, its name. */
export interface NamedResource {
  readonly address: string;
  readonly type: keyof typeof KINDS;
  readonly name: string;
}

/** The stack's IAM roles and policies, and its log group, whose names are known before the apply. */
export function namedResources(stack: SynthStack): NamedResource[] {
  return (Object.keys(KINDS) as NamedResource['type'][]).flatMap((type) =>
    resourcesOf(stack, type).flatMap((r) => {
      const name = literalString(stack, r.config.name);
      return name === undefined ? [] : [{ address: r.address, type, name }];
    }),
  );
}

/** One to adopt: the resource and the id `terraform import` takes for it (a role's name, a policy's ARN). */
export interface Orphan {
  readonly resource: NamedResource;
  readonly importId: string;
}

/** The named resources the state lacks that exist tagged as `env`'s of `workshop`, in the stack's order. */
export async function findOrphans(named: readonly NamedResource[], inState: ReadonlySet<string>, lookup: AccountLookup, env: string, workshop: string): Promise<Orphan[]> {
  const orphans: Orphan[] = [];
  for (const resource of named.filter((r) => !inState.has(r.address))) {
    const kind = KINDS[resource.type];
    const importId = await kind.importId(resource.name, lookup);
    const found = await kind.find(lookup, importId);
    if (found !== 'absent' && isEnvironmentsOwn(found.tags, env, workshop)) orphans.push({ resource, importId });
  }
  return orphans;
}

/** The account as the stack's provider reaches it (its region, the emulator, the role of its slot). */
export function accountLookup(target: { readonly region: string; readonly endpoint?: string; readonly roleArn?: string }): AccountLookup {
  const config = awsClientConfig(target);
  const iam = new IAMClient(config);
  const logs = new CloudWatchLogsClient(config);
  let account: Promise<string> | undefined;
  const absentIfMissing = async (read: () => Promise<readonly Tag[] | undefined>): Promise<Found> => {
    try {
      return { tags: awsTagMap(await read()) };
    } catch (error) {
      if (error instanceof NoSuchEntityException) return 'absent';
      throw error;
    }
  };
  return {
    role: (name) => absentIfMissing(async () => (await iam.send(new GetRoleCommand({ RoleName: name }))).Role?.Tags),
    policy: (arn) => absentIfMissing(async () => (await iam.send(new GetPolicyCommand({ PolicyArn: arn }))).Policy?.Tags),
    logGroup: async (name) => {
      const group = ((await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: name }))).logGroups ?? []).find((g) => g.logGroupName === name);
      if (!group?.arn) return 'absent';
      // As the provider reads its tags (logs:ListTagsForResource): the group's ARN without DescribeLogGroups' trailing `:*`.
      return { tags: (await logs.send(new ListTagsForResourceCommand({ resourceArn: group.arn.replace(/:\*$/, '') }))).tags ?? {} };
    },
    account: () => (account ??= new STSClient(config).send(new GetCallerIdentityCommand({})).then((id) => id.Account ?? '')),
  };
}

/**
 * Adopts the stack's orphans: reads what its state holds (`terraform state list`), looks the rest up,
 * and imports each of this environment's (`terraform import`), saying so. Returns what it adopted.
 */
export async function adoptOrphans(options: {
  readonly stack: SynthStack;
  readonly env: string;
  readonly workshop: string;
  readonly lookup: AccountLookup;
  /** Runs Terraform in the stack's directory (initialised); resolves with its stdout. */
  readonly terraform: (args: readonly string[]) => Promise<string>;
  readonly say: (line: string) => void;
}): Promise<Orphan[]> {
  const named = namedResources(options.stack);
  if (named.length === 0) return [];
  // A stack never applied has no state (Terraform: "No state file was found!", exit 1), and nothing to adopt:
  // an apply, even one interrupted before anything was made, writes one.
  const listed = await options.terraform(['state', 'list', '-no-color']).catch((error: unknown) => {
    if (error instanceof Error && /No state file was found/.test(error.message)) return undefined;
    throw error;
  });
  if (listed === undefined) return [];
  const inState = new Set(listed.split('\n').map((line) => line.trim()));
  let orphans: Orphan[];
  try {
    orphans = await findOrphans(named, inState, options.lookup, options.env, options.workshop);
  } catch (error) {
    // Not a reason to stop: the apply goes on, and fails on an orphan only if there is one.
    options.say(
      `could not look for IAM roles, policies and log groups an interrupted deploy may have left out of the state (${error instanceof Error ? error.message : String(error)}); ` +
        'if the apply fails with EntityAlreadyExists, import the one it names (terraform import) or delete it',
    );
    return [];
  }
  for (const { resource, importId } of orphans) {
    options.say(`${KINDS[resource.type].what} ${resource.name} exists, tagged as ${options.env}'s, but not in the stack's state (a deploy was interrupted while making it): importing it`);
    await options.terraform(['import', '-input=false', '-no-color', resource.address, importId]);
  }
  return orphans;
}
