import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LB_CONTROLLER_POLICY_FILE, LB_CONTROLLER_POLICY_VERSION, lbControllerPolicyDocument } from '../../../lib/constructs/aws/load-balancer-controller-policy';

/**
 * The git blob id of docs/install/iam_policy.json at each controller release, as
 * `git ls-tree <tag> docs/install/iam_policy.json` prints it in
 * github.com/kubernetes-sigs/aws-load-balancer-controller.
 */
const RELEASE_POLICY_BLOBS: Readonly<Record<string, string>> = {
  'v3.5.0': '761d0e733c41089c91ea009dd29faf71918085e5',
};

/** The id git gives a file's content: SHA-1 of `blob <size>\0<bytes>`. */
function gitBlobId(bytes: Buffer): string {
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');
}

describe('the AWS Load Balancer Controller IAM policy', () => {
  const bytes = readFileSync(join(__dirname, '..', '..', '..', LB_CONTROLLER_POLICY_FILE));

  test('GIVEN the vendored file THEN it is byte for byte the policy the pinned release publishes (docs/install/iam_policy.json at its tag)', () => {
    expect(RELEASE_POLICY_BLOBS[LB_CONTROLLER_POLICY_VERSION]).toBeDefined();
    expect(gitBlobId(bytes)).toBe(RELEASE_POLICY_BLOBS[LB_CONTROLLER_POLICY_VERSION]);
  });

  test('GIVEN the file THEN the role gets its Version and Statement unchanged, nothing added', () => {
    expect(JSON.parse(lbControllerPolicyDocument())).toEqual(JSON.parse(bytes.toString('utf8')));
  });
});
