/**
 * AWS's steps beside Terraform in teardown (lib/commands/lifecycle/aws-steps.ts),
 * with EC2 on the run's shared moto, the cluster's Kubernetes API on loopback
 * HTTPS, and a stand-in `terraform` (a script first on the PATH, run through the
 * StackRunner as teardown runs it):
 * - load balancers of other namespaces refuse `<env>-aws-lb`'s destroy;
 * - a destroy stopped by the Gateway data source is run again with -refresh=false;
 * - the controller's shared backend security group of this cluster (and only
 *   it) is deleted after the lb stack, the rules that admit it revoked first.
 * No Terraform apply: the environment (`stepsaws`) is seeded with the SDK.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, CreateVpcCommand, DescribeSecurityGroupsCommand, EC2Client, Tag } from '@aws-sdk/client-ec2';
import { validConfig } from '../../lib/config/load';
import { AwsSteps } from '../../lib/commands/lifecycle/aws-steps';
import { StackRunner } from '../../lib/commands/lifecycle/stack-runner';
import { FOREIGN_LOAD_BALANCER_LISTS as LISTS } from '../../lib/commands/lifecycle/foreign-load-balancers';
import { httpsKubernetesLists } from '../../lib/commands/lifecycle/eks-kubernetes';
import { StackTask } from '../../lib/lab/selection/stack-graph';
import { Emulator } from '../../lib/commands/local/moto';
import { fakeTerraformOnPath } from '../support/fake-terraform';
import { FIXTURE_TOKEN } from '../support/google-api';
import { KubernetesApi, LOOPBACK_CA, serveCrds } from '../support/kubernetes-api';
import { Json } from '../support/synth';
import { sharedEmulator } from './harness';

/** What the kubernetes provider's refresh of the Gateway says once the Gateway is gone (Terraform 1.11, -no-color). */
const NULL_OBJECT = [
  'Error: Provider produced null object',
  '',
  'Provider "registry.terraform.io/hashicorp/kubernetes" produced a null value for',
  'data.kubernetes_resource.exposure-gateway_2F8CE450.',
  '',
  "This is a bug in the provider, which should be reported in the provider's own",
  'issue tracker.',
].join('\n');

/** A stand-in terraform: records its arguments; `destroy` fails with NULL_OBJECT unless -refresh=false is given. */
const TERRAFORM = (log: string) => `#!/bin/sh
echo "$@" >> ${log}
if [ "$1" = destroy ]; then
  case "$*" in
    *-refresh=false*) echo "Destroy complete! Resources: 9 destroyed." ;;
    *) printf '%s\\n' '${NULL_OBJECT.replace(/'/g, "'\\''")}' >&2; exit 1 ;;
  esac
fi
exit 0
`;

/** A listed object: its finalizers, and a Service's type. */
const object = (kind: string, namespace: string, name: string, o: { finalizers?: string[]; type?: string } = {}): Json => ({
  kind,
  metadata: { name, namespace, uid: `3f1c9a2e-${namespace}-${name}`, ...(o.finalizers ? { finalizers: o.finalizers } : {}) },
  ...(o.type ? { spec: { type: o.type } } : {}),
});

