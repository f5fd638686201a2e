import { validConfig } from '../../lib/config/load';
import { explainLab } from '../../lib/explain/explain-lab';
import { renderExplainTable } from '../../lib/explain/render-explain';

test('explainLab explains the AWS side of the lab from its config, as npm run local shows it', () => {
  const model = explainLab(validConfig({ name: 'demo' }, 'test'), { env: 'demo', clouds: ['aws'] });
  expect(model.environments.map((e) => e.env)).toEqual(['demo']);
  const [aws] = model.environments[0].clouds;
  expect(aws).toMatchObject({ cloud: 'aws', cluster_stack: 'demo-aws-cluster', cluster_synthesized: true });
  expect(aws.exposures.map((e) => [e.mode, e.expected_hops, e.snat])).toEqual([
    ['native', 1, false],
    ['nodeport', 2, true],
    ['nodeport-local', 1, false],
  ]);
  expect(aws.capacity?.max_pods_per_node).toBe(17);
  expect(renderExplainTable(model)).toContain('== environment "demo" ==');
});
