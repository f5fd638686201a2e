/**
 * `npx hoplab reap` against the emulator's shared moto, as users run it, with no apply: labs
 * seeded with hoplab's tags through the SDK, in an account of `aws.accounts` of its own (moto keeps
 * each account's resources apart, so the other flows in this moto are not seen) and two regions of
 * `aws.regions`: ann (in the config, its state here) tagged expired; bob (in the config, no state)
 * not expired; zed (another host's, no state) expired, with what costs money (an EKS cluster and
 * its node group, instances, a NAT gateway, an Elastic IP, an internet-facing ALB); yan (no
 * state) expired in the other region; and a VPC without hoplab's tags. The config's own expiry
 * lies ahead, so nothing is torn down (the teardown part: test/commands/lifecycle/reap.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AllocateAddressCommand, CreateNatGatewayCommand, CreateSubnetCommand, CreateVpcCommand, DescribeImagesCommand, EC2Client, RunInstancesCommand, Tag } from '@aws-sdk/client-ec2';
import { CreateClusterCommand, CreateNodegroupCommand, EKSClient } from '@aws-sdk/client-eks';
import { CreateLoadBalancerCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { Emulator } from '../../lib/commands/local/moto';
import { awsClientConfig } from '../../lib/kit/aws/aws-clients';
import { labTags } from '../../lib/model/tags';
import { expiryAhead, runCommand, sharedEmulator } from './harness';
import { PRICES_READ } from '../../lib/lab/estimate/price-table';

const ACCOUNT = '210987654321';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/hoplab-reap`;
const PAST = '2020-01-01T18:00:00Z';
const FUTURE = '2099-01-01T18:00:00Z';

const tagList = (tags: Record<string, string>): (Tag & { Key: string })[] => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
const spec = (type: 'vpc' | 'subnet' | 'elastic-ip' | 'natgateway' | 'instance', tags: Record<string, string>) => [{ ResourceType: type, Tags: tagList(tags) }];

/** Seeds a lab's resources in `region` of the account, tagged as hoplab tags them; `costly` adds what costs money. */
async function seedLab(endpoint: string, region: string, env: string, expiresAt: string | undefined, costly: boolean): Promise<void> {
  const config = awsClientConfig({ region, endpoint, roleArn: ROLE });
  const ec2 = new EC2Client(config);
  const eks = new EKSClient(config);
  const elb = new ElasticLoadBalancingV2Client(config);
  const tags = expiresAt === undefined ? {} : labTags({ name: env, workshop: { name: `ws-${env}`, owner: 'someone', expiresAt } }, `${env}-aws-cluster`);
  try {
    const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16', TagSpecifications: spec('vpc', tags) }));
    if (!costly) return;
    const vpcId = vpc.Vpc!.VpcId!;
    const subnets = await Promise.all(
      ['a', 'b'].map((zone, i) => ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: `10.0.${i}.0/24`, AvailabilityZone: `${region}${zone}`, TagSpecifications: spec('subnet', tags) }))),
    );
    const subnetIds = subnets.map((s) => s.Subnet!.SubnetId!);
    const eip = await ec2.send(new AllocateAddressCommand({ Domain: 'vpc', TagSpecifications: spec('elastic-ip', tags) }));
    await ec2.send(new CreateNatGatewayCommand({ SubnetId: subnetIds[0], AllocationId: eip.AllocationId, TagSpecifications: spec('natgateway', tags) }));
    const image = (await ec2.send(new DescribeImagesCommand({}))).Images![0].ImageId;
    await ec2.send(
      new RunInstancesCommand({
        ImageId: image,
        InstanceType: 't3.medium',
        MinCount: 2,
        MaxCount: 2,
        SubnetId: subnetIds[0],
        TagSpecifications: spec('instance', { ...tags, 'eks:nodegroup-name': `${env}-nodes` }),
      }),
    );
    const role = `arn:aws:iam::${ACCOUNT}:role/${env}-eks-cluster`;
    await eks.send(new CreateClusterCommand({ name: `${env}-eks`, roleArn: role, resourcesVpcConfig: { subnetIds }, tags }));
    await eks.send(new CreateNodegroupCommand({ clusterName: `${env}-eks`, nodegroupName: `${env}-nodes`, nodeRole: role, subnets: subnetIds, tags }));
    // The controller's ALB: the lab's tags (its default tags) and the cluster tag.
    await elb.send(
      new CreateLoadBalancerCommand({
        Name: `k8s-hoplab-${env}`,
        Subnets: subnetIds,
        Scheme: 'internet-facing',
        Type: 'application',
        Tags: tagList({ ...tags, 'elbv2.k8s.aws/cluster': `${env}-eks` }),
      }),
    );
  } finally {
    for (const client of [ec2, eks, elb]) client.destroy();
  }
}

