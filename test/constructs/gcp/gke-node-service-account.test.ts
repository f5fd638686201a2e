import { ProjectIamMember } from '@cdktf/provider-google/lib/project-iam-member';
import { ServiceAccount } from '@cdktf/provider-google/lib/service-account';
import { Testing } from 'cdktf';
import { validConfig } from '../../../lib/config/load';
import { GkeNodeServiceAccount } from '../../../lib/constructs/gcp/gke-node-service-account';
import { GcpClusterStack } from '../../../lib/stacks/gcp-cluster-stack';

describe('GkeNodeServiceAccount', () => {
  test('GIVEN a project WHEN synthesized THEN a dedicated account gets only the GKE default node role', () => {
    const json = Testing.synthScope((scope) => {
      new GkeNodeServiceAccount(scope, 'sa', { project: 'acme-lab-1', accountId: 'lab-gke-nodes' });
    });
    expect(json).toHaveResourceWithProperties(ServiceAccount, { project: 'acme-lab-1', account_id: 'lab-gke-nodes', display_name: 'hoplab GKE nodes (lab-gke-nodes)' });
    expect(json).toHaveResourceWithProperties(ProjectIamMember, {
      project: 'acme-lab-1',
      role: 'roles/container.defaultNodeServiceAccount',
      member: expect.stringMatching(/^\$\{google_service_account\.[\w-]+\.member\}$/),
    });
    expect(Object.keys(JSON.parse(json).resource.google_project_iam_member)).toHaveLength(1);
  });

  test.each(['lab', 'Lab-gke-nodes', 'a-very-long-account-id-beyond-30'])('GIVEN account id %p WHEN constructed THEN it throws naming the id and the rule', (accountId) => {
    expect(() => Testing.synthScope((scope) => new GkeNodeServiceAccount(scope, 'sa', { project: 'p-123456', accountId }))).toThrow(
      `GkeNodeServiceAccount sa: accountId "${accountId}" is not a service account ID; use 6 to 30 lowercase letters, digits and hyphens, starting with a letter`,
    );
  });

  test.each(['a', 'abcdefghijklmnopqrst'])(
    'GIVEN environment %p (shortest and longest) WHEN the cluster stack is synthesized THEN the node pool runs as <env>-gke-nodes, never the Compute Engine default account',
    (name) => {
      const stack = new GcpClusterStack(Testing.app(), 'x', { config: validConfig({ name }, 'test') });
      const parsed = JSON.parse(Testing.synth(stack));
      const [saId, sa] = Object.entries(parsed.resource.google_service_account)[0] as [string, { account_id: string }];
      expect(sa.account_id).toBe(`${name}-gke-nodes`);
      const pool = Object.values(parsed.resource.google_container_node_pool)[0] as { node_config: { service_account: string } };
      expect(pool.node_config.service_account).toBe(`\${google_service_account.${saId}.email}`);
      // The default pool GKE creates (and hoplab removes) runs as it too: no need for the Compute Engine default account.
      const cluster = Object.values(parsed.resource.google_container_cluster)[0] as { node_config: { service_account: string } };
      expect(cluster.node_config.service_account).toBe(`\${google_service_account.${saId}.email}`);
    },
  );
});
