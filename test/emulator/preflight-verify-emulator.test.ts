/**
 * `preflight`, `deploy` (which runs preflight first) and `verify` for real
 * against the AWS emulator with real Terraform: one apply and one destroy of
 * `<env>-aws-cluster`, several assertions on it.
 *
 * The applied environment also carries the one non-default datapath the
 * emulator can show: IPVS (`aws.datapath: ipvs`). moto has no EKS add-on API, so
 * the kube-proxy add-on (and its `mode: ipvs`) is left out; what it can show is
 * the node launch template carrying the IPVS kernel-module user data through
 * apply and an empty re-plan (verify's drift check: moto returns the same user
 * data, or Terraform would plan a change). Sharing this flow's apply saves the
 * suite a whole apply/re-plan/destroy of its own.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTagsCommand, DescribeLaunchTemplatesCommand, DescribeLaunchTemplateVersionsCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { IPVS_KERNEL_MODULES } from '../../lib/constructs/aws/kube-proxy-mode';
import { Emulator, startMoto } from '../../lib/commands/local/moto';
import { expiryAhead, runCommand, terraformIn, terraformOutputs } from './harness';

describe('preflight, deploy and verify against the AWS emulator', () => {
  let moto: Emulator;
  let cwd: string;
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

  beforeAll(async () => {
    moto = await startMoto();
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-verify-'));
    writeFileSync(join(cwd, 'hoplab.config.json'), JSON.stringify({ attendees: ['pv1', 'pv2'], aws: { datapath: 'ipvs' }, workshop: { name: 'pvtest', expiresAt: expiryAhead() } }));
  });
  afterAll(async () => {
    await moto?.stop();
  });

  const run = async (command: string, args: string[]) => {
    const result = await runCommand(command, args, { cwd, env: { HOPLAB_AWS_ENDPOINT: moto.endpoint } });
    // The whole run (its name and Terraform logs, which toExitWith shows on a failure), with `out` its stdout alone.
    return { ...result, out: result.stdout, all: result.out };
  };
  const line = (out: string, start: string) => out.split('\n').find((l) => l.startsWith(start)) ?? `(no line starting ${start})`;

  test('GIVEN one applied environment WHEN preflight, verify and a collision are checked THEN each verdict is right, with one apply and one destroy', async () => {
    // Preflight against the emulator: STS identity, quotas from Service Quotas (VPC) and documented defaults, free names.
    const pre = await run('preflight', ['--env', 'pv1', '--format', 'json']);
    const report = JSON.parse(pre.out) as { ok: boolean; findings: { check: string; verdict: string; detail: string }[] };
    const finding = (check: string) => report.findings.find((f) => f.check === check);
    expect(pre).toExitWith(0);
    expect(report.ok).toBe(true);
    expect(finding('aws identity')).toEqual({ check: 'aws identity', verdict: 'pass', detail: `arn:aws:sts::123456789012:user/moto (account 123456789012) in the emulator at ${moto.endpoint}` });
    expect(finding('aws quota vpcs')?.detail).toMatch(/^VPCs per Region \(L-F678F1CE\): \d+ in use \+ 1 for this lab = \d+ of 5 \(Service Quotas\)$/);
    expect(finding('aws quota elasticIps')?.detail).toContain("of 5 (AWS's documented default: Service Quotas did not answer");
    expect(finding('aws names pv1')).toEqual({ check: 'aws names pv1', verdict: 'pass', detail: 'all 7 names free (EKS cluster, IAM roles and policies)' });

    // Deploy runs preflight first, then applies.
    const deployed = await run('deploy', ['--env', 'pv1', '--stacks', 'aws-cluster', '--yes']);
    expect(deployed.all).toContain('hoplab preflight: pv1 (aws-cluster)');
    expect(deployed.all).toContain('nothing blocks a deploy');
    expect(deployed).toExitWith(0);

    // No drift right after the apply; the report is written.
    const clean = await run('verify', ['--env', 'pv1', '--stacks', 'aws-cluster', '--report', 'reports/clean']);
    expect(line(clean.out, '  drift   pv1-aws-cluster')).toBe('  drift   pv1-aws-cluster: no changes');
    expect(clean).toExitWith(0);
    const cleanJson = JSON.parse(readFileSync(join(cwd, 'reports', 'clean.json'), 'utf8'));
    expect(cleanJson).toMatchObject({ schema: 'hoplab.verify/v1', ok: true, environments: ['pv1'], stacks: ['pv1-aws-cluster'], versions: { terraform: '1.11.4' } });
    expect(readFileSync(join(cwd, 'reports', 'clean.md'), 'utf8')).toContain('| pv1-aws-cluster | no changes');

    // The IPVS datapath went through apply (and the empty re-plan above): the dataplane output, a node launch
    // template whose user data loads the IPVS kernel modules, and no EKS add-on (moto has no add-on API).
    const stackDir = join(cwd, 'cdktf.out', 'stacks', 'pv1-aws-cluster');
    expect((await terraformOutputs(stackDir)).dataplane).toBe('kube-proxy-ipvs');
    const addresses = (await terraformIn(stackDir, ['state', 'list'])).stdout.trim().split('\n');
    expect(addresses).toEqual(expect.arrayContaining([expect.stringMatching(/^aws_launch_template\.nodes_launch-template_\w+$/), expect.stringMatching(/^aws_eks_node_group\./)]));
    expect(addresses.filter((a) => a.startsWith('aws_eks_addon'))).toEqual([]);
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials });
    const [template] = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: [{ Name: 'tag:hoplab-env', Values: ['pv1'] }] }))).LaunchTemplates ?? [];
    expect(template?.LaunchTemplateId).toBeDefined();
    const [version] = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: template?.LaunchTemplateId, Versions: ['$Latest'] }))).LaunchTemplateVersions ?? [];
    const userData = Buffer.from(version?.LaunchTemplateData?.UserData ?? '', 'base64').toString('utf8');
    for (const module of IPVS_KERNEL_MODULES) expect(userData).toContain(module);

    // A tag changed outside Terraform: verify names the resource and the attributes.
    const vpc = (await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:hoplab-env', Values: ['pv1'] }] }))).Vpcs![0];
    await ec2.send(new CreateTagsCommand({ Resources: [vpc.VpcId!], Tags: [{ Key: 'hoplab-owner', Value: 'someone-else' }] }));
    const drifted = await run('verify', ['--env', 'pv1', '--stacks', 'aws-cluster', '--report', 'reports/drift', '--format', 'json']);
    expect(drifted).toExitWith(1);
    const driftJson = JSON.parse(drifted.out);
    expect(driftJson.ok).toBe(false);
    expect(driftJson.drift[0].status).toBe('drift');
    // Exactly the one resource changed is drift (what an apply would change). The plan's resource_drift lists 14 (tags
    // from null to {}, routes filled by aws_route, managed_policy_arns filled by attachments, the EIP's association, and
    // the VPC), but nothing the plan depends on changed (Terraform 1.11 writes no relevant_attributes for it, and
    // `terraform show` prints no "changed outside of Terraform" section), so no refresh-only difference is listed.
    const vpcAddress = expect.stringMatching(/^aws_vpc\.vpc_\w+$/);
    expect(driftJson.drift[0].resources).toEqual([{ address: vpcAddress, actions: 'update', attributes: ['tags', 'tags_all'] }]);
    expect(driftJson.drift[0].outside_changes).toEqual([]);
    expect(drifted.all).toMatch(/drift: pv1-aws-cluster: 1 resource would change \([\d.]+ s\)/);
    const driftMarkdown = readFileSync(join(cwd, 'reports', 'drift.md'), 'utf8');
    expect(driftMarkdown.match(/would change: /g)).toHaveLength(1);
    expect(driftMarkdown).toMatch(/would change: aws_vpc\.vpc_\w+ update \(tags, tags_all\)/);
    expect(driftMarkdown).not.toContain('changed outside Terraform (refresh only');
    expect(driftMarkdown.split('\n')[0]).toBe('# hoplab verify: FAILED');

    // Name collisions: a role and a cluster of pv2's names made by someone else; pv1's own names are recognised as this workshop's.
    const iam = new IAMClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials });
    const eks = new EKSClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials });
    const role = await iam.send(new CreateRoleCommand({ RoleName: 'pv2-eks-cluster', AssumeRolePolicyDocument: '{"Version":"2012-10-17","Statement":[]}' }));
    await eks.send(new CreateClusterCommand({ name: 'pv2-eks', roleArn: role.Role!.Arn!, resourcesVpcConfig: { subnetIds: [] } }));
    const collision = await run('preflight', ['--format', 'json']);
    expect(collision).toExitWith(1);
    const collided = JSON.parse(collision.out) as typeof report;
    expect(collided.findings.find((f) => f.check === 'aws names pv2')).toMatchObject({
      verdict: 'fail',
      detail: 'already taken by something not of this workshop (tags hoplab-env=pv2, hoplab-workshop=pvtest): EKS cluster pv2-eks, IAM role pv2-eks-cluster',
    });
    expect(collided.findings.find((f) => f.check === 'aws names pv1')?.detail).toMatch(
      /^0 names free; 7 exist and are this workshop's own \(a re-deploy updates them\): EKS cluster pv1-eks, IAM role /,
    );
    // Deploy stops on it before applying anything.
    const refused = await run('deploy', ['--env', 'pv2', '--stacks', 'aws-cluster', '--yes']);
    expect(refused).toExitWith(1);
    expect(refused.all).toContain('hoplab deploy: stopped before anything was applied: preflight found 1 blocking problem (aws names pv2)');
    expect(refused.all).not.toContain('start ');

    const down = await run('teardown', ['--env', 'pv1', '--stacks', 'aws-cluster', '--yes']);
    expect(down).toExitWith(0);
    for (const client of [ec2, iam, eks]) client.destroy();
  });
});