describe('reap against the emulator', () => {
  let moto: Emulator;
  let cwd: string;

  beforeAll(async () => {
    moto = await sharedEmulator();
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-reap-emulator-'));
    const config = {
      attendees: ['ann', 'bob'],
      workshop: { name: 'reap-emulator', expiresAt: expiryAhead() },
      aws: { accounts: [{ id: ACCOUNT, roleName: 'hoplab-reap' }], regions: ['us-east-1', 'eu-west-1'] },
    };
    writeFileSync(join(cwd, 'hoplab.config.json'), JSON.stringify(config));
    // ann's state: its cluster stack, placed in the account's us-east-1 slot.
    mkdirSync(join(cwd, '.hoplab', 'emulator'), { recursive: true });
    const placement = { cloud: 'aws', slot: `${ACCOUNT}/us-east-1`, account: ACCOUNT, region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'], role_arn: ROLE };
    writeFileSync(
      join(cwd, '.hoplab', 'emulator', 'terraform.ann-aws-cluster.tfstate'),
      JSON.stringify({ version: 4, outputs: { placement: { value: placement } }, resources: [{ type: 'aws_vpc', name: 'vpc', instances: [{ attributes: { id: 'vpc-1' } }] }] }),
    );
    await seedLab(moto.endpoint, 'us-east-1', 'ann', PAST, false);
    await seedLab(moto.endpoint, 'us-east-1', 'zed', PAST, true);
    await seedLab(moto.endpoint, 'us-east-1', 'untagged', undefined, false);
    await seedLab(moto.endpoint, 'eu-west-1', 'bob', FUTURE, false);
    await seedLab(moto.endpoint, 'eu-west-1', 'yan', PAST, false);
  });
  afterAll(async () => {
    await moto?.stop();
  });

  test('GIVEN labs tagged in two regions of an account WHEN reap runs THEN it finds each where it is, as the role, and says what each is', async () => {
    const run = await runCommand('reap', ['--yes'], { cwd, env: { HOPLAB_AWS_ENDPOINT: moto.endpoint } });
    expect(run).toExitWith(1);
    const lines = run.stdout.trimEnd().split('\n');
    // The ids moto made are random: each is written as its kind's prefix and ID.
    const ids = (line: string) => line.replace(/\b(vpc|nat|eipalloc|i)-[0-9a-f]{17}\b/g, '$1-ID');
    expect(lines.slice(0, 5).map(ids)).toEqual([
      'note: HOPLAB_AWS_ENDPOINT is set (the emulator): only the aws-cluster stacks',
      '  are torn down, and only AWS is searched',
      expect.stringMatching(/^hoplab reap: workshop\.expiresAt \(\S+\) has not passed \(it is$/),
      expect.stringMatching(/^ {2}\S+ now\): nothing is torn down before then; searching for$/),
      '  expired labs all the same',
    ]);
    // The lines of zed's steps, from the first to the last before "then run": their words are the unit test's.
    const first = lines.findIndex((l) => l.startsWith('    1. load balancers first: while zed-eks runs'));
    const steps = lines.slice(first, lines.indexOf('    then run npx hoplab reap again to see that it is gone', first)).map(ids);
    expect(steps.filter((l) => /^ {4}\d\. /.test(l)).map((l) => l.slice(4, 40))).toEqual([
      '1. load balancers first: while zed-e',
      '2. then each load balancer still the',
      '3. the cluster zed-eks: its node gro',
      '4. the NAT gateways, and wait until ',
      '5. the Elastic IPs',
      '6. last, vpc-ID with what it still h',
    ]);
    expect(steps).toContain('         aws ec2 release-address --allocation-id eipalloc-ID \\');
    expect(lines.slice(5).map(ids)).toEqual([
      "reap: searched hoplab's tags in 2 places: aws 210987654321/us-east-1, aws",
      '  210987654321/eu-west-1',
      'reap: 4 labs found by their tags:',
      '  EXPIRED ann (workshop ws-ann) in aws 210987654321/us-east-1: expired',
      '    2020-01-01T18:00:00Z by its tags, and its state is here, but this run did',
      '    not tear it down: npx hoplab teardown --env ann (or deploy it again to tag',
      `    it with workshop.expiresAt); about $0.00/h at list prices read ${PRICES_READ}:`,
      '    ec2:vpc vpc-ID',
      '  EXPIRED zed (workshop ws-zed) in aws 210987654321/us-east-1: expired',
      "    2020-01-01T18:00:00Z; no state here (another host's lab, or its state is",
      `    lost); about $0.27/h at list prices read ${PRICES_READ}:`,
      '    ec2:vpc vpc-ID',
      '    ec2:nat-gateway nat-ID',
      '    ec2:elastic-ip eipalloc-ID',
      '    ec2:instance i-ID (t3.medium, node group zed-nodes)',
      '    ec2:instance i-ID (t3.medium, node group zed-nodes)',
      '    eks:cluster zed-eks',
      '    elbv2:load-balancer k8s-hoplab-zed (application, internet-facing)',
      '    to delete it (reap deletes no lab it has no state for), in this order, as',
      '    the role arn:aws:iam::210987654321:role/hoplab-reap:',
      // zed's delete steps (their words pinned by test/commands/lifecycle/reap.test.ts; their order above).
      ...steps,
      '    then run npx hoplab reap again to see that it is gone',
      '  bob (workshop ws-bob) in aws 210987654321/eu-west-1: not expired',
      '    (hoplab-expires 2099-01-01T18:00:00Z); 1 resource',
      '  EXPIRED yan (workshop ws-yan) in aws 210987654321/eu-west-1: expired',
      "    2020-01-01T18:00:00Z; no state here (another host's lab, or its state is",
      `    lost); about $0.00/h at list prices read ${PRICES_READ}:`,
      '    ec2:vpc vpc-ID',
      '    to delete it (reap deletes no lab it has no state for), in this order, as',
      '    the role arn:aws:iam::210987654321:role/hoplab-reap:',
      '    1. vpc-ID with what it still holds: VPC console (eu-west-1),',
      '       Your VPCs, vpc-ID, Actions, Delete VPC: it deletes its',
      '       subnets, route tables, internet gateway and security groups with it, and',
      '       names anything else that still uses it',
      '    then run npx hoplab reap again to see that it is gone',
    ]);
    // Nothing of the lab without hoplab's tags, and nothing of the other flows in this moto (other accounts).
    expect(run.stdout).not.toContain('untagged');
    // Exit 1 is followed by which config was read (runCli, as after every command's exit 1).
    expect(run.stderr.trim().split('\n')).toEqual(['hoplab reap: 3 expired labs still stand, about $0.27/h (see above)', `hoplab reap: config read: ${join(cwd, 'hoplab.config.json')}`]);
    for (const line of run.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    // ann's state is as it was: nothing was torn down (the config's expiry lies ahead).
    expect(readFileSync(join(cwd, '.hoplab', 'emulator', 'terraform.ann-aws-cluster.tfstate'), 'utf8')).toContain('"vpc-1"');
  });
});
