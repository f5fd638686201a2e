/**
 * The minimal EKS read behind the check before the AWS Load Balancer
 * Controller is uninstalled: the lists over HTTPS from a loopback cluster API
 * trusted through its CA only. (Its token is the shared EKS token's, held to
 * the AWS CLI's byte for byte in test/kit/aws/eks-token.test.ts.)
 */
import { httpsKubernetesLists } from '../../../lib/commands/lifecycle/eks-kubernetes';
import { FIXTURE_TOKEN } from '../../support/google-api';
import { KubernetesApi, LOOPBACK_CA, OTHER_CA, serveCrds } from '../../support/kubernetes-api';

let kubernetes: KubernetesApi | undefined;
afterEach(async () => {
  await kubernetes?.close();
  kubernetes = undefined;
});

describe('httpsKubernetesLists', () => {
  test('GIVEN a cluster API WHEN a served kind and a kind it does not serve are listed THEN the items, and absent', async () => {
    const items = [{ kind: 'Service', metadata: { name: 'api', namespace: 'team-b' }, spec: { type: 'LoadBalancer' } }];
    kubernetes = await serveCrds(() => 'absent', { '/api/v1/services': items });
    const lists = httpsKubernetesLists(kubernetes.base, LOOPBACK_CA, FIXTURE_TOKEN, 5000);
    expect(await lists.list('/api/v1/services')).toEqual(items);
    expect(await lists.list('/apis/gateway.networking.k8s.io/v1/gateways')).toBe('absent');
    expect(kubernetes.requests.map((r) => r.authorization)).toEqual([`Bearer ${FIXTURE_TOKEN}`, `Bearer ${FIXTURE_TOKEN}`]);
  });

  test('GIVEN a server the cluster’s CA did not sign, or a refused token WHEN listed THEN it rejects', async () => {
    kubernetes = await serveCrds(() => 'absent', { '/api/v1/services': [] });
    await expect(httpsKubernetesLists(kubernetes.base, OTHER_CA, FIXTURE_TOKEN, 5000).list('/api/v1/services')).rejects.toThrow(
      /^GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/services failed: .*(certificate|self.signed)/,
    );
    await expect(httpsKubernetesLists(kubernetes.base, LOOPBACK_CA, 'wrong', 5000).list('/api/v1/services')).rejects.toThrow(/answered 401/);
  });
});