describe('AWS teardown steps against the emulator', () => {
  let moto: Emulator;
  let ec2: EC2Client;
  let kubernetes: KubernetesApi | undefined;
  let restorePath: (() => void) | undefined;
  const ids: Record<string, string> = {};
  const lines: string[] = [];

  const group = async (name: string, vpcId: string, tags: Tag[]) =>
    (await ec2.send(new CreateSecurityGroupCommand({ GroupName: name, Description: name, VpcId: vpcId, TagSpecifications: [{ ResourceType: 'security-group', Tags: tags }] }))).GroupId!;

  beforeAll(async () => {
    moto = await sharedEmulator();
    ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.77.0.0/16' }))).Vpc!.VpcId!;
    const controller = (cluster: string, resource?: string): Tag[] => [{ Key: 'elbv2.k8s.aws/cluster', Value: cluster }, ...(resource ? [{ Key: 'elbv2.k8s.aws/resource', Value: resource }] : [])];
    // What the controller (v3.5.0) leaves: its shared backend group, admitted on the nodes' group with its rule description.
    ids.backend = await group('k8s-traffic-stepsawseks-4b7e1c09d2', vpc, controller('stepsaws-eks', 'backend-sg'));
    ids.node = await group('eks-cluster-sg-stepsaws-eks-1830412', vpc, [{ Key: 'kubernetes.io/cluster/stepsaws-eks', Value: 'owned' }]);
    await ec2.send(
      new AuthorizeSecurityGroupIngressCommand({
        GroupId: ids.node,
        IpPermissions: [
          { IpProtocol: 'tcp', FromPort: 0, ToPort: 65535, UserIdGroupPairs: [{ GroupId: ids.backend, Description: 'elbv2.k8s.aws/targetGroupBinding=shared' }] },
          { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: '10.77.0.0/16' }] },
        ],
      }),
    );
    // Not this cluster's backend group: another cluster's (stepsaws2, whose name starts the same), and this cluster's frontend group of a load balancer.
    ids.otherBackend = await group('k8s-traffic-stepsaws2eks-9c0d1e2f3a', vpc, controller('stepsaws2-eks', 'backend-sg'));
    ids.frontend = await group('k8s-hoplab-echonati-5e1f2a3b4c', vpc, controller('stepsaws-eks'));
  });
  afterEach(async () => {
    await kubernetes?.close();
    kubernetes = undefined;
    restorePath?.();
    restorePath = undefined;
    lines.length = 0;
  });
  afterAll(async () => {
    ec2?.destroy();
    await moto?.stop();
  });

  /** AwsSteps on the emulator, the cluster's API on loopback holding `objects` (by list path), and a StackRunner running the stand-in terraform. */
  async function teardown(objects: Partial<Record<keyof typeof LISTS, Json[]>>) {
    kubernetes = await serveCrds(() => 'absent', Object.fromEntries(Object.entries(objects).map(([list, items]) => [LISTS[list as keyof typeof LISTS], items])));
    const base = kubernetes.base;
    const steps = new AwsSteps({
      config: validConfig({ name: 'stepsaws' }, 'test'),
      awsEndpoint: moto.endpoint,
      write: (line) => lines.push(line),
      stackFile: (stack) => `${stack} is not synthesized here`,
      overrides: { kubernetes: async () => httpsKubernetesLists(base, LOOPBACK_CA, FIXTURE_TOKEN, 5000) },
    });
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-aws-steps-'));
    const log = join(dir, 'terraform-calls.log');
    restorePath = fakeTerraformOnPath('hoplab-aws-steps-bin-', TERRAFORM(log)).restore;
    mkdirSync(join(dir, 'cdktf.out', 'stacks', 'stepsaws-aws-lb'), { recursive: true });
    const runner = new StackRunner({ outdir: join(dir, 'cdktf.out'), logDir: join(dir, 'logs'), env: {} });
    const task: StackTask = { stack: 'stepsaws-aws-lb', env: 'stepsaws', cloud: 'aws', kind: 'aws-lb', after: [] };
    const calls = () => {
      try {
        return readFileSync(log, 'utf8').trim().split('\n');
      } catch {
        return [];
      }
    };
    return { run: () => steps.destroyLb('stepsaws', task.stack, (extra) => runner.run(task, 'destroy', extra)), calls };
  }

  const groups = async () => new Set(((await ec2.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups ?? []).map((g) => g.GroupId));

  test('GIVEN an Ingress, a LoadBalancer Service and a Gateway a host made outside namespace hoplab WHEN stepsaws-aws-lb is destroyed THEN it is refused naming each with its delete command, and nothing runs or is deleted', async () => {
    const { run, calls } = await teardown({
      ingresses: [
        object('Ingress', 'hoplab', 'echo-native', { finalizers: ['ingress.k8s.aws/resources'] }),
        object('Ingress', 'team-a', 'web', { finalizers: ['group.ingress.k8s.aws/shop'] }),
        // An Ingress of another controller (no AWS load balancer of this one).
        object('Ingress', 'team-a', 'nginx-routes'),
      ],
      services: [
        object('Service', 'hoplab', 'echo-nodeport-l4', { type: 'LoadBalancer' }),
        object('Service', 'team-b', 'api', { finalizers: ['service.k8s.aws/resources'], type: 'LoadBalancer' }),
        object('Service', 'team-b', 'internal', { type: 'ClusterIP' }),
      ],
      gateways: [object('Gateway', 'team-c', 'edge', { finalizers: ['gateway.k8s.aws/alb'] })],
    });
    await expect(run()).rejects.toThrow(
      [
        'cluster stepsaws-eks has 3 load balancers hoplab did not make (outside namespace hoplab); uninstalling the AWS Load Balancer Controller now would leave them billed, with nothing to delete them, and block deleting the VPC:',
        '  Gateway team-c/edge: kubectl delete gateway edge -n team-c',
        '  Ingress team-a/web: kubectl delete ingress web -n team-a',
        '  Service team-b/api (type LoadBalancer): kubectl delete service api -n team-b',
        'delete them and wait until they are gone, then run npx hoplab teardown again (stepsaws-aws-lb was not destroyed)',
      ].join('\n'),
    );
    expect(calls()).toEqual([]);
    expect(kubernetes!.requests.map((r) => r.path).sort()).toEqual(Object.values(LISTS).sort());
    expect(kubernetes!.requests.every((r) => r.authorization === `Bearer ${FIXTURE_TOKEN}`)).toBe(true);
    expect(await groups()).toContain(ids.backend);
  });

  test('GIVEN only hoplab’s own load balancers, a Gateway already gone and the backend group left WHEN destroyed twice over THEN Terraform runs again with -refresh=false and the group goes, its rule on the nodes’ group revoked first', async () => {
    const { run, calls } = await teardown({ ingresses: [object('Ingress', 'hoplab', 'echo-native', { finalizers: ['ingress.k8s.aws/resources'] })], services: [] });
    await run();
    expect(calls()).toEqual([
      'init -input=false -no-color',
      'destroy -auto-approve -input=false -no-color',
      'init -input=false -no-color',
      'destroy -auto-approve -input=false -no-color -refresh=false',
    ]);
    const step = '  step   stepsaws-aws-lb: ';
    expect(lines).toEqual([
      `${step}data.kubernetes_resource.exposure-gateway_2F8CE450 read nothing: what it reads is already gone (an earlier destroy deleted it); destroying again without refreshing (-refresh=false)`,
      expect.stringMatching(
        new RegExp(
          `^${step}security group ${ids.backend} \\(k8s-traffic-stepsawseks-4b7e1c09d2\\) in vpc-\\w+: the AWS Load Balancer Controller's shared backend security group of cluster stepsaws-eks, ` +
            'left when the controller was uninstalled before it released it; a VPC with a security group in it cannot be deleted: deleting it$',
        ),
      ),
      `${step}security group ${ids.node} (eks-cluster-sg-stepsaws-eks-1830412): revoking its inbound rule from ${ids.backend} (tcp 0-65535)`,
      `${step}security group ${ids.backend}: deleted`,
    ]);
    const left = await groups();
    expect(left.has(ids.backend)).toBe(false);
    // Another cluster's backend group and this cluster's frontend group stay; so does the nodes' group's other rule.
    expect([ids.otherBackend, ids.frontend, ids.node].every((id) => left.has(id))).toBe(true);
    const node = (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [ids.node] }))).SecurityGroups![0];
    expect(node.IpPermissions).toEqual([expect.objectContaining({ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [expect.objectContaining({ CidrIp: '10.77.0.0/16' })] })]);
    expect(node.IpPermissions!.flatMap((p) => p.UserIdGroupPairs ?? [])).toEqual([]);

    // The cluster stack's destroy in the same run does not look again; a new run finds nothing and says so.
    await new AwsSteps({
      config: validConfig({ name: 'stepsaws' }, 'test'),
      awsEndpoint: moto.endpoint,
      write: (line) => lines.push(line),
      stackFile: (stack) => `${stack} is not synthesized here`,
    }).destroyCluster('stepsaws', 'stepsaws-aws-cluster', async () => {
      lines.push('terraform destroy stepsaws-aws-cluster');
    });
    expect(lines.slice(4)).toEqual(['  step   stepsaws-aws-cluster: no backend security group of the controller left for cluster stepsaws-eks', 'terraform destroy stepsaws-aws-cluster']);
  });
});
