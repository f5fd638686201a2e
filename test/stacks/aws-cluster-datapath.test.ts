import { Testing } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { AwsClusterStack } from '../../lib/stacks/aws-cluster-stack';

import { resourceOf, Synthesized as Synth } from '../support/synth';

function synth(aws: Record<string, unknown>, emulator?: { endpoint: string }): Synth {
  const stack = new AwsClusterStack(Testing.app(), 'lab-aws-cluster', { config: validConfig({ aws }, 'test'), emulator });
  return JSON.parse(Testing.synth(stack)) as Synth;
}

const addons = (parsed: Synth): Record<string, Record<string, unknown>> =>
  Object.fromEntries(Object.entries(parsed.resource.aws_eks_addon ?? {}).map(([key, r]) => [r.addon_name as string, { key, ...r }]));

describe('AwsClusterStack datapaths', () => {
  test.each([
    ['iptables', '{"mode":"iptables"}', 'kube-proxy-iptables'],
    ['nftables', '{"mode":"nftables"}', 'kube-proxy-nftables'],
    ['ipvs', '{"mode":"ipvs","ipvs":{"scheduler":"rr"}}', 'kube-proxy-ipvs'],
  ])('GIVEN aws.datapath %s WHEN synthesized THEN the kube-proxy add-on gets %s and the dataplane output says %s', (datapath, values, dataplane) => {
    const parsed = synth({ datapath, kubernetesVersion: '1.34' });
    expect(Object.keys(addons(parsed)).sort()).toEqual(['coredns', 'kube-proxy', 'vpc-cni']);
    expect(addons(parsed)['kube-proxy'].configuration_values).toBe(values);
    expect(parsed.output.dataplane.value).toBe(dataplane);
    expect(resourceOf(parsed, 'aws_eks_cluster').config.bootstrap_self_managed_addons).toBeUndefined();
  });

  test('GIVEN ipvs WHEN synthesized THEN the node launch template loads the IPVS modules; the other kube-proxy modes add no user data', () => {
    const ipvs = resourceOf(synth({ datapath: 'ipvs' }), 'aws_launch_template').config;
    expect(Buffer.from(ipvs.user_data as string, 'base64').toString('utf8')).toContain('/etc/modules-load.d/ipvs.conf');
    for (const datapath of ['iptables', 'nftables']) {
      expect(resourceOf(synth({ datapath }), 'aws_launch_template').config.user_data).toBeUndefined();
    }
  });

  describe('cilium', () => {
    const parsed = synth({ datapath: 'cilium', cilium: { loadBalancerAlgorithm: 'maglev' } });

    test('GIVEN cilium WHEN synthesized THEN EKS bootstraps no add-ons of its own, and only CoreDNS is a managed add-on', () => {
      expect(resourceOf(parsed, 'aws_eks_cluster').config.bootstrap_self_managed_addons).toBe(false);
      expect(Object.keys(addons(parsed))).toEqual(['coredns']);
    });

    test('GIVEN cilium WHEN synthesized THEN there is no VPC CNI role, and the Cilium operator has its own', () => {
      const roles = Object.values(parsed.resource.aws_iam_role)
        .map((r) => r.name)
        .sort();
      expect(roles).toEqual(['lab-eks-aws-lb-controller', 'lab-eks-cilium-operator', 'lab-eks-cluster', 'lab-eks-nodes-node']);
    });

    test('GIVEN cilium WHEN synthesized THEN the order is cluster -> Cilium release -> tainted node group -> CoreDNS', () => {
      const { name: releaseKey, config: release } = resourceOf(parsed, 'helm_release');
      const { name: groupKey, config: group } = resourceOf(parsed, 'aws_eks_node_group');
      expect(release.provider).toBe('helm.cilium');
      expect(group.depends_on).toContain(`helm_release.${releaseKey}`);
      expect(group.taint).toEqual([{ key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NO_EXECUTE' }]);
      expect(addons(parsed).coredns.depends_on).toEqual([`aws_eks_node_group.${groupKey}`]);
      expect(JSON.stringify(parsed.provider.helm)).toContain('aws_eks_cluster.eks_cluster_');
    });

    test('GIVEN cilium and a cluster admin WHEN synthesized THEN the release comes after the operator role, its policy attachment and every access entry and association Terraform uses (and goes before them)', () => {
      const withAdmin = synth({ datapath: 'cilium', clusterAdminArns: ['arn:aws:iam::123456789012:role/workshop-ci'] });
      const addresses = (type: string) => Object.keys(withAdmin.resource[type]).map((name) => `${type}.${name}`);
      const release = resourceOf(withAdmin, 'helm_release').config;
      const operatorRole = resourceOf(withAdmin, 'aws_iam_role', 'cilium-operator').address;
      const operatorPolicy = resourceOf(withAdmin, 'aws_iam_role_policy_attachment', 'cilium-operator-role_policy-eni').address;
      const operatorFence = resourceOf(withAdmin, 'aws_iam_role_policy_attachment', 'cilium-operator-role_policy-fence').address;
      expect(addresses('aws_eks_access_entry')).toHaveLength(2);
      expect(addresses('aws_eks_access_policy_association')).toHaveLength(2);
      expect([...release.depends_on].sort()).toEqual([operatorRole, operatorPolicy, operatorFence, ...addresses('aws_eks_access_entry'), ...addresses('aws_eks_access_policy_association')].sort());
    });

    test('GIVEN cilium with maglev WHEN synthesized THEN the release selects backends by Maglev and the dataplane output says cilium-ebpf', () => {
      expect(resourceOf(parsed, 'helm_release').config.values).toEqual([expect.stringContaining('loadBalancer:\n  algorithm: "maglev"')]);
      expect(parsed.output.dataplane.value).toBe('cilium-ebpf');
      expect(parsed.output.pod_networking.value).toBe('cilium-eni: Pods get ENI secondary IPs from the private subnets (the Cilium operator attaches the ENIs)');
    });

    test.each([
      [{ hubble: true }, 'hubble:\n  enabled: true\n  relay:\n    enabled: true\n  ui:\n    enabled: true'],
      [{ loadBalancerAlgorithm: 'maglev' }, undefined],
    ])('GIVEN aws.cilium %j WHEN synthesized THEN the release values carry Hubble relay and UI only when asked', (cilium, hubble) => {
      const values = (resourceOf(synth({ datapath: 'cilium', cilium }), 'helm_release').config.values as string[])[0];
      if (hubble === undefined) expect(values).not.toContain('hubble');
      else expect(values).toContain(hubble);
    });

    test('GIVEN cilium and the emulator WHEN constructed THEN it is refused with the reason and the modes that can run there', () => {
      expect(() => synth({ datapath: 'cilium' }, { endpoint: 'http://127.0.0.1:5000' })).toThrow(
        'aws.datapath "cilium" cannot run against the emulator: it installs Cilium with the helm provider, which is not installed offline, into a cluster moto does not run; use "iptables", "nftables" or "ipvs" for `npm run local`',
      );
    });
  });

  test('GIVEN ipvs and the emulator WHEN synthesized THEN add-ons are left out but the launch template still carries the IPVS user data', () => {
    const parsed = synth({ datapath: 'ipvs' }, { endpoint: 'http://127.0.0.1:5000' });
    expect(parsed.resource.aws_eks_addon).toBeUndefined();
    expect(Buffer.from(resourceOf(parsed, 'aws_launch_template').config.user_data as string, 'base64').toString('utf8')).toContain('modprobe');
  });
});
