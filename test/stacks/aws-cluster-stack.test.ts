import { EksAddon } from '@cdktf/provider-aws/lib/eks-addon';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { App, Testing } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { AwsClusterStack } from '../../lib/stacks/aws-cluster-stack';

import { Synthesized as Synth } from '../support/synth';

function synth(raw: Record<string, unknown> = {}, emulator?: { endpoint: string }): { json: string; parsed: Synth; stack: AwsClusterStack } {
  const app = Testing.app();
  const stack = new AwsClusterStack(app, 'lab-aws-cluster', { config: validConfig(raw, 'test'), emulator });
  const json = Testing.synth(stack);
  return { json, parsed: JSON.parse(json), stack };
}

const byName = (resources: Record<string, Record<string, unknown>>, key: string, value: string) => Object.entries(resources).find(([, r]) => r[key] === value);

describe('AwsClusterStack', () => {
  test('GIVEN the default config WHEN synthesized THEN it matches the snapshot (update only for intended changes)', () => {
    expect(synth().json).toMatchSnapshot();
  });

  test('GIVEN a region WHEN synthesized THEN the provider uses it and tags everything with the environment', () => {
    const { json } = synth({ name: 'team-a', aws: { region: 'eu-west-1', availabilityZones: ['eu-west-1a', 'eu-west-1b'] } });
    expect(json).toHaveProviderWithProperties(AwsProvider, {
      region: 'eu-west-1',
      default_tags: [
        {
          tags: {
            'hoplab-env': 'team-a',
            'hoplab-workshop': 'hoplab',
            'hoplab-owner': 'workshop-host',
            'hoplab-expires': 'unset',
            'hoplab-stack': 'lab-aws-cluster',
            'managed-by': 'hoplab',
          },
        },
      ],
    });
  });

  test('GIVEN real AWS WHEN synthesized THEN vpc-cni and kube-proxy are in place before nodes join, and coredns waits for nodes', () => {
    const { json, parsed } = synth();
    for (const addon of ['vpc-cni', 'kube-proxy', 'coredns']) {
      expect(json).toHaveResourceWithProperties(EksAddon, { addon_name: addon });
    }
    const addons = parsed.resource.aws_eks_addon;
    const [cniId, cni] = byName(addons, 'addon_name', 'vpc-cni')!;
    const [proxyId] = byName(addons, 'addon_name', 'kube-proxy')!;
    const [, coredns] = byName(addons, 'addon_name', 'coredns')!;
    const [groupId, group] = Object.entries(parsed.resource.aws_eks_node_group)[0];
    expect(group.depends_on).toEqual(expect.arrayContaining([`aws_eks_addon.${cniId}`, `aws_eks_addon.${proxyId}`]));
    expect(coredns.depends_on).toEqual([`aws_eks_node_group.${groupId}`]);
    expect(cni.service_account_role_arn).toMatch(/^\$\{aws_iam_role\.vpc-cni-role_\w+\.arn\}$/);
  });

  test('GIVEN real AWS WHEN synthesized THEN nodes also wait for the NAT gateway (they pull images through it)', () => {
    const { parsed } = synth();
    const group = Object.values(parsed.resource.aws_eks_node_group)[0] as { depends_on: string[] };
    expect(group.depends_on).toEqual(expect.arrayContaining([expect.stringMatching(/^aws_nat_gateway\./)]));
  });

  test.each([false, true])(
    'GIVEN real AWS or the emulator (%p) WHEN synthesized THEN the nodes depend on the CNI role policy and every private route and association (destroyed after the nodes drain)',
    (emulated) => {
      const { parsed } = synth({}, emulated ? { endpoint: 'http://127.0.0.1:5000' } : undefined);
      const group = Object.values(parsed.resource.aws_eks_node_group)[0] as { depends_on: string[] };
      const cniAttachments = Object.entries(parsed.resource.aws_iam_role_policy_attachment)
        .filter(([, a]) => a.policy_arn === 'arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy')
        .map(([id]) => `aws_iam_role_policy_attachment.${id}`);
      const privateRoutes = Object.entries(parsed.resource.aws_route)
        .filter(([, r]) => 'nat_gateway_id' in r)
        .map(([id]) => `aws_route.${id}`);
      const privateAssociations = Object.keys(parsed.resource.aws_route_table_association)
        .filter((id) => id.includes('private'))
        .map((id) => `aws_route_table_association.${id}`);
      expect(cniAttachments).toHaveLength(1);
      expect(privateRoutes).toHaveLength(2);
      expect(privateAssociations).toHaveLength(2);
      expect(group.depends_on).toEqual(expect.arrayContaining([...cniAttachments, ...privateRoutes, ...privateAssociations]));
    },
  );

  test('GIVEN the default config WHEN synthesized THEN the control plane ENIs go in the private subnets only, leaving the public ones to the load balancers', () => {
    const { parsed } = synth();
    const cluster = Object.values(parsed.resource.aws_eks_cluster)[0] as { vpc_config: { subnet_ids: string[] } };
    const subnets = parsed.resource.aws_subnet;
    const privateIds = Object.entries(subnets)
      .filter(([, s]) => (s.tags as Record<string, string>)['kubernetes.io/role/internal-elb'] === '1')
      .map(([id]) => `\${aws_subnet.${id}.id}`);
    expect(privateIds).toHaveLength(2);
    expect(cluster.vpc_config.subnet_ids).toEqual(privateIds);
  });

  test('GIVEN the emulator WHEN synthesized THEN only the add-ons and the deployer access entry are left out, the provider points at the emulator and fails fast', () => {
    const { json, parsed, stack } = synth({}, { endpoint: 'http://127.0.0.1:5999' });
    expect(parsed.resource.aws_eks_addon).toBeUndefined();
    expect(stack.addonsLeftOut).toEqual(['vpc-cni', 'kube-proxy', 'coredns']);
    expect(json).toHaveProviderWithProperties(AwsProvider, {
      access_key: 'hoplab-local',
      skip_credentials_validation: true,
      skip_requesting_account_id: true,
      max_retries: 2,
      endpoints: [
        {
          ec2: 'http://127.0.0.1:5999',
          eks: 'http://127.0.0.1:5999',
          iam: 'http://127.0.0.1:5999',
          elbv2: 'http://127.0.0.1:5999',
          sts: 'http://127.0.0.1:5999',
          autoscaling: 'http://127.0.0.1:5999',
          logs: 'http://127.0.0.1:5999',
        },
      ],
    });
    const real = synth().parsed.resource;
    const types = (r: Synth['resource']) => Object.fromEntries(Object.entries(r).map(([type, all]) => [type, Object.keys(all).length]));
    // moto has no add-on or access entry API: the deployer's admin entry is left out too.
    const { aws_eks_addon: addons, aws_eks_access_entry: entries, aws_eks_access_policy_association: associations, ...realRest } = types(real);
    expect([addons, entries, associations]).toEqual([3, 1, 1]);
    expect(types(parsed.resource)).toEqual(realRest);
  });

  test('GIVEN real AWS WHEN synthesized THEN no provider credentials or endpoints are set (the default credential chain applies)', () => {
    const provider = synth().parsed.provider.aws[0];
    expect(provider.access_key).toBeUndefined();
    expect(provider.endpoints).toBeUndefined();
  });

  test.each([
    ['t3.small', 11, '3 ENIs x (4 IPv4 per ENI - 1) + 2'],
    ['t3.medium', 17, '3 ENIs x (6 IPv4 per ENI - 1) + 2'],
    ['m5.large', 29, '3 ENIs x (10 IPv4 per ENI - 1) + 2'],
    ['m5.xlarge', 58, '4 ENIs x (15 IPv4 per ENI - 1) + 2'],
  ])('GIVEN %s nodes WHEN synthesized THEN max_pods_per_node is %i (%s)', (nodeInstanceType, maxPods, reason) => {
    const { output } = synth({ aws: { nodeInstanceType } }).parsed;
    expect(output.max_pods_per_node.value).toBe(maxPods);
    expect(output.max_pods_per_node_reason.value).toBe(`VPC CNI on ${nodeInstanceType}: ${reason}`);
  });

  test('GIVEN the default config WHEN synthesized THEN the outputs follow the contract', () => {
    const { output } = synth().parsed;
    expect(Object.keys(output).sort()).toEqual(
      [
        'cloud',
        'cluster_name',
        'region',
        'location',
        'node_count',
        'max_pods_per_node',
        'max_pods_per_node_reason',
        'pod_address_range',
        'pod_networking',
        'dataplane',
        'cluster_endpoint',
        'cluster_ca_certificate',
        'vpc_id',
        'oidc_provider_arn',
        'lb_controller_role_arn',
        'kubernetes_version',
      ].sort(),
    );
    expect(output.cloud.value).toBe('aws');
    expect(output.node_count.value).toBe(3);
    expect(output.location.value).toBe('us-east-1a,us-east-1b');
    expect(output.pod_address_range.value).toEqual(['10.0.0.0/19', '10.0.32.0/19']);
    expect(output.dataplane.value).toBe('kube-proxy-iptables');
    // What a kubeconfig needs beside the endpoint: the cluster's CA, as EKS hands it over (base64 PEM).
    expect(output.cluster_ca_certificate.value).toMatch(/^\$\{aws_eks_cluster\.eks_cluster_\w+\.certificate_authority\[0\]\.data\}$/);
  });

  test('GIVEN an environment name WHEN synthesized THEN the cluster, roles and node group are named after it', () => {
    const app = new App({ outdir: Testing.app().outdir });
    const stack = new AwsClusterStack(app, 'x', { config: validConfig({ name: 'ws1' }, 'test') });
    const parsed: Synth = JSON.parse(Testing.synth(stack));
    expect(Object.values(parsed.resource.aws_eks_cluster)[0].name).toBe('ws1-eks');
    expect(
      Object.values(parsed.resource.aws_iam_role)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['ws1-eks-aws-lb-controller', 'ws1-eks-cluster', 'ws1-eks-nodes-node', 'ws1-eks-vpc-cni']);
  });
});
