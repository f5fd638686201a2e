import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { LOCAL_CHARTS_FOLDER, localChartDir } from '../../lib/constructs/k8s/local-chart';
import { addLab, synthFresh } from '../../lib/stacks/hoplab-app';
import { filesUnder, Json } from '../support/synth';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** Synthesizes the app for `raw` into a fresh temp outdir the way `npm run synth` and deploy do (synthFresh); `before` may leave files there first. */
function synthInto(raw: Record<string, unknown>, before: (outdir: string) => void = () => undefined) {
  const outdir = mkdtempSync(join(tmpdir(), 'hoplab-charts-'));
  scratch.push(outdir);
  before(outdir);
  const app = new App({ outdir, stackTraces: false });
  addLab(app, validConfig(raw, 'test'));
  synthFresh(app);
  return outdir;
}

/** The local charts (`chart` a path) of a stack's helm releases: release name -> chart value. */
function localCharts(outdir: string, stack: string): Record<string, string> {
  const json = JSON.parse(readFileSync(join(outdir, 'stacks', stack, 'cdk.tf.json'), 'utf8'));
  const releases = Object.values(json.resource?.helm_release ?? {}) as Record<string, Json>[];
  return Object.fromEntries(releases.filter((r) => (r.chart as string).startsWith('.')).map((r) => [r.name, r.chart]));
}

describe('local charts in a synthesized app', () => {
  test('GIVEN two attendees WHEN synthesized THEN each aws-lb chart, resolved from cdktf.out/stacks/<stack>, is the shipped chart, written once for both', () => {
    const outdir = synthInto({ attendees: ['ann', 'bob'] });
    const ann = localCharts(outdir, 'ann-aws-lb');
    expect(Object.keys(ann).sort()).toEqual(['echo-gateway', 'gateway-api-crds']);
    expect(localCharts(outdir, 'bob-aws-lb')).toEqual(ann);
    const source = { 'echo-gateway': localChartDir('hoplab-manifests'), 'gateway-api-crds': localChartDir('gateway-api-crds') };
    for (const stack of ['ann-aws-lb', 'bob-aws-lb']) {
      // Where Terraform runs for this stack (cdktf deploy, terraform -chdir, hoplab deploy), and so where the helm provider resolves `chart`.
      const stackDir = join(outdir, 'stacks', stack);
      for (const [release, chart] of Object.entries(localCharts(outdir, stack))) {
        const resolved = resolve(stackDir, chart);
        expect(statSync(resolved).isDirectory()).toBe(true);
        expect(readFileSync(join(resolved, 'Chart.yaml'), 'utf8')).toBe(readFileSync(join(source[release as keyof typeof source], 'Chart.yaml'), 'utf8'));
        expect(filesUnder(resolved)).toEqual(filesUnder(source[release as keyof typeof source]));
      }
      expect(readdirSync(stackDir)).toEqual(['cdk.tf.json']);
    }
    expect(readdirSync(join(outdir, LOCAL_CHARTS_FOLDER)).sort()).toEqual(
      Object.values(ann)
        .map((c) => c.split('/').pop())
        .sort(),
    );
    for (const stack of ['ann-gcp-lb', 'ann-aws-cluster', 'ann-gcp-cluster']) expect(localCharts(outdir, stack)).toEqual({});
  });

  test('GIVEN chart copies of an earlier synth WHEN synthesized again THEN only the charts the stacks point at are left', () => {
    const outdir = synthInto({}, (dir) => {
      mkdirSync(join(dir, LOCAL_CHARTS_FOLDER, 'gateway-api-crds-00000000000000000000000000000000'), { recursive: true });
      writeFileSync(join(dir, LOCAL_CHARTS_FOLDER, 'gateway-api-crds-00000000000000000000000000000000', 'Chart.yaml'), 'name: old\n');
    });
    expect(readdirSync(join(outdir, LOCAL_CHARTS_FOLDER)).sort()).toEqual(
      Object.values(localCharts(outdir, 'lab-aws-lb'))
        .map((c) => c.split('/').pop())
        .sort(),
    );
  });
});
