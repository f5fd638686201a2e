/**
 * Terraform's progress lines, read as they stream: what each running stack
 * waits on and since when.
 */
import { describeActivity, parseProgressLine, parseTerraformDuration, TerraformActivity } from '../../../lib/kit/terraform/terraform-progress';

describe("Terraform's progress lines", () => {
  test.each([
    ['aws_eks_cluster.eks_cluster_A1: Creating...', { address: 'aws_eks_cluster.eks_cluster_A1', action: 'creating', kind: 'start' }],
    ['aws_eks_cluster.eks_cluster_A1: Still creating... [5m0s elapsed]', { address: 'aws_eks_cluster.eks_cluster_A1', action: 'creating', kind: 'still', elapsedMs: 300_000 }],
    ['aws_eks_cluster.eks_cluster_A1: Creation complete after 9m3s [id=lab-eks]', { address: 'aws_eks_cluster.eks_cluster_A1', action: 'creating', kind: 'end', elapsedMs: 543_000, errored: false }],
    ['aws_nat_gateway.nat: Destroying... [id=nat-0abc]', { address: 'aws_nat_gateway.nat', action: 'destroying', kind: 'start' }],
    ['aws_nat_gateway.nat: Still destroying... [id=nat-0abc, 1m10s elapsed]', { address: 'aws_nat_gateway.nat', action: 'destroying', kind: 'still', elapsedMs: 70_000 }],
    ['aws_nat_gateway.nat: Destruction complete after 1m12s', { address: 'aws_nat_gateway.nat', action: 'destroying', kind: 'end', elapsedMs: 72_000, errored: false }],
    ['aws_vpc.vpc: Modifying... [id=vpc-1]', { address: 'aws_vpc.vpc', action: 'modifying', kind: 'start' }],
    ['aws_vpc.vpc: Modifications complete after 1s [id=vpc-1]', { address: 'aws_vpc.vpc', action: 'modifying', kind: 'end', elapsedMs: 1000, errored: false }],
    ['data.aws_eks_cluster_auth.auth: Reading...', { address: 'data.aws_eks_cluster_auth.auth', action: 'reading', kind: 'start' }],
    ['data.aws_eks_cluster_auth.auth: Read complete after 0s [id=lab-eks]', { address: 'data.aws_eks_cluster_auth.auth', action: 'reading', kind: 'end', elapsedMs: 0, errored: false }],
    ['aws_subnet.a["us-east-1a"]: Creation errored after 3s', { address: 'aws_subnet.a["us-east-1a"]', action: 'creating', kind: 'end', elapsedMs: 3000, errored: true }],
    ['aws_vpc.vpc: Refreshing state... [id=vpc-1]', { address: 'aws_vpc.vpc', action: 'refreshing', kind: 'start' }],
  ])('GIVEN %s WHEN parsed THEN it is read exactly', (line, expected) => {
    expect(parseProgressLine(line)).toEqual(expected);
  });

  test.each(['Apply complete! Resources: 3 added, 0 changed, 0 destroyed.', 'Initializing provider plugins...', '  # aws_vpc.vpc will be updated in-place', 'Error: creating EKS Cluster: boom', ''])(
    'GIVEN the other line %j WHEN parsed THEN it is not progress',
    (line) => {
      expect(parseProgressLine(line)).toBeUndefined();
    },
  );

  test('GIVEN durations WHEN parsed THEN they are ms; nonsense is undefined', () => {
    expect(['0s', '10s', '1m0s', '1h2m3s', '1.5s'].map(parseTerraformDuration)).toEqual([0, 10_000, 60_000, 3_723_000, 1500]);
    expect(parseTerraformDuration('soon')).toBeUndefined();
  });

  test("GIVEN a stream of lines at known times WHEN described THEN the resource waited on longest is named with its time, backdated by Terraform's own count when its start was missed", () => {
    const activity = new TerraformActivity();
    expect(describeActivity(activity, 0)).toBeUndefined();
    activity.feed('aws_vpc.vpc: Creating...', 0);
    activity.feed('aws_iam_role.r: Creating...', 1000);
    expect(describeActivity(activity, 5000)).toBe('waiting on aws_vpc.vpc (creating, 5s), +1 more');
    activity.feed('aws_vpc.vpc: Creation complete after 6s [id=vpc-1]', 6000);
    activity.feed('aws_iam_role.r: Creation complete after 5s [id=r]', 6000);
    // The cluster's start line came before we listened: its "Still creating" count says since when.
    activity.feed('aws_eks_cluster.eks: Still creating... [4m30s elapsed]', 300_000);
    activity.feed('aws_eks_node_group.ng: Creating...', 299_000);
    expect(describeActivity(activity, 310_000)).toBe('waiting on aws_eks_cluster.eks (creating, 4m40s), +1 more');
    expect(activity.finished).toBe(2);
    activity.reset();
    activity.feed('aws_vpc.vpc: Refreshing state... [id=vpc-1]', 0);
    expect(describeActivity(activity, 1)).toBe('refreshed aws_vpc.vpc');
  });
});
