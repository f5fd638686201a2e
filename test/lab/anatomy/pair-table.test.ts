/**
 * The one-variable pairs come from one source (matrix.ts over what explain
 * derived): explain's matrix, explain's Markdown pair table and the table in
 * docs/exposures.md. A pair differs in exactly one variable, every other one
 * known and equal; no listed pair differs in two.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { renderExplainJson, renderExplainMarkdown, renderExplainTable } from '../../../lib/commands/explain/render-explain';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { differences, matrixVariables, oneVariableNeighbours, oneVariablePairs } from '../../../lib/lab/anatomy/matrix';
import { ExposureExplanation, MatrixVariables } from '../../../lib/lab/anatomy/model';
import { defaultLabPairBlock, EXPOSURES_DOC, pairTableMarkdown, PAIRS_BEGIN, PAIRS_END, withPairBlock } from '../../../lib/lab/anatomy/pair-table';

const ROOT = join(__dirname, '..', '..', '..');
const model = explainLab(validConfig({}, 'the default lab'));
const env = model.environments[0];

/** How many variables of `a` and `b` are not known to be equal, counted here apart from matrix.ts. */
function unequal(a: MatrixVariables, b: MatrixVariables): number {
  return (['layer', 'api', 'targets', 'traffic_policy'] as const).filter((k) => a[k] === null || b[k] === null || a[k] !== b[k]).length;
}

/** An exposure with only what the matrix reads. */
const exposure = (mode: string, variables: MatrixVariables | null) => ({ mode, variables } as ExposureExplanation);

