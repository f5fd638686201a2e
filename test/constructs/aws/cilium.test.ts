import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { Release } from '@cdktf/provider-helm/lib/release';
import { Testing } from 'cdktf';
import { parse } from 'yaml';
import { Cilium, CILIUM_CHART_VERSION, CiliumProps } from '../../../lib/constructs/aws/cilium';

const PROPS: CiliumProps = {
  clusterName: 'lab-eks',
  region: 'us-east-1',
  endpoint: 'https://ABC.gr7.us-east-1.eks.amazonaws.com',
  certificateAuthorityData: 'Q0E=',
  operatorRoleArn: 'arn:aws:iam::1:role/lab-eks-cilium-operator',
};

function synth(props: Partial<CiliumProps> = {}) {
  const json = Testing.synthScope((scope) => {
    new Cilium(scope, 'cilium', { ...PROPS, ...props });
  });
  const parsed = JSON.parse(json) as { resource: { helm_release: Record<string, Record<string, unknown>> } };
  const release = Object.values(parsed.resource.helm_release)[0];
  return { json, release, values: parse((release.values as string[])[0]) as Record<string, unknown> };
}

describe('Cilium', () => {
  test('GIVEN a cluster WHEN synthesized THEN the pinned chart is installed into kube-system without waiting for Pods (no nodes exist yet)', () => {
    expect(synth().json).toHaveResourceWithProperties(Release, {
      name: 'cilium',
      repository: 'https://helm.cilium.io/',
      chart: 'cilium',
      version: CILIUM_CHART_VERSION,
      namespace: 'kube-system',
      wait: false,
    });
    expect(CILIUM_CHART_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('GIVEN a cluster WHEN synthesized THEN Cilium runs in ENI mode with native routing and replaces kube-proxy, reaching the API server at the endpoint host', () => {
    const { values } = synth();
    expect(values).toMatchObject({
      cluster: { name: 'lab-eks' },
      eni: { enabled: true },
      ipam: { mode: 'eni' },
      routingMode: 'native',
      kubeProxyReplacement: true,
      k8sServicePort: 443,
    });
    expect(synth().release.set).toEqual([{ name: 'k8sServiceHost', value: '${replace("https://ABC.gr7.us-east-1.eks.amazonaws.com", "https://", "")}' }]);
  });

  test('GIVEN the operator role WHEN synthesized THEN the operator service account carries it (IRSA)', () => {
    expect(synth().values.serviceAccounts).toEqual({
      operator: { name: 'cilium-operator', annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/lab-eks-cilium-operator' } },
    });
  });

  test.each([
    [undefined, 'random'],
    ['random', 'random'],
    ['maglev', 'maglev'],
  ] as const)('GIVEN loadBalancerAlgorithm %s WHEN synthesized THEN loadBalancer.algorithm is %s', (algorithm, expected) => {
    expect(synth({ loadBalancerAlgorithm: algorithm }).values.loadBalancer).toEqual({ algorithm: expected });
  });

  test('GIVEN a cluster WHEN synthesized THEN the release uses its own helm provider, authenticated by aws eks get-token', () => {
    const { json, release } = synth();
    expect(release.provider).toBe('helm.cilium');
    expect(json).toHaveProviderWithProperties(HelmProvider, {
      alias: 'cilium',
      kubernetes: {
        host: 'https://ABC.gr7.us-east-1.eks.amazonaws.com',
        cluster_ca_certificate: '${base64decode("Q0E=")}',
        exec: { api_version: 'client.authentication.k8s.io/v1beta1', command: 'aws', args: ['eks', 'get-token', '--cluster-name', 'lab-eks', '--region', 'us-east-1', '--output', 'json'] },
      },
    });
  });

  test('GIVEN a cluster WHEN synthesized THEN DSR is not turned on (out of scope: undocumented behind AWS load balancers)', () => {
    const { values } = synth();
    expect(JSON.stringify(values)).not.toMatch(/dsr/i);
  });

  test.each([undefined, false])('GIVEN hubble %s WHEN synthesized THEN no hubble values are set (the chart default: Hubble in the agent, no relay or UI)', (hubble) => {
    expect(synth({ hubble }).values.hubble).toBeUndefined();
  });

  test('GIVEN hubble WHEN synthesized THEN Hubble, its relay and its UI are enabled, with the chart pinned images (no image values)', () => {
    expect(synth({ hubble: true }).values.hubble).toEqual({ enabled: true, relay: { enabled: true }, ui: { enabled: true } });
  });
});
