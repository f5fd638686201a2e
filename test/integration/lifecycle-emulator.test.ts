/**
 * `npm run deploy` and `npm run teardown` for real against the AWS emulator
 * (the only cloud this machine can reach): Terraform applies and destroys the
 * aws-cluster stack, and the leftover check finds what a load-balancer
 * controller would leave behind, seeded on purpose.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, DeleteSecurityGroupCommand, DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import {
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
  DeleteLoadBalancerCommand,
  DeleteTargetGroupCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { Emulator } from '../../lib/local/moto';
import { ownEmulator, runCommand } from './harness';

jest.setTimeout(400_000);

describe('deploy and teardown against the AWS emulator', () => {
  let moto: Emulator;
  let cwd: string;
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

  beforeAll(async () => {
    moto = await ownEmulator();
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-lifecycle-'));
    writeFileSync(join(cwd, 'hoplab.config.json'), JSON.stringify({ attendees: ['ws1'], workshop: { name: 'itest', expiresAt: '2026-12-01T18:00:00Z' } }));
  });
  afterAll(async () => {
    await moto?.stop();
  });

  const run = (command: string, args: string[]) => runCommand(command, args, { cwd, env: { HOPLAB_AWS_ENDPOINT: moto.endpoint } });

  test('GIVEN a workshop of one attendee WHEN deployed, seeded with controller leftovers and torn down THEN teardown fails listing exactly them, and passes once they are gone', async () => {
    const deployed = run('deploy', ['--stacks', 'aws-cluster', '--yes']);
    expect(deployed.out).toContain('Estimated cost (list prices of');
    expect(deployed.out).toMatch(/ {2}done {3}ws1-aws-cluster in \d+\.\d s/);
    expect(deployed.code).toBe(0);

    // What the AWS Load Balancer Controller leaves when its Ingress outlives it: an ALB, a target group and a security group, tagged with the cluster.
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials });
    const elb = new ElasticLoadBalancingV2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials });
    const controllerTag = [{ Key: 'elbv2.k8s.aws/cluster', Value: 'ws1-eks' }];
    const vpcId = (await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:hoplab-env', Values: ['ws1'] }] }))).Vpcs?.[0]?.VpcId;
    const subnets = (await ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpcId!] }, { Name: 'tag:kubernetes.io/role/elb', Values: ['1'] }] }))).Subnets ?? [];
    const sg = await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'k8s-hoplab-echonati-seeded', Description: 'seeded', VpcId: vpcId, TagSpecifications: [{ ResourceType: 'security-group', Tags: controllerTag }] }));
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: sg.GroupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 80, ToPort: 80, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
    const lb = await elb.send(new CreateLoadBalancerCommand({ Name: 'k8s-hoplab-seeded', Subnets: subnets.map((s) => s.SubnetId!), SecurityGroups: [sg.GroupId!], Tags: controllerTag }));
    const tg = await elb.send(new CreateTargetGroupCommand({ Name: 'k8s-hoplab-seeded', Protocol: 'HTTP', Port: 8080, VpcId: vpcId, TargetType: 'ip', Tags: controllerTag }));
    const lbArn = lb.LoadBalancers![0].LoadBalancerArn!;
    const tgArn = tg.TargetGroups![0].TargetGroupArn!;

    const checkOnly = run('teardown', ['--stacks', 'aws-cluster', '--leftovers-only']);
    expect(checkOnly.code).toBe(1);
    expect(checkOnly.out).toContain(`aws elbv2:load-balancer ${lbArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(checkOnly.out).toContain(`aws elbv2:target-group ${tgArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(checkOnly.out).toContain(`aws ec2:security-group ${sg.GroupId} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(checkOnly.out).toContain(`aws eks:cluster ws1-eks (cluster name)`);

    // With only the lb stack torn down (cluster kept), only the controller's own resources count.
    const lbOnly = run('teardown', ['--stacks', 'aws-lb', '--leftovers-only']);
    expect(lbOnly.code).toBe(1);
    expect(lbOnly.out.split('\n').filter((l) => l.startsWith('  aws ')).sort()).toEqual(
      [
        `  aws ec2:security-group ${sg.GroupId} (tag elbv2.k8s.aws/cluster=ws1-eks)`,
        `  aws elbv2:load-balancer ${lbArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`,
        `  aws elbv2:target-group ${tgArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`,
      ].sort(),
    );

    const firstTeardown = run('teardown', ['--stacks', 'aws-cluster', '--yes']);
    expect(firstTeardown.code).toBe(1);
    expect(firstTeardown.out).toContain(`aws elbv2:load-balancer ${lbArn} (tag elbv2.k8s.aws/cluster=ws1-eks)`);
    expect(firstTeardown.out).toContain('hoplab teardown: NOT clean');

    // The host deletes what the check listed, then tears down again.
    await elb.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: lbArn }));
    await elb.send(new DeleteTargetGroupCommand({ TargetGroupArn: tgArn }));
    await ec2.send(new DeleteSecurityGroupCommand({ GroupId: sg.GroupId }));
    const secondTeardown = run('teardown', ['--stacks', 'aws-cluster', '--yes']);
    expect(secondTeardown.out).toContain('leftovers: none in aws for ws1');
    expect(secondTeardown.out).toContain('hoplab teardown: every stack destroyed and nothing left');
    expect(secondTeardown.code).toBe(0);
    ec2.destroy();
    elb.destroy();
  });
});
