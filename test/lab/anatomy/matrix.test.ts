/**
 * The comparison matrix over the real app: which exposures differ in exactly
 * one variable, derived from the synthesized resources. Altering a resource
 * (traffic policy, target type) changes the matrix.
 */
import { App } from 'cdktf';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { Cloud } from '../../../lib/model/contract';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { mermaidMatrix } from '../../../lib/commands/explain/mermaid';
import { ExplainModel, ExposureExplanation } from '../../../lib/lab/anatomy/model';
import { renderExplainJson, renderExplainMarkdown } from '../../../lib/commands/explain/render-explain';
import { addLab } from '../../../lib/stacks/hoplab-app';
import { alterStack } from './support';

const dirs: string[] = [];
function synthLab(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-matrix-'));
  dirs.push(dir);
  const app = new App({ outdir: dir });
  addLab(app, validConfig({}, 'test'));
  app.synth();
  return dir;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const exposuresOf = (model: ExplainModel, cloud: Cloud) => model.environments[0].clouds.find((c) => c.cloud === cloud)!.exposures;
const pairs = (exposures: readonly ExposureExplanation[]) => Object.fromEntries(exposures.map((e) => [e.mode, e.differs_in_one.map((n) => `${n.mode}: ${n.variable}`)]));
/** The resource of `type` whose metadata name is `name`, in a parsed cdk.tf.json. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const byName = (json: any, type: string, name: string) => Object.values(json.resource[type] as Record<string, any>).find((r) => r.metadata.name === name);

describe('GIVEN the default lab', () => {
  const dir = synthLab();
  const model = explainDir(dir);

  test('THEN on EKS every neighbouring pair of the docs differs in exactly the one variable it names, and nodeport-local / native-l4 (targets and traffic policy) is no pair', () => {
    expect(pairs(exposuresOf(model, 'aws'))).toEqual({
      native: ['gateway: api', 'nodeport: targets', 'native-l4: layer'],
      gateway: ['native: api'],
      nodeport: ['native: targets', 'nodeport-l4: layer'],
      'nodeport-l4': ['nodeport: layer', 'nodeport-local: traffic policy', 'native-l4: targets'],
      'nodeport-local': ['nodeport-l4: traffic policy'],
      'native-l4': ['native: layer', 'nodeport-l4: targets'],
    });
  });

  test('THEN on GKE the same pairs, without native-l4, which explain says is not offered and why', () => {
    expect(pairs(exposuresOf(model, 'gcp'))).toEqual({
      native: ['gateway: api', 'nodeport: targets'],
      gateway: ['native: api'],
      nodeport: ['native: targets', 'nodeport-l4: layer'],
      'nodeport-l4': ['nodeport: layer', 'nodeport-local: traffic policy'],
      'nodeport-local': ['nodeport-l4: traffic policy'],
    });
    const gcp = model.environments[0].clouds.find((c) => c.cloud === 'gcp')!;
    expect(gcp.not_offered).toEqual([{ mode: 'native-l4', reason: expect.stringContaining('only target nodes') }]);
  });

  test('THEN each neighbour names both values, e.g. nodeport-l4 vs nodeport-local: ETP Cluster vs ETP Local', () => {
    const l4 = exposuresOf(model, 'aws').find((e) => e.mode === 'nodeport-l4')!;
    expect(l4.differs_in_one).toContainEqual({ mode: 'nodeport-local', variable: 'traffic policy', this: 'ETP Cluster', other: 'ETP Local' });
    expect(l4.variables).toEqual({ layer: 'L4', api: 'core API', targets: 'nodes', traffic_policy: 'Cluster' });
  });

  test('THEN --format json carries source_nat, client_ip_via and expected_hops for every exposure', () => {
    const json = JSON.parse(renderExplainJson(model));
    const facts = json.environments[0].clouds.flatMap((c: { exposures: ExposureExplanation[] }) => c.exposures.map((e) => [e.mode, e.source_nat, e.client_ip_via, e.expected_hops]));
    expect(facts).toEqual([
      ['native', false, 'x-forwarded-for', 1],
      ['gateway', false, 'x-forwarded-for', 1],
      ['nodeport', true, 'x-forwarded-for', 2],
      ['nodeport-l4', true, 'none', 2],
      ['nodeport-local', false, 'tcp-source', 1],
      ['native-l4', false, 'tcp-source', 1],
      ['native', false, 'x-forwarded-for', 1],
      ['gateway', false, 'x-forwarded-for', 1],
      ['nodeport', true, 'x-forwarded-for', 2],
      ['nodeport-l4', true, 'none', 2],
      ['nodeport-local', false, 'tcp-source', 1],
    ]);
  });

  test('THEN the Markdown shows the matrix, and the Mermaid matrix has one edge per pair', () => {
    const markdown = renderExplainMarkdown(model);
    expect(markdown).toContain('Pairs that differ in exactly one variable (row vs column):');
    expect(markdown).toContain('| `nodeport-l4` |  |  | layer | - | traffic policy | targets |');
    expect(markdown).toContain('not offered: native-l4: GKE passthrough');
    const aws = model.environments[0].clouds[0];
    const mermaid = mermaidMatrix('lab', 'aws', aws.exposures, aws.not_offered);
    expect(mermaid.match(/---\|/g)).toHaveLength(6);
    expect(mermaid).toContain('m3 ---|"traffic policy"| m4');
    const gcp = model.environments[0].clouds[1];
    expect(mermaidMatrix('lab', 'gcp', gcp.exposures, gcp.not_offered)).toContain('x0["native-l4: not offered on GKE"]');
  });
});

describe('GIVEN a synthesized stack altered by hand THEN the matrix follows the resources, not the mode names', () => {
  test('WHEN nodeport-l4 is switched to externalTrafficPolicy Local THEN it no longer differs from nodeport-local at all, nor in one variable from native-l4 (targets and traffic policy), and its facts change', () => {
    const dir = synthLab();
    alterStack(dir, 'lab-aws-lb', (json) => {
      byName(json, 'kubernetes_service_v1', 'echo-nodeport-l4').spec.external_traffic_policy = 'Local';
    });
    const l4 = exposuresOf(explainDir(dir), 'aws').find((e) => e.mode === 'nodeport-l4')!;
    expect([l4.source_nat, l4.client_ip_via, l4.expected_hops]).toEqual([false, 'tcp-source', 1]);
    expect(l4.differs_in_one).toEqual([]);
  });

  test("WHEN native-l4 is switched to instance targets THEN it becomes a NodePort L4 exposure one variable from native-l4's old neighbours", () => {
    const dir = synthLab();
    alterStack(dir, 'lab-aws-lb', (json) => {
      byName(json, 'kubernetes_service_v1', 'echo-native-l4').metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-nlb-target-type'] = 'instance';
    });
    const e = exposuresOf(explainDir(dir), 'aws').find((x) => x.mode === 'native-l4')!;
    expect([e.targets, e.source_nat, e.client_ip_via, e.expected_hops]).toEqual(['nodes', true, 'none', 2]);
    // Now the same as nodeport-l4 in every variable: no longer its one-variable neighbour.
    expect(e.differs_in_one.map((n) => `${n.mode}: ${n.variable}`)).toEqual(['nodeport: layer', 'nodeport-local: traffic policy']);
  });

  test("WHEN the Gateway's TargetGroupConfiguration asks for instance targets THEN the ALB Gateway targets nodes, and is one variable (the API) from nodeport instead of native", () => {
    const dir = synthLab();
    alterStack(dir, 'lab-aws-lb', (json) => {
      const release = Object.entries(json.resource.helm_release as Record<string, { values?: string[] }>).find(([key]) => key.startsWith('exposure-gateway'))![1];
      release.values = [release.values![0].replace(/targetType: "ip"/, 'targetType: "instance"')];
    });
    const e = exposuresOf(explainDir(dir), 'aws').find((x) => x.mode === 'gateway')!;
    expect([e.targets, e.target_type]).toEqual(['nodes', 'instance']);
    expect(e.differs_in_one.map((n) => `${n.mode}: ${n.variable}`)).toEqual(['nodeport: api']);
    expect(e.notes.join(' ')).toContain('instance targets need a NodePort Service');
  });
});