describe('the pair table of docs/exposures.md', () => {
  test(`GIVEN the default lab WHEN its pair table is generated THEN ${EXPOSURES_DOC} holds exactly it (run \`npm run docs\` after changing the exposures)`, () => {
    const doc = readFileSync(join(ROOT, EXPOSURES_DOC), 'utf8');
    const block = doc.slice(doc.indexOf(PAIRS_BEGIN), doc.indexOf(PAIRS_END) + PAIRS_END.length);
    expect(block).toBe(defaultLabPairBlock());
    expect(withPairBlock(doc, defaultLabPairBlock())).toBe(doc);
  });

  test('GIVEN the default lab THEN the table lists exactly the pairs of explain: 6, nodeport-local / native-l4 not among them', () => {
    const rows = pairTableMarkdown(env).split('\n').slice(2);
    const pairsOfExplain = new Set(env.clouds.flatMap((c) => c.exposures.flatMap((e) => e.differs_in_one.map((n) => [e.mode, n.mode].sort().join(' / ')))));
    expect(rows.map((r) => r.split(' | ')[0].replace(/^\| /, '').replace(/`/g, '').split(' / ').sort().join(' / '))).toEqual(expect.arrayContaining([...pairsOfExplain]));
    expect(rows).toHaveLength(pairsOfExplain.size);
    expect(rows).toHaveLength(6);
    expect(rows.join('\n')).not.toContain('`nodeport-local` / `native-l4`');
    expect(renderExplainMarkdown(model)).toContain(pairTableMarkdown(env));
  });

  test('GIVEN the default lab WHEN each listed pair is compared THEN it differs in exactly one variable, every other known and equal', () => {
    for (const cloud of env.clouds) {
      const byMode = new Map(cloud.exposures.map((e) => [e.mode, e]));
      for (const p of oneVariablePairs(cloud.exposures)) {
        const [a, b] = [byMode.get(p.a)!.variables!, byMode.get(p.b)!.variables!];
        expect([cloud.cloud, p.a, p.b, unequal(a, b)]).toEqual([cloud.cloud, p.a, p.b, 1]);
      }
    }
  });
});

describe('differs in one: every other variable known and equal', () => {
  const layers = ['L7', 'L4'] as const;
  const apis = ['core API', 'Gateway API'] as const;
  const targets = ['pods', 'nodes'] as const;
  const policies = ['Cluster', 'Local', null] as const;
  const all = layers.flatMap((layer) => apis.flatMap((api) => targets.flatMap((t) => policies.map((traffic_policy) => ({ layer, api, targets: t, traffic_policy } as MatrixVariables)))));
  const exposures = all.map((v, i) => exposure(`e${i}`, v));

  test('GIVEN every combination of the variables (a null traffic policy among them) WHEN paired THEN no listed pair differs in two, and every pair that differs in one is listed', () => {
    const listed = oneVariablePairs(exposures);
    for (const p of listed) {
      const [a, b] = [exposures.find((e) => e.mode === p.a)!.variables!, exposures.find((e) => e.mode === p.b)!.variables!];
      expect(unequal(a, b)).toBe(1);
      expect(differences(a, b)).toHaveLength(1);
    }
    const expected = exposures.flatMap((a, i) =>
      exposures
        .slice(i + 1)
        .filter((b) => unequal(a.variables!, b.variables!) === 1)
        .map((b) => `${a.mode}/${b.mode}`),
    );
    expect(listed.map((p) => `${p.a}/${p.b}`)).toEqual(expected);
  });

  test.each([
    ['a null traffic policy against a value', { traffic_policy: null }, { traffic_policy: 'Cluster' }],
    ['two null traffic policies', { traffic_policy: null }, { traffic_policy: null }],
  ] as const)('GIVEN two exposures equal but for %s WHEN compared THEN the traffic policy is not equal: they differ in it', (_what, a, b) => {
    const base = { layer: 'L4', api: 'core API', targets: 'nodes' } as const;
    expect(differences({ ...base, ...a }, { ...base, ...b }).map((d) => d.variable)).toEqual(['traffic policy']);
  });

  test('GIVEN nodes with ETP Local and Pods with ETP Cluster (nodeport-local and native-l4) WHEN compared THEN they differ in two and are no pair', () => {
    const local = exposure('nodeport-local', { layer: 'L4', api: 'core API', targets: 'nodes', traffic_policy: 'Local' });
    const native = exposure('native-l4', { layer: 'L4', api: 'core API', targets: 'pods', traffic_policy: 'Cluster' });
    expect(differences(local.variables!, native.variables!).map((d) => d.variable)).toEqual(['targets', 'traffic policy']);
    expect(oneVariableNeighbours([local, native]).get('nodeport-local')).toEqual([]);
    expect(oneVariablePairs([local, native])).toEqual([]);
  });

  test('GIVEN Pod targets WHEN the matrix variables are read THEN the traffic policy is the Service ETP, as the table shows it, not dropped', () => {
    expect(matrixVariables({ layer: 'L4', api: 'core API', targets: 'pods', external_traffic_policy: 'Cluster' })).toEqual({
      layer: 'L4',
      api: 'core API',
      targets: 'pods',
      traffic_policy: 'Cluster',
    });
  });
});

describe('the table and the JSON print the same traffic policy', () => {
  test('GIVEN the default lab WHEN rendered as JSON and as a table THEN every exposure has variables.traffic_policy = external_traffic_policy, and native-l4 is Cluster in both', () => {
    const json = JSON.parse(renderExplainJson(model)) as { environments: { clouds: { exposures: ExposureExplanation[] }[] }[] };
    const exposuresOfJson = json.environments[0].clouds.flatMap((c) => c.exposures);
    for (const e of exposuresOfJson) expect([e.mode, e.variables?.traffic_policy]).toEqual([e.mode, e.external_traffic_policy]);
    const nativeL4 = exposuresOfJson.find((e) => e.mode === 'native-l4')!;
    expect([nativeL4.external_traffic_policy, nativeL4.variables?.traffic_policy]).toEqual(['Cluster', 'Cluster']);
    // The terminal's every-fact view: one externalTrafficPolicy line per exposure, AWS's first, in the exposures' order.
    const aws = env.clouds.find((c) => c.cloud === 'aws')!.exposures;
    const cells = renderExplainTable(model, { details: true, width: 200 })
      .split('\n')
      .flatMap((l) => /^\s*externalTrafficPolicy\s+(\S+)$/.exec(l)?.[1] ?? [])
      .slice(0, aws.length);
    expect(cells).toEqual(aws.map((e) => e.variables!.traffic_policy));
    expect(cells).toEqual(['Cluster', 'Cluster', 'Cluster', 'Cluster', 'Local', 'Cluster']);
  });
});
