/**
 * The minimal EKS read behind the check before the AWS Load Balancer
 * Controller is uninstalled: the token from `aws eks get-token` (a stand-in
 * `aws` first on the PATH) and the lists over HTTPS from a loopback cluster API
 * trusted through its CA only.
 */
import { eksToken, httpsKubernetesLists } from '../../../lib/commands/lifecycle/eks-kubernetes';
import { fakeTerraformOnPath } from '../../support/fake-terraform';
import { FIXTURE_TOKEN, KubernetesApi, LOOPBACK_CA, OTHER_CA, serveKubernetesApi } from '../../support/google-api';

let kubernetes: KubernetesApi | undefined;
afterEach(async () => {
  await kubernetes?.close();
  kubernetes = undefined;
});

describe('eksToken', () => {
  test('GIVEN the AWS CLI WHEN a token is asked for THEN it runs aws eks get-token for the cluster, region and role, and returns the ExecCredential’s token', async () => {
    const fake = fakeTerraformOnPath(
      'hoplab-aws-cli-',
      `#!/bin/sh\necho "{\\"kind\\":\\"ExecCredential\\",\\"apiVersion\\":\\"client.authentication.k8s.io/v1beta1\\",\\"spec\\":{},\\"status\\":{\\"expirationTimestamp\\":\\"2026-12-07T06:14:00Z\\",\\"token\\":\\"k8s-aws-v1.$*\\"}}"\n`,
      'aws',
    );
    try {
      const token = await eksToken({ clusterName: 'lab-eks', region: 'eu-west-1', roleArn: 'arn:aws:iam::123456789012:role/hoplab', awsCli: `${fake.dir}/aws` });
      expect(token).toBe('k8s-aws-v1.eks get-token --cluster-name lab-eks --region eu-west-1 --role-arn arn:aws:iam::123456789012:role/hoplab --output json');
    } finally {
      fake.restore();
    }
  });

  test('GIVEN an AWS CLI that fails WHEN a token is asked for THEN the error is its last line', async () => {
    const fake = fakeTerraformOnPath('hoplab-aws-cli-', '#!/bin/sh\necho "Unable to locate credentials. You can configure credentials by running \\"aws configure\\"." >&2\nexit 255\n', 'aws');
    try {
      await expect(eksToken({ clusterName: 'lab-eks', region: 'eu-west-1', awsCli: `${fake.dir}/aws` })).rejects.toThrow(
        /eks get-token failed: Unable to locate credentials\. You can configure credentials by running "aws configure"\.$/,
      );
    } finally {
      fake.restore();
    }
  });
});

describe('httpsKubernetesLists', () => {
  test('GIVEN a cluster API WHEN a served kind and a kind it does not serve are listed THEN the items, and absent', async () => {
    const items = [{ kind: 'Service', metadata: { name: 'api', namespace: 'team-b' }, spec: { type: 'LoadBalancer' } }];
    kubernetes = await serveKubernetesApi(() => 'absent', { '/api/v1/services': items });
    const lists = httpsKubernetesLists(kubernetes.base, LOOPBACK_CA, FIXTURE_TOKEN, 5000);
    expect(await lists.list('/api/v1/services')).toEqual(items);
    expect(await lists.list('/apis/gateway.networking.k8s.io/v1/gateways')).toBe('absent');
    expect(kubernetes.requests.map((r) => r.authorization)).toEqual([`Bearer ${FIXTURE_TOKEN}`, `Bearer ${FIXTURE_TOKEN}`]);
  });

  test('GIVEN a server the cluster’s CA did not sign, or a refused token WHEN listed THEN it rejects', async () => {
    kubernetes = await serveKubernetesApi(() => 'absent', { '/api/v1/services': [] });
    await expect(httpsKubernetesLists(kubernetes.base, OTHER_CA, FIXTURE_TOKEN, 5000).list('/api/v1/services')).rejects.toThrow(
      /^GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/services failed: .*(certificate|self.signed)/,
    );
    await expect(httpsKubernetesLists(kubernetes.base, LOOPBACK_CA, 'wrong', 5000).list('/api/v1/services')).rejects.toThrow(/answered 401/);
  });
});
