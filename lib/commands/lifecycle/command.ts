/** The command lines of `npm run deploy`, `npm run teardown` and `npx hoplab reap`, which share their selection flags. */
import { booleanFlag, choiceFlag, defineCommand } from '../../kit/cli/command';
import { envsFlag, parallelismFlag, shardFlag, stacksFlag } from '../../lab/selection/flags';
import { myIpFlag } from '../../lab/probe/flags';

const YES = booleanFlag({ short: 'y', description: 'do not ask (required when not on a terminal)' });

export const DEPLOY_COMMAND = defineCommand({
  name: 'deploy',
  summary: 'preflight, estimate, confirmation, then every stack in dependency order',
  description: `Synthesizes the lab and applies its stacks with Terraform in dependency order
(<env>-aws-cluster before <env>-aws-lb, <env>-gcp-cluster before <env>-gcp-lb; AWS, GCP and
environments in parallel, N stacks at a time: deploy.parallelism, default 4). Runs npm run
preflight for the same selection first and stops on a blocking finding. Prints the estimated cost
per hour and for workshop.durationHours, and the estimated wall time (see npm run cost -- --help),
first and asks to go on (--yes to skip the question; required when not on a terminal).
Refuses a workshop whose workshop.expiresAt has passed (set it to when this workshop ends).

The canary: with more than one environment, the first is applied end to end and verified (as
npm run verify does) before any other starts; if either fails, deploy stops there with the
verify report and what that environment costs per hour while it stands. --no-canary applies all
at once. A shard (--shard) has no canary: deploy and verify one environment before the shards.

Run it again after a failure or an interrupt: each stack is planned again, the ones already
applied say "no changes, already applied", and the rest continue.

Placement is read from state: each deployed environment stays in the slot (account or project x
region) its <env>-<cloud>-cluster state says, and new ones fill the room left. A config change
that would move a deployed one (its region, account or project no longer listed, a pin
elsewhere, placement.perSlot below what is deployed) is refused before anything runs, naming
each environment, where it is, where it would go and how to keep it.`,
  flags: {
    env: envsFlag("only these environments (attendee names, or the config's name)"),
    stacks: stacksFlag(),
    parallelism: parallelismFlag('stacks at once, or auto: as many as the free memory holds, from the measured size of the providers each stack loads (it says why)'),
    shard: shardFlag(
      "only the K-th of N shards of the environments (CI: one job per shard; needs an s3 or gcs backend); an environment's shard depends on its name and on the environments before it in the list: appending moves nobody, removing or reordering may move the ones after",
    ),
    yes: YES,
    'skip-preflight': booleanFlag({ description: 'deploy even when preflight would stop it (said loudly; not recommended)' }),
    'no-canary': booleanFlag({ description: 'apply every environment at once, none verified first (said loudly; a shared mistake is paid once per environment)' }),
    'my-ip': myIpFlag("your public address as the load balancers see it, for the canary's verify (default: one request to checkip.amazonaws.com)"),
  },
  epilogue: `Credentials: AWS's default chain (and the AWS CLI for EKS tokens); Google Application Default
Credentials. Logs: .hoplab/logs/<stack>.deploy.log; the canary's verify report:
.hoplab/verify/verify-<timestamp>.md and .json. Exit 0 only if every selected stack applied (and
the canary's verify did not fail); 1 otherwise; 130 after Ctrl-C.`,
});

export const TEARDOWN_COMMAND = defineCommand({
  name: 'teardown',
  summary: 'destroys every stack in reverse order, then checks for leftovers',
  description: `Destroys the lab's stacks with Terraform in reverse dependency order (<env>-aws-lb before
<env>-aws-cluster, <env>-gcp-lb before <env>-gcp-cluster; clouds and environments in parallel),
then lists anything of each environment still in AWS (VPC pieces, NAT gateways, Elastic IPs,
launch templates, instances, volumes, ENIs (also those the VPC CNI tagged), IAM, the cluster, its
control-plane log group, and the load balancers, target groups and security groups the controller
made) and in GCP (network, firewall rules, NEGs, instance groups, backend services, URL maps,
proxies, forwarding rules, target pools, health checks, reserved addresses, SSL certificates, the
cluster, the nodes' service account and its IAM binding). It only reports; it never deletes.
Placement is read from state: each environment is destroyed, and its leftovers looked for, in the
slot its <env>-<cloud>-cluster state says (its region, its account's role, its project), whatever
the config says now; the credentials must reach every account role first. What the leftover check
could not look at is said once per cloud and slot, and is not reported as found.`,
  flags: {
    env: envsFlag(),
    stacks: stacksFlag(),
    parallelism: parallelismFlag('stacks at once, or auto (see deploy --help)'),
    shard: shardFlag("only the K-th of N shards of the environments (as deploy --shard); the leftover check then covers that shard's environments"),
    yes: YES,
    'leftovers-only': booleanFlag({
      description: "skip the destroy; only check for leftovers (of every selected environment: without --shard, all of them: a sharded pipeline's last job)",
    }),
  },
  epilogue: 'Exit 0 only if every stack was destroyed and nothing is left; 1 also when the leftover check could not look.',
});

/** What reap's --format takes. */
export const REAP_FORMATS = ['text', 'json'] as const;

export const REAP_COMMAND = defineCommand({
  name: 'reap',
  summary: "after workshop.expiresAt: teardown, then a search by hoplab's tags",
  description: `Once workshop.expiresAt has passed, tears down every environment of the config whose state
is here, as npm run teardown does (where each one's state says; asking first: --yes to skip the
question, required when not on a terminal). Before then, or with it unset, it tears nothing down
and says when it will.

Then, either way, it searches every slot the config names (aws.accounts x aws.regions, as each
account's role; every region of each project of gcp.projects) and every slot a state names, for
resources tagged hoplab-expires: EKS clusters, EC2 instances, VPCs, NAT gateways, Elastic IPs and
load balancers; GKE clusters, instances, forwarding rules and addresses (labels). It names each
lab it finds (environment and workshop) with what it is: not expired yet; torn down just now yet
still there; expired with its state here; or expired with no state here (another host's lab, or
its state is lost), with its resources, its cost per hour at list prices and the commands that
delete it, load balancers first. It deletes nothing it has no state for.`,
  flags: {
    env: envsFlag('only these environments: tear down only these, and report only their labs'),
    parallelism: parallelismFlag('stacks at once, or auto (see deploy --help)'),
    yes: YES,
    format: choiceFlag(REAP_FORMATS, {
      default: 'text',
      description: 'text, or json (schema hoplab.reap/v1) on stdout, the progress on stderr; json never asks: it needs --yes to tear down',
    }),
  },
  epilogue: `Exit 0 when nothing expired is left standing; 1 when something expired still stands (a lab
found by its tags, a teardown that failed, a leftover), when a place could not be searched (said
as could not look, never as found), or after a refusal; 130 after Ctrl-C.`,
});
