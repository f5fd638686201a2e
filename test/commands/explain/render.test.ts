import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { diagramFileName, mermaidDiagram, writeDiagrams } from '../../../lib/commands/explain/mermaid';
import { renderExplain, renderExplainJson, renderExplainMarkdown, renderExplainTable } from '../../../lib/commands/explain/render-explain';
import { textTable } from '../../../lib/kit/terminal/text-table';
import { FIXTURE_APP, fixtureCopy, removeTempDirs } from '../../lab/anatomy/support';

afterAll(removeTempDirs);

const model = explainDir(FIXTURE_APP);
const exposure = (cloud: 'aws' | 'gcp', mode: string) => model.environments[0].clouds.find((c) => c.cloud === cloud)!.exposures.find((e) => e.mode === mode)!;

describe('text tables', () => {
  test('every line of a table has the same width, within the width asked for', () => {
    const table = textTable(['', 'a', 'b'], [['row', 'some long text that wraps over lines', 'x']], { width: 50 });
    const widths = new Set(table.split('\n').map((l) => l.length));
    expect(widths.size).toBe(1);
    expect([...widths][0]).toBeLessThanOrEqual(50);
  });
});

describe('renderExplainTable --details', () => {
  const table = renderExplainTable(model, { width: 120, details: true });

  test('shows every fact of each exposure of each cloud, the Pod capacity and the datapath', () => {
    expect(table).toContain('-- AWS (EKS): kube-proxy-iptables; 17 Pods per node on 3 x t3.medium; stacks lab-aws-cluster, lab-aws-lb --');
    expect(table).toMatch(/^ {2}client IP at the Pod {10}kept \(X-Forwarded-For\):/m);
    expect(table).toContain('kept (TCP source):');
    expect(table).not.toContain('LOST');
    expect(table).toContain('Pod capacity: 17 Pods per node (VPC CNI on t3.medium: 3 ENIs x (6 IPv4 per ENI - 1) + 2)');
    expect(table).toContain('per-node alias range /24; addresses for at most 256 nodes');
    expect(Math.max(...table.split('\n').map((l) => l.length))).toBeLessThanOrEqual(120);
  });

  test('is stable (regression guard)', () => {
    expect(table).toMatchSnapshot();
  });

  test('GIVEN only the AWS cluster stack THEN it says the -lb stack was not synthesized', () => {
    const summary = renderExplainTable(explainDir(fixtureCopy(['lab-aws-cluster'])), { width: 200 });
    expect(summary).toContain('-- AWS (EKS): kube-proxy-iptables; 17 Pods per node on 3 x t3.medium; stacks lab-aws-cluster, lab-aws-lb (not synthesized) --');
    expect(summary).toContain('no exposures: lab-aws-lb was not synthesized');
    const details = renderExplainTable(explainDir(fixtureCopy(['lab-aws-cluster'])), { width: 120, details: true });
    expect(details).toContain('note: lab-aws-lb was not synthesized');
    expect(details).toContain('Pod capacity: 17 Pods per node');
  });
});

describe('renderExplainMarkdown and JSON', () => {
  test('Markdown has a table per cloud with the modes as columns', () => {
    const markdown = renderExplainMarkdown(model);
    expect(markdown).toContain('|  | `native` | `nodeport` | `nodeport-local` |');
    expect(markdown).toContain('### GCP (GKE)');
    expect(markdown).toMatchSnapshot();
  });

  test("JSON is the model but each exposure's plan (the journey's addresses), with its schema tag", () => {
    const withoutPlans = {
      ...model,
      environments: model.environments.map((env) => ({ ...env, clouds: env.clouds.map((c) => ({ ...c, exposures: c.exposures.map((x) => ({ ...x, plan: undefined })) })) })),
    };
    expect(model.environments[0].clouds[0].exposures[0].plan).toBeDefined();
    expect(JSON.parse(renderExplainJson(model))).toEqual(JSON.parse(JSON.stringify(withoutPlans)));
    expect(renderExplainJson(model)).not.toContain('"plan"');
    expect(JSON.parse(renderExplain(model, 'json')).schema).toBe('hoplab.explain/v1');
  });
});

describe('Mermaid diagrams', () => {
  test('the nodeport path marks the SNAT hop: thick red link and a red node', () => {
    const text = mermaidDiagram('lab', 'aws', exposure('aws', 'nodeport'));
    expect(text).toContain('flowchart LR');
    expect(text).toContain('  s2 ==>|"SNAT here: kube-proxy-iptables: DNAT to any ready Pod + SNAT to the node address"| s3');
    expect(text).toContain('  class s2 snat');
    expect(text).toContain('  linkStyle 2 stroke:#c0392b,stroke-width:3px');
    expect(text).toContain('  subgraph cluster["EKS cluster (lab)"]');
    expect(text).toMatchSnapshot();
  });

  test.each([
    ['aws', 'native'],
    ['aws', 'nodeport-local'],
    ['gcp', 'native'],
    ['gcp', 'nodeport-local'],
  ] as const)('%s %s has no SNAT hop', (cloud, mode) => {
    const text = mermaidDiagram('lab', cloud, exposure(cloud, mode));
    expect(text).not.toContain('==>');
    expect(text).not.toContain('class s');
  });

  test('writeDiagrams writes one file per environment, cloud and exposure', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hoplab-diagrams-')), 'diagrams');
    const written = writeDiagrams(model, out);
    expect(readdirSync(out).sort()).toEqual([
      'lab-aws-matrix.mmd',
      'lab-aws-native.mmd',
      'lab-aws-nodeport-local.mmd',
      'lab-aws-nodeport.mmd',
      'lab-gcp-matrix.mmd',
      'lab-gcp-native.mmd',
      'lab-gcp-nodeport-local.mmd',
      'lab-gcp-nodeport.mmd',
    ]);
    expect(written.every((file) => existsSync(file))).toBe(true);
    expect(readFileSync(join(out, diagramFileName('lab', 'gcp', 'nodeport')), 'utf8')).toContain('GKE cluster (lab)');
  });
});
