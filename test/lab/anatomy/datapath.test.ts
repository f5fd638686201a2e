import { Testing } from 'cdktf';
import { validConfig } from '../../../lib/config/load';
import { awsDatapath, datapathEffect, gcpDatapath } from '../../../lib/lab/anatomy/datapath';
import { SynthStack } from '../../../lib/kit/terraform/terraform-json';
import { AwsClusterStack } from '../../../lib/stacks/aws-cluster-stack';
import { GcpClusterStack } from '../../../lib/stacks/gcp-cluster-stack';

function awsStack(aws: Record<string, unknown>, emulator?: { endpoint: string }): SynthStack {
  const stack = new AwsClusterStack(Testing.app(), 'lab-aws-cluster', { config: validConfig({ aws }, 'test'), emulator });
  return { name: 'lab-aws-cluster', file: 'test', json: JSON.parse(Testing.synth(stack)) };
}

function gcpStack(gcp: Record<string, unknown>): SynthStack {
  const stack = new GcpClusterStack(Testing.app(), 'lab-gcp-cluster', { config: validConfig({ gcp }, 'test') });
  return { name: 'lab-gcp-cluster', file: 'test', json: JSON.parse(Testing.synth(stack)) };
}

describe('explain: datapath from the synthesized cluster stack', () => {
  test.each([
    ['iptables', 'kube-proxy-iptables', 'kube-proxy add-on, mode iptables', 'random: iptables statistic rules give each ready endpoint the same probability'],
    ['nftables', 'kube-proxy-nftables', 'kube-proxy add-on, mode nftables', 'random: an nftables numgen map gives each ready endpoint the same probability'],
    ['ipvs', 'kube-proxy-ipvs', 'kube-proxy add-on, mode ipvs (scheduler rr)', 'IPVS scheduler rr (round robin, kept per node)'],
  ])('GIVEN EKS with %s WHEN explained THEN the add-on configuration says %s', (datapath, dataplane, implementation, selection) => {
    const explained = awsDatapath(awsStack({ datapath }));
    expect([explained.dataplane, explained.implementation, explained.backend_selection]).toEqual([dataplane, implementation, selection]);
    expect(explained.evidence[0]).toMatch(new RegExp(`^aws_eks_addon\\.kube-proxy_addon_\\w+: configuration_values \\{"mode":"${datapath}"`));
    expect(explained.notes.filter((n) => n.includes('unverified'))).toEqual(
      datapath === 'nftables' ? ['kube-proxy mode "nftables" works with the EKS kube-proxy add-on (1.33 and later) but is not in EKS\'s documentation: unverified'] : [],
    );
    expect(explained.cluster_policy_snat).toBe('with externalTrafficPolicy: Cluster, kube-proxy SNATs every request that arrives on a NodePort, even when the Pod it picks is on the receiving node');
  });

  test('GIVEN EKS with ipvs WHEN explained THEN the node user data and the deprecation are named', () => {
    const explained = awsDatapath(awsStack({ datapath: 'ipvs' }));
    expect(explained.evidence[1]).toMatch(/^aws_launch_template\.nodes_launch-template_\w+: node user data loads ip_vs, ip_vs_rr, ip_vs_wrr, ip_vs_sh, nf_conntrack \(MIME multipart shell script\)$/);
    expect(explained.notes).toEqual(["kube-proxy's IPVS mode is deprecated upstream since Kubernetes 1.35; nftables is its successor"]);
  });

  test.each([
    [undefined, 'random', 'random: an eBPF service map lookup picks any ready endpoint'],
    ['maglev', 'maglev', 'Maglev consistent hashing: every node maps the same connection to the same backend'],
  ])('GIVEN EKS with cilium and algorithm %s WHEN explained THEN the Helm values say ENI, kube-proxy replacement and %s', (algorithm, shown, selection) => {
    const explained = awsDatapath(awsStack({ datapath: 'cilium', ...(algorithm ? { cilium: { loadBalancerAlgorithm: algorithm } } : {}) }));
    expect(explained.dataplane).toBe('cilium-ebpf');
    expect(explained.implementation).toBe('Cilium 1.18.5 (ENI IPAM, eBPF kube-proxy replacement)');
    expect(explained.evidence).toEqual([
      expect.stringMatching(/^aws_eks_cluster\.eks_cluster_\w+: bootstrap_self_managed_addons = false/),
      expect.stringMatching(
        new RegExp(`^helm_release\\.cilium_release_\\w+: chart cilium 1\\.18\\.5, ipam\\.mode eni, routingMode native, kubeProxyReplacement true, loadBalancer\\.algorithm ${shown}$`),
      ),
    ]);
    expect(explained.backend_selection).toBe(selection);
    expect(explained.cluster_policy_snat).toBe(
      'with externalTrafficPolicy: Cluster, Cilium SNATs a NodePort request only when the Pod it picks is on another node; a request served on the receiving node keeps the client address',
    );
    expect(explained.notes).toEqual([
      "native-l4 under Cilium rests on masquerading being off for traffic inside the VPC in ENI mode (the VPC CIDR is Cilium's native-routing range): unverified on a running cluster",
    ]);
  });

  test('GIVEN the emulator (no add-ons) WHEN explained THEN the mode comes from the dataplane output, and it says so', () => {
    const explained = awsDatapath(awsStack({ datapath: 'nftables' }, { endpoint: 'http://127.0.0.1:5000' }));
    expect(explained.dataplane).toBe('kube-proxy-nftables');
    expect(explained.notes).toEqual([
      'the kube-proxy add-on is not in this stack (emulator mode leaves add-ons out); the mode comes from the dataplane output',
      'kube-proxy mode "nftables" works with the EKS kube-proxy add-on (1.33 and later) but is not in EKS\'s documentation: unverified',
    ]);
  });

  test.each([
    ['legacy', 'kube-proxy-iptables', 'GKE kube-proxy (iptables mode)', 'LEGACY_DATAPATH'],
    ['dataplane-v2', 'cilium-ebpf', 'GKE Dataplane V2 (Google-managed Cilium, eBPF, no kube-proxy)', 'ADVANCED_DATAPATH'],
  ])('GIVEN GKE with %s WHEN explained THEN the dataplane is %s, read from datapath_provider', (datapath, dataplane, implementation, provider) => {
    const stack = gcpStack({ datapath });
    const explained = gcpDatapath(stack);
    expect([explained.dataplane, explained.implementation]).toEqual([dataplane, implementation]);
    expect(explained.evidence).toEqual([expect.stringMatching(new RegExp(`^google_container_cluster\\.gke_cluster_\\w+: datapath_provider ${provider}$`))]);
    const outputs = stack.json.output as Record<string, { value: unknown }>;
    expect(outputs.dataplane.value).toBe(dataplane);
  });

  test('GIVEN any datapath WHEN explained THEN it says what does not change and what a small probe cannot show', () => {
    const explained = awsDatapath(awsStack({}));
    expect(explained.unchanged).toContain('ip-target (ALB/NLB) and NEG exposures: the load balancer sends to Pod IPs, so no NodePort, DNAT or SNAT is on the path');
    expect(explained.probe_limits.join('\n')).toMatch(/cannot show: latency differences between datapaths/);
    expect(explained.probe_limits.join('\n')).toMatch(/thousands of Services/);
  });
});

