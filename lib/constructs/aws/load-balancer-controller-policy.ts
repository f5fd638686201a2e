/**
 * The IAM policy of the AWS Load Balancer Controller, as the controller's
 * project publishes it for installs: `docs/install/iam_policy.json` at the
 * release's tag, kept byte for byte in load-balancer-controller-iam-policy.json
 * (a test checks its git blob id against the release's). Resources the
 * controller creates are tagged `elbv2.k8s.aws/cluster`; the policy's
 * conditions scope its write access to them.
 *
 * To move to another release: replace the JSON file with that tag's
 * docs/install/iam_policy.json, and change LB_CONTROLLER_POLICY_VERSION and
 * the pinned blob id in the test (`git ls-tree <tag> docs/install/iam_policy.json`
 * in the controller's repository prints it). The policy changes between releases.
 */
import policy from './load-balancer-controller-iam-policy.json';

/** The controller release whose policy load-balancer-controller-iam-policy.json is. */
export const LB_CONTROLLER_POLICY_VERSION = 'v3.5.0';

/** The file, relative to the repository, named in messages. */
export const LB_CONTROLLER_POLICY_FILE = 'lib/constructs/aws/load-balancer-controller-iam-policy.json';

/** One IAM policy statement in the shape of the IAM JSON policy language. */
export interface IamStatement {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: string | readonly string[];
  readonly Resource: string | readonly string[];
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

/** The policy's statements, in the file's order. */
export const LB_CONTROLLER_POLICY_STATEMENTS: readonly IamStatement[] = policy.Statement as readonly IamStatement[];

/** The whole policy document, ready for `aws_iam_policy.policy`. */
export function lbControllerPolicyDocument(): string {
  return JSON.stringify({ Version: policy.Version, Statement: LB_CONTROLLER_POLICY_STATEMENTS });
}
