/**
 * `npm run deploy` and `npm run teardown` for real against the AWS emulator
 * (the only cloud this machine can reach): Terraform applies and destroys the
 * aws-cluster stack, a second deploy finds it applied ("no changes, already
 * applied"), and the leftover check finds what a load-balancer controller would
 * leave behind, seeded on purpose; the one piece teardown removes itself (the
 * controller's shared backend security group) goes before the VPC.
 *
 * The environment is placed in a slot of another account (moto serves STS
 * AssumeRole, and keeps each account's resources apart): its provider assumes
 * the account's role. Then the config changes so that it would move (its region
 * is no longer listed): deploy refuses, and teardown, its cleanup and the
 * leftover check act where its state says it is.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchLogsClient, CreateLogGroupCommand, DescribeLogGroupsCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  AuthorizeSecurityGroupIngressCommand,
  CreateLaunchTemplateCommand,
  CreateNetworkInterfaceCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVolumeCommand,
  CreateVpcCommand,
  DeleteSecurityGroupCommand,
  DescribeLaunchTemplatesCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVolumesCommand,
  DescribeVpcsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { CreateLoadBalancerCommand, CreateTargetGroupCommand, DeleteLoadBalancerCommand, DeleteTargetGroupCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { Emulator } from '../../lib/commands/local/moto';
import { awsClientConfig } from '../../lib/kit/aws/aws-clients';
import { expiryAhead, ownEmulator, runCommand, RunOptions } from './harness';

/** The account ws1 is placed in, and the role its provider (and these clients) assume there. */
const ACCOUNT = '111111111111';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/OrganizationAccountAccessRole`;
const WORKSHOP = { attendees: ['ws1'], workshop: { name: 'itest', expiresAt: expiryAhead() } };

/** A real deploy's state: a VPC the emulator knows nothing of (a refresh against the emulator would drop it). */
const REAL_STATE = `${JSON.stringify(
  {
    version: 4,
    terraform_version: '1.11.4',
    serial: 9,
    lineage: '0d9e4c1a-real-4e3b-9a51-6c0b2f7d8e21',
    outputs: {},
    resources: [
      {
        mode: 'managed',
        type: 'aws_vpc',
        name: 'vpc_6776A399',
        provider: 'provider["registry.terraform.io/hashicorp/aws"]',
        instances: [{ schema_version: 1, attributes: { id: 'vpc-0123456789abcdef0', cidr_block: '10.0.0.0/16', tags: { 'hoplab-env': 'ws1' } } }],
      },
    ],
    check_results: null,
  },
  null,
  2,
)}\n`;

describe('deploy and teardown against the AWS emulator', () => {
  let moto: Emulator;
  let cwd: string;
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

  beforeAll(async () => {
    moto = await ownEmulator();
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-lifecycle-'));
    writeFileSync(join(cwd, 'hoplab.config.json'), JSON.stringify({ ...WORKSHOP, aws: { accounts: [{ id: ACCOUNT }], regions: ['us-east-1'] } }));
    // The state of a real deploy of the same workshop, as a host's project directory holds it.
    writeFileSync(join(cwd, 'terraform.ws1-aws-cluster.tfstate'), REAL_STATE);
  });
  afterAll(async () => {
    await moto?.stop();
  });

  const run = (command: string, args: string[], options: Pick<RunOptions, 'onStart'> = {}) => runCommand(command, args, { cwd, env: { HOPLAB_AWS_ENDPOINT: moto.endpoint }, ...options });

  test('GIVEN a workshop of one attendee placed in an account WHEN deployed (interrupted, continued, and run once more: it finds it applied), moved by the config, seeded with controller leftovers and torn down THEN the continued deploy keeps what was applied, deploy refuses the move, and teardown fails listing exactly the leftovers where its state says, and passes once they are gone', async () => {
    const statePath = join(cwd, '.hoplab', 'emulator', 'terraform.ws1-aws-cluster.tfstate');
    const resourceIds = (): string[] =>
      existsSync(statePath)
        ? (JSON.parse(readFileSync(statePath, 'utf8')) as { resources: { mode: string; type: string; name: string; instances: { status?: string; attributes: { id?: string } }[] }[] }).resources
            .filter((r) => r.mode === 'managed')
            .flatMap((r) => r.instances.map((i) => `${r.type}.${r.name} ${i.attributes.id ?? ''}${i.status ? ` (${i.status})` : ''}`))
        : [];

    // Ctrl-C once Terraform has created an IAM role, in its first wave of creates (its log says so): deploy stops Terraform
    // gracefully, which records what it made.
    const log = join(cwd, '.hoplab', 'logs', 'ws1-aws-cluster.deploy.log');
    let poll: NodeJS.Timeout | undefined;
    const interrupted = await run('deploy', ['--stacks', 'aws-cluster', '--yes'], {
      onStart: (child) => {
        poll = setInterval(() => {
          if (existsSync(log) && /aws_iam_role\.\S+: Creation complete after/.test(readFileSync(log, 'utf8'))) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 200);
      },
    }).finally(() => clearInterval(poll));
    expect(interrupted.out).toContain('SIGINT received');
    expect(interrupted.out).toContain('hoplab deploy: not every stack applied');
    expect(interrupted).toExitWith(130);
    const recorded = resourceIds();
    // What Terraform had finished creating; what it was still creating, if anything, is recorded `tainted` and is replaced by the next run.
    const applied = recorded.filter((id) => !id.endsWith('(tainted)'));
    expect(applied.length).toBeGreaterThan(0);
    // The emulator serves one request at a time: one Terraform sent before it stopped, whose answer it no longer
    // waited for, is carried out after (CI saw a role made so after the next deploy had begun). Its answer to this
    // one comes after all of them.
    expect((await fetch(`${moto.endpoint}/moto-api/`)).ok).toBe(true);
    // A role made but not recorded, as a cancelled CreateRole leaves it: taken out of the state by hand.
    const state0 = JSON.parse(readFileSync(statePath, 'utf8')) as {
      serial: number;
      resources: { mode: string; type: string; name: string; instances: { status?: string; attributes: { id?: string } }[] }[];
    };
    const dropped = state0.resources.find((r) => r.mode === 'managed' && r.type === 'aws_iam_role' && r.instances.every((i) => i.status === undefined))!;
    const orphan = dropped.instances[0].attributes.id!;
    // The log group, made in the same first wave, too where it was recorded.
    const droppedGroup = state0.resources.find((r) => r.mode === 'managed' && r.type === 'aws_cloudwatch_log_group' && r.instances.every((i) => i.status === undefined));
    writeFileSync(statePath, JSON.stringify({ ...state0, serial: state0.serial + 1, resources: state0.resources.filter((r) => r !== dropped && r !== droppedGroup) }, null, 2));

    // Run again, as the docs say after an interrupted deploy: it continues, keeping what was applied (nothing recreated).
    const deployed = await run('deploy', ['--stacks', 'aws-cluster', '--yes']);
    expect(deployed.out).toContain('Estimated cost (list prices of');
    // The role the state lacked is adopted, not made again (which IAM refuses: EntityAlreadyExists).
    expect(deployed.out).toContain(`  step   ws1-aws-cluster: IAM role ${orphan} exists, tagged as ws1's, but not in the stack's state (a deploy was interrupted while making it): importing it\n`);
    expect(resourceIds()).toContain(`aws_iam_role.${dropped.name} ${orphan}`);
    if (droppedGroup) {
      expect(deployed.out).toContain(
        `  step   ws1-aws-cluster: log group /aws/eks/ws1-eks/cluster exists, tagged as ws1's, but not in the stack's state (a deploy was interrupted while making it): importing it\n`,
      );
    }
    expect(deployed.out).toMatch(/ {2}done {3}ws1-aws-cluster in \d+\.\d s\n/);
    expect(deployed).toExitWith(0);
    const continued = resourceIds();
    expect(continued.length).toBeGreaterThan(applied.length);
    expect(applied.filter((id) => !continued.includes(id))).toEqual([]);
    // Nothing is left tainted: what was (a VPC gets a new id; a role or log group, named, keeps its name) was replaced.
    expect(continued.filter((id) => id.endsWith('(tainted)'))).toEqual([]);
    // Emulator state is its own: the real state file is byte-for-byte as it was, and no backup of it appeared.
    expect(readFileSync(join(cwd, 'terraform.ws1-aws-cluster.tfstate'), 'utf8')).toBe(REAL_STATE);
    expect(existsSync(join(cwd, 'terraform.ws1-aws-cluster.tfstate.backup'))).toBe(false);
    const state = readFileSync(statePath, 'utf8');
    expect(JSON.parse(state).resources.length).toBeGreaterThan(10);
    expect(JSON.parse(state).outputs.placement.value).toEqual({
      cloud: 'aws',
      slot: `${ACCOUNT}/us-east-1`,
      account: ACCOUNT,
      region: 'us-east-1',
      zones: ['us-east-1a', 'us-east-1b'],
      role_arn: ROLE,
    });

    // The lab is in the slot's account, as its role (the host's default account holds none of it).
    const ec2 = new EC2Client(awsClientConfig({ region: 'us-east-1', endpoint: moto.endpoint, roleArn: ROLE }));
    const elb = new ElasticLoadBalancingV2Client(awsClientConfig({ region: 'us-east-1', endpoint: moto.endpoint, roleArn: ROLE }));
    const host = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials });
    const ws1Vpcs = async (client: EC2Client) => (await client.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:hoplab-env', Values: ['ws1'] }] }))).Vpcs ?? [];
    expect(await ws1Vpcs(ec2)).toHaveLength(1);
    expect(await ws1Vpcs(host)).toEqual([]);

    // Run again (as after an interrupted or failed deploy): the stack is planned again, and Terraform finds it as applied.
    const again = await run('deploy', ['--stacks', 'aws-cluster', '--yes']);
    expect(again.out).toMatch(/ {2}done {3}ws1-aws-cluster in \d+\.\d s \(no changes, already applied\)\n/);
    expect(again.out).toContain('hoplab deploy: every stack applied (1 stack already applied: no changes)');
    expect(again).toExitWith(0);

    // The config changes so that ws1 would move (us-east-1 no longer listed): deploy refuses before anything runs, and says how to keep it.
    writeFileSync(join(cwd, 'hoplab.config.json'), JSON.stringify({ ...WORKSHOP, aws: { accounts: [{ id: ACCOUNT }], regions: ['us-west-2'] } }));
    const before = readFileSync(statePath, 'utf8');
    const moved = await run('deploy', ['--stacks', 'aws-cluster', '--yes']);
    expect(moved).toExitWith(1);
    expect(moved.out).toContain(
      `ws1's AWS environment is deployed in ${ACCOUNT}/us-east-1 (its state, ${join('.hoplab', 'emulator', 'terraform.ws1-aws-cluster.tfstate')}), but aws.regions no longer lists us-east-1: ` +
        `the config would put it in ${ACCOUNT}/us-west-2, and moving it would recreate it there and leave the old one billing; ` +
        'to keep it, add us-east-1 back to aws.regions, or tear it down first (npx hoplab teardown --env ws1 destroys it where its state says)',
    );
    expect(moved.out).not.toContain('start  ws1-aws-cluster');
    expect(readFileSync(statePath, 'utf8')).toBe(before);

    // What the AWS Load Balancer Controller leaves when its Ingress outlives it: an ALB, a target group and a security group, tagged with the cluster.
    const controllerTag = [{ Key: 'elbv2.k8s.aws/cluster', Value: 'ws1-eks' }];
    const vpcId = (await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:hoplab-env', Values: ['ws1'] }] }))).Vpcs?.[0]?.VpcId;
    const subnets =
      (
        await ec2.send(
          new DescribeSubnetsCommand({
            Filters: [
              { Name: 'vpc-id', Values: [vpcId!] },
              { Name: 'tag:kubernetes.io/role/elb', Values: ['1'] },
            ],
          }),
        )
      ).Subnets ?? [];
    const sg = await ec2.send(
      new CreateSecurityGroupCommand({ GroupName: 'k8s-hoplab-echonati-seeded', Description: 'seeded', VpcId: vpcId, TagSpecifications: [{ ResourceType: 'security-group', Tags: controllerTag }] }),
    );
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: sg.GroupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 80, ToPort: 80, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
    const lb = await elb.send(new CreateLoadBalancerCommand({ Name: 'k8s-hoplab-seeded', Subnets: subnets.map((s) => s.SubnetId!), SecurityGroups: [sg.GroupId!], Tags: controllerTag }));
    const tg = await elb.send(new CreateTargetGroupCommand({ Name: 'k8s-hoplab-seeded', Protocol: 'HTTP', Port: 8080, VpcId: vpcId, TargetType: 'ip', Tags: controllerTag }));
    const lbArn = lb.LoadBalancers![0].LoadBalancerArn!;
    const tgArn = tg.TargetGroups![0].TargetGroupArn!;

    const checkOnly = await run('teardown', ['--stacks', 'aws-cluster', '--leftovers-only']);
    expect(checkOnly).toExitWith(1);
    expect(checkOnly.out).toContain(`aws elbv2:load-balancer ${lbArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(checkOnly.out).toContain(`aws elbv2:target-group ${tgArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(checkOnly.out).toContain(`aws ec2:security-group ${sg.GroupId} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(checkOnly.out).toContain(`aws eks:cluster ws1-eks (cluster name)`);
    expect(checkOnly.out).toContain('aws logs:log-group /aws/eks/ws1-eks/cluster (name /aws/eks/ws1-eks/cluster)');
    expect(checkOnly.out).toMatch(/aws ec2:launch-template lt-\w+ \(tag hoplab-env=ws1\)/);

    // With only the lb stack torn down (cluster kept), only the controller's own resources count.
    const lbOnly = await run('teardown', ['--stacks', 'aws-lb', '--leftovers-only']);
    expect(lbOnly).toExitWith(1);
    expect(
      lbOnly.out
        .split('\n')
        .filter((l) => l.startsWith('  aws '))
        .sort(),
    ).toEqual(
      [
        `  aws ec2:security-group ${sg.GroupId} (tag elbv2.k8s.aws/cluster=ws1-eks)`,
        `  aws elbv2:load-balancer ${lbArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`,
        `  aws elbv2:target-group ${tgArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`,
      ].sort(),
    );

    // What the controller leaves when it is uninstalled before it releases it (a race in v3.5.0): its shared backend security
    // group, admitted on the nodes' group (EKS's cluster security group) with the controller's rule description.
    const backend = await ec2.send(
      new CreateSecurityGroupCommand({
        GroupName: 'k8s-traffic-ws1eks-2c4e6a8b0d',
        Description: '[k8s] Shared Backend SecurityGroup for LoadBalancer',
        VpcId: vpcId,
        TagSpecifications: [{ ResourceType: 'security-group', Tags: [...controllerTag, { Key: 'elbv2.k8s.aws/resource', Value: 'backend-sg' }] }],
      }),
    );
    const nodes = await ec2.send(
      new CreateSecurityGroupCommand({
        GroupName: 'eks-cluster-sg-ws1-eks-0419',
        Description: 'EKS created security group',
        VpcId: vpcId,
        TagSpecifications: [{ ResourceType: 'security-group', Tags: [{ Key: 'kubernetes.io/cluster/ws1-eks', Value: 'owned' }] }],
      }),
    );
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: nodes.GroupId,
        IpPermissions: [{ IpProtocol: 'tcp', FromPort: 0, ToPort: 65535, UserIdGroupPairs: [{ GroupId: backend.GroupId, Description: 'elbv2.k8s.aws/targetGroupBinding=shared' }] }],
      }),
    );

    const firstTeardown = await run('teardown', ['--stacks', 'aws-cluster', '--yes']);
    expect(firstTeardown).toExitWith(1);
    expect(firstTeardown.out).toContain(`aws elbv2:load-balancer ${lbArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(firstTeardown.out).toContain('hoplab teardown: NOT clean');
    // The backend group went before the VPC, its rule on the nodes' group first; the other controller group is still reported, not deleted.
    const step = '  step   ws1-aws-cluster: ';
    expect(firstTeardown.out).toContain(
      `${step}security group ${backend.GroupId} (k8s-traffic-ws1eks-2c4e6a8b0d) in ${vpcId}: the AWS Load Balancer Controller's shared backend security group of cluster ws1-eks, ` +
        'left when the controller was uninstalled before it released it; a VPC with a security group in it cannot be deleted: deleting it',
    );
    expect(firstTeardown.out).toContain(`${step}security group ${nodes.GroupId} (eks-cluster-sg-ws1-eks-0419): revoking its inbound rule from ${backend.GroupId} (tcp 0-65535)`);
    expect(firstTeardown.out).toContain(`${step}security group ${backend.GroupId}: deleted`);
    expect(firstTeardown.out).not.toContain(`aws ec2:security-group ${backend.GroupId}`);
    expect(firstTeardown.out).toContain(`aws ec2:security-group ${sg.GroupId} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    const left = new Set(((await ec2.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups ?? []).map((g) => g.GroupId));
    expect(left.has(backend.GroupId)).toBe(false);
    expect(left.has(nodes.GroupId)).toBe(true);
    // The nodes' group is EKS's, deleted with the cluster in AWS; here it is the test's own.
    await ec2.send(new DeleteSecurityGroupCommand({ GroupId: nodes.GroupId }));

    // The host deletes what the check listed, then tears down again: destroyed where its state says, as the account's role.
    await elb.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: lbArn }));
    await elb.send(new DeleteTargetGroupCommand({ TargetGroupArn: tgArn }));
    await ec2.send(new DeleteSecurityGroupCommand({ GroupId: sg.GroupId }));
    const secondTeardown = await run('teardown', ['--stacks', 'aws-cluster', '--yes']);
    expect(secondTeardown.out).toContain('leftovers: none in aws for ws1');
    expect(secondTeardown.out).toContain('hoplab teardown: every stack destroyed and nothing left');
    expect(secondTeardown).toExitWith(0);
    expect(await ws1Vpcs(ec2)).toEqual([]);
    expect(readFileSync(join(cwd, 'terraform.ws1-aws-cluster.tfstate'), 'utf8')).toBe(REAL_STATE);
    expect(existsSync(join(cwd, 'terraform.ws1-aws-cluster.tfstate.backup'))).toBe(false);

    // What Terraform does not see, once the lab's VPC is gone: an aws-K8S ENI the VPC CNI stranded (in a VPC that is
    // not the lab's), a launch template, a volume and a log group of ws1, and the same of attendee ws10, whose names
    // start with "ws1" (the prefix trap). Only ws1's are reported, and nothing is deleted. With nothing deployed, the
    // check looks where the config places ws1 now: the account's us-west-2.
    const west = awsClientConfig({ region: 'us-west-2', endpoint: moto.endpoint, roleArn: ROLE });
    const westEc2 = new EC2Client(west);
    const logs = new CloudWatchLogsClient(west);
    const other = await westEc2.send(new CreateVpcCommand({ CidrBlock: '10.99.0.0/16' }));
    const otherSubnet = await westEc2.send(new CreateSubnetCommand({ VpcId: other.Vpc!.VpcId, CidrBlock: '10.99.0.0/24', AvailabilityZone: 'us-west-2a' }));
    const seeded: Record<string, string[]> = {};
    for (const env of ['ws1', 'ws10']) {
      const envTag = [{ Key: 'hoplab-env', Value: env }];
      const eni = await westEc2.send(
        new CreateNetworkInterfaceCommand({
          SubnetId: otherSubnet.Subnet!.SubnetId,
          Description: 'aws-K8S-i-0123456789abcdef0',
          TagSpecifications: [{ ResourceType: 'network-interface', Tags: [{ Key: 'cluster.k8s.amazonaws.com/name', Value: `${env}-eks` }] }],
        }),
      );
      const template = await westEc2.send(
        new CreateLaunchTemplateCommand({ LaunchTemplateName: `${env}-eks-nodes-seeded`, LaunchTemplateData: {}, TagSpecifications: [{ ResourceType: 'launch-template', Tags: envTag }] }),
      );
      const volume = await westEc2.send(new CreateVolumeCommand({ AvailabilityZone: 'us-west-2a', Size: 1, TagSpecifications: [{ ResourceType: 'volume', Tags: envTag }] }));
      await logs.send(new CreateLogGroupCommand({ logGroupName: `/aws/eks/${env}-eks/cluster` }));
      seeded[env] = [
        `  aws ec2:network-interface ${eni.NetworkInterface!.NetworkInterfaceId} (tag cluster.k8s.amazonaws.com/name=${env}-eks)`,
        `  aws ec2:launch-template ${template.LaunchTemplate!.LaunchTemplateId} (tag hoplab-env=${env})`,
        `  aws ec2:volume ${volume.VolumeId} (tag hoplab-env=${env})`,
        `  aws logs:log-group /aws/eks/${env}-eks/cluster (name /aws/eks/${env}-eks/cluster)`,
      ];
    }
    const strays = await run('teardown', ['--stacks', 'aws-cluster', '--leftovers-only']);
    expect(strays).toExitWith(1);
    expect(
      strays.out
        .split('\n')
        .filter((l) => l.startsWith('  aws '))
        .sort(),
    ).toEqual([...seeded.ws1].sort());
    // Reported, not deleted: every seeded resource of both attendees is still there.
    const ids = (lines: string[], kind: string) => lines.filter((l) => l.includes(` ${kind} `)).map((l) => l.split(' ')[4]);
    const all = [...seeded.ws1, ...seeded.ws10];
    const enis = await westEc2.send(new DescribeNetworkInterfacesCommand({ NetworkInterfaceIds: ids(all, 'ec2:network-interface') }));
    expect(enis.NetworkInterfaces).toHaveLength(2);
    const templates = await westEc2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateIds: ids(all, 'ec2:launch-template') }));
    expect(templates.LaunchTemplates).toHaveLength(2);
    const volumes = await westEc2.send(new DescribeVolumesCommand({ VolumeIds: ids(all, 'ec2:volume') }));
    expect(volumes.Volumes).toHaveLength(2);
    const groups = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: '/aws/eks/ws1' }));
    expect((groups.logGroups ?? []).map((g) => g.logGroupName).sort()).toEqual(['/aws/eks/ws1-eks/cluster', '/aws/eks/ws10-eks/cluster']);
    for (const client of [logs, ec2, elb, host, westEc2]) client.destroy();
  });
});