describe('explain: what the datapath changes per exposure', () => {
  const kubeProxy = awsDatapath(awsStack({ datapath: 'iptables' }));
  const cilium = awsDatapath(awsStack({ datapath: 'cilium' }));
  test.each([
    [
      'nodeport-l4 on kube-proxy',
      kubeProxy,
      { targets: 'nodes', external_traffic_policy: 'Cluster', client_ip_via: 'none' },
      'kube-proxy SNATs every request, even when the Pod is on the receiving node: the client address is always lost',
    ],
    [
      'nodeport-l4 on Cilium',
      cilium,
      { targets: 'nodes', external_traffic_policy: 'Cluster', client_ip_via: 'none' },
      'Cilium SNATs only when the Pod is on another node: requests served on the receiving node keep the client address',
    ],
    [
      'nodeport (L7) on Cilium',
      cilium,
      { targets: 'nodes', external_traffic_policy: 'Cluster', client_ip_via: 'x-forwarded-for' },
      'Cilium SNATs only when the Pod is on another node; the TCP peer is the proxy either way, X-Forwarded-For names the client',
    ],
    [
      'nodeport-local on Cilium',
      cilium,
      { targets: 'nodes', external_traffic_policy: 'Local', client_ip_via: 'tcp-source' },
      'unchanged: Cilium DNATs to a Pod on the receiving node (random), no SNAT',
    ],
    ['native on Cilium', cilium, { targets: 'pods', external_traffic_policy: null, client_ip_via: 'x-forwarded-for' }, 'unchanged by the datapath: the load balancer reaches Pod IPs directly'],
  ] as const)('GIVEN %s WHEN explained THEN %s', (_name, datapath, exposure, expected) => {
    expect(datapathEffect(datapath, exposure)).toBe(expected);
  });
});
