import { validConfig } from '../../../lib/config/load';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { renderExplainTable } from '../../../lib/commands/explain/render-explain';

test('explainLab explains the AWS side of the lab from its config, as npm run local shows it', () => {
  const model = explainLab(validConfig({ name: 'demo' }, 'test'), { envs: ['demo'], clouds: ['aws'] });
  expect(model.environments.map((e) => e.env)).toEqual(['demo']);
  const [aws] = model.environments[0].clouds;
  expect(aws).toMatchObject({ cloud: 'aws', cluster_stack: 'demo-aws-cluster', cluster_synthesized: true });
  expect(aws.exposures.map((e) => [e.mode, e.expected_hops, e.source_nat, e.client_ip_via])).toEqual([
    ['native', 1, false, 'x-forwarded-for'],
    ['gateway', 1, false, 'x-forwarded-for'],
    ['nodeport', 2, true, 'x-forwarded-for'],
    ['nodeport-l4', 2, true, 'none'],
    ['nodeport-local', 1, false, 'tcp-source'],
    ['native-l4', 1, false, 'tcp-source'],
  ]);
  expect(aws.capacity?.max_pods_per_node).toBe(17);
  expect(renderExplainTable(model)).toContain('== environment "demo" ==');
});
