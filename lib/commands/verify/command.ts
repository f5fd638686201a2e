/** `npm run verify`'s command line. */
import { choiceFlag, defineCommand, stringFlag } from '../../kit/cli/command';
import { REPORT_FORMATS } from '../../lab/checks/finding';
import { outputsFlag } from '../../lab/files/flags';
import { concurrencyFlag, countFlag, myIpFlag, timeoutFlag, waitFlag } from '../../lab/probe/flags';
import { envsFlag, shardFlag, stacksFlag } from '../../lab/selection/flags';

export const VERIFY_COMMAND = defineCommand({
  name: 'verify',
  summary: 'after a deploy: no drift, every exposure ready and as claimed; a report',
  description: `After npm run deploy, for the selected environments and stack kinds:
  1. no drift   terraform plan -detailed-exitcode of every stack shows no
                changes; a non-empty plan is listed resource by resource with
                the differing attributes
  2. ready      each exposure's load balancer answers (2xx/3xx) within --wait;
                the exposures are waited for side by side, so the longest
                wait is about one --wait however many there are (past 64
                exposures that time out, their requests take turns)
  3. claims     compare --probe measures every exposure; source NAT and where
                the Pod finds the client address (source_nat, client_ip_via)
                must equal the exposure's exported claims; a contradiction is
                named; no successful reply fails; replies whose facts cannot
                be measured (own address unknown: --my-ip) leave it undone
  4. report     Markdown and JSON (schema hoplab.verify/v1) with environment,
                versions, timestamps and the probe's figures, written to PATH.md
                and PATH.json (default .hoplab/verify/verify-<timestamp>):
                attach it to a bug report`,
  flags: {
    env: envsFlag(),
    stacks: stacksFlag(),
    wait: waitFlag('seconds each load balancer may take to answer; all are waited for at once'),
    'my-ip': myIpFlag('your public address as the load balancers see it (default: one request to checkip.amazonaws.com)'),
    count: countFlag('requests per exposure, as for compare'),
    concurrency: concurrencyFlag('requests in flight per exposure, as for compare'),
    timeout: timeoutFlag(),
    outputs: outputsFlag('the outputs whose exposures to check (default: terraform output -json of each -lb stack)'),
    report: stringFlag({ value: 'PATH', description: 'report path without extension' }),
    format: choiceFlag(REPORT_FORMATS, { default: 'table', description: 'what goes to stdout' }),
    shard: shardFlag('only the environments of shard K of N, as deploy --shard puts them (needs an s3 or gcs backend); combined with --env, the environments in both'),
  },
  epilogue: `Drift is what an apply would change; objects changed outside Terraform are listed apart, and
only in the attributes the plan depends on (refresh-only differences nothing uses are left out).
With HOPLAB_AWS_ENDPOINT set only the aws-cluster stacks are verified (drift), against the
emulator. A cloud without credentials, or Terraform not on the PATH, leaves those stacks' plans
out (and, without --outputs, the readiness and claims of their exposures): listed as left out,
with why.

PASSED (exit 0): every check asked for ran, no stack drifted, every exposure is ready and
measured as claimed. FAILED (exit 1): something that ran failed: drift, a plan that erred, an
exposure not ready, a claim contradicted, an exposure with no successful reply. INCOMPLETE
(exit 1): nothing failed, but a check was left out, or an exposure answered and its claims could
not be measured. 2 for a bad command line.

Ctrl-C (or SIGTERM): no new plan starts (one already running finishes), the waits and probes end
at once, and what did not run is left out, saying so: INCOMPLETE (exit 1) unless something that
ran failed. A second Ctrl-C exits at once (130).`,
});
