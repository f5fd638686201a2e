import { Testing } from 'cdktf';
import { EKS_EXEC_API_VERSION, EksProviders } from '../../../lib/constructs/aws/eks-providers';

describe('EksProviders', () => {
  // GIVEN the providers of a stack that installs into an EKS cluster
  const synthesized = JSON.parse(
    Testing.synthScope((scope) => {
      new EksProviders(scope, 'providers', {
        clusterName: 'lab-eks',
        endpoint: 'https://ABC.gr7.us-east-1.eks.amazonaws.com',
        certificateAuthorityData: 'Q0EgZGF0YQ==',
        region: 'us-east-1',
      });
    }),
  );
  const expectedExec = {
    api_version: EKS_EXEC_API_VERSION,
    command: 'aws',
    args: ['eks', 'get-token', '--cluster-name', 'lab-eks', '--region', 'us-east-1', '--output', 'json'],
  };

  test('THEN the kubernetes provider signs a fresh token with `aws eks get-token` on every run', () => {
    expect(synthesized.provider.kubernetes).toEqual([
      {
        host: 'https://ABC.gr7.us-east-1.eks.amazonaws.com',
        cluster_ca_certificate: '${base64decode("Q0EgZGF0YQ==")}',
        exec: [expectedExec],
      },
    ]);
  });

  test('THEN the helm provider (v3 syntax: `kubernetes` and `exec` are objects) uses the same cluster and credential', () => {
    expect(synthesized.provider.helm).toEqual([
      {
        kubernetes: {
          host: 'https://ABC.gr7.us-east-1.eks.amazonaws.com',
          cluster_ca_certificate: '${base64decode("Q0EgZGF0YQ==")}',
          exec: expectedExec,
        },
      },
    ]);
  });

  test('THEN no static token, kubeconfig or token data source is configured', () => {
    const text = JSON.stringify(synthesized);
    for (const field of ['"token"', 'config_path', 'client_key', 'password', 'aws_eks_cluster_auth']) {
      expect(text).not.toContain(field);
    }
  });
});
