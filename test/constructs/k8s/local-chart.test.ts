import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { Release } from '@cdktf/provider-helm/lib/release';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Manifest, TerraformStack, Testing } from 'cdktf';
import { Construct } from 'constructs';
// cdktf's own asset hash (a private module): localChartHash computes the same, so the hash part of a chart's path stayed what it was.
import { hashPath } from 'cdktf/lib/private/fs';
import { LOCAL_CHARTS_FOLDER, LocalChart, localChartDir, localChartHash } from '../../../lib/constructs/k8s/local-chart';
import { GATEWAY_API_CRDS_CHART, GatewayApiCrds } from '../../../lib/constructs/k8s/gateway-api-crds';
import { MANIFESTS_CHART, ManifestsRelease } from '../../../lib/constructs/k8s/manifests-release';
import { filesUnder, Json } from '../../support/synth';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** A copy of the shipped manifests chart, optionally with `edit` appended to its Chart.yaml. */
function chartCopy(edit = ''): string {
  const dir = tempDir('hoplab-chart-');
  cpSync(localChartDir(MANIFESTS_CHART), dir, { recursive: true });
  if (edit) writeFileSync(join(dir, 'Chart.yaml'), edit, { flag: 'a' });
  return dir;
}

/**
 * Synthesizes one stack made by `build`, alone, the way `Testing.fullSynth`
 * does it (no app.synth()): its folder and its helm_release resources.
 */
function fullSynth(build: (scope: Construct) => void) {
  const stack = new TerraformStack(Testing.app(), 'stack');
  new HelmProvider(stack, 'helm', {});
  build(stack);
  const outdir = Testing.fullSynth(stack);
  scratch.push(outdir);
  const stackDir = join(outdir, 'stacks', 'stack');
  const json = JSON.parse(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8'));
  return { outdir, stackDir, releases: Object.values(json.resource.helm_release) as Record<string, Json>[] };
}

describe('localChartHash', () => {
  test.each([GATEWAY_API_CRDS_CHART, MANIFESTS_CHART])('GIVEN the shipped chart %s THEN its hash is the one cdktf computes for an asset', (name) => {
    const dir = localChartDir(name);
    expect(localChartHash(dir)).toBe(hashPath(dir));
  });

  test('GIVEN two charts that differ in one byte THEN their hashes differ, and asking again gives the same hash', () => {
    const a = chartCopy();
    const b = chartCopy('# changed\n');
    expect(localChartHash(a)).not.toBe(localChartHash(b));
    expect(localChartHash(a)).toBe(hashPath(a));
    expect(localChartHash(b)).toBe(hashPath(b));
  });
});

describe('LocalChart', () => {
  test('GIVEN the constructs synthesized alone (Testing.fullSynth) THEN each release chart, resolved from the stack folder, is a copy of the shipped chart', () => {
    const { outdir, stackDir, releases } = fullSynth((scope) => {
      new GatewayApiCrds(scope, 'crds');
      new ManifestsRelease(scope, 'objects', { releaseName: 'objects', namespace: 'hoplab', manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }] });
    });
    const byName: Record<string, string> = Object.fromEntries(releases.map((r) => [r.name, r.chart as string]));
    expect(byName).toEqual({
      'gateway-api-crds': `../../charts/gateway-api-crds-${localChartHash(localChartDir(GATEWAY_API_CRDS_CHART))}`,
      objects: `../../charts/hoplab-manifests-${localChartHash(localChartDir(MANIFESTS_CHART))}`,
    });
    for (const [release, chartName] of [
      ['gateway-api-crds', GATEWAY_API_CRDS_CHART],
      ['objects', MANIFESTS_CHART],
    ]) {
      // The helm provider resolves `chart` from Terraform's working directory, the stack's folder.
      const resolved = resolve(stackDir, byName[release]);
      expect(statSync(resolved).isDirectory()).toBe(true);
      expect(readFileSync(join(resolved, 'Chart.yaml'), 'utf8')).toBe(readFileSync(join(localChartDir(chartName), 'Chart.yaml'), 'utf8'));
      expect(filesUnder(resolved)).toEqual(filesUnder(localChartDir(chartName)));
    }
    // No per-stack copy any more: the stack folder holds the Terraform JSON only.
    expect(readdirSync(stackDir)).toEqual(['cdk.tf.json']);
    expect(readdirSync(join(outdir, LOCAL_CHARTS_FOLDER)).sort()).toEqual(
      Object.values(byName)
        .map((c) => c.split('/').pop())
        .sort(),
    );
  });

  test('GIVEN a chart edited in one file THEN the synthesized chart value changes, and the copy it points at is the edited chart', () => {
    const synthWith = (dir: string) =>
      fullSynth((scope) => {
        new Release(scope, 'release', { name: 'objects', chart: new LocalChart(scope, 'chart', { name: MANIFESTS_CHART, dir }).chart });
      });
    const before = synthWith(chartCopy());
    const edited = chartCopy('# edited\n');
    const after = synthWith(edited);
    const [chartBefore, chartAfter] = [before.releases[0].chart, after.releases[0].chart];
    expect(chartBefore).toMatch(/^\.\.\/\.\.\/charts\/hoplab-manifests-[0-9A-F]{32}$/);
    expect(chartAfter).toMatch(/^\.\.\/\.\.\/charts\/hoplab-manifests-[0-9A-F]{32}$/);
    expect(chartAfter).not.toBe(chartBefore);
    expect(readFileSync(join(resolve(after.stackDir, chartAfter), 'Chart.yaml'), 'utf8')).toMatch(/# edited\n$/);
    expect(filesUnder(resolve(after.stackDir, chartAfter))).toEqual(filesUnder(edited));
  });

  test('GIVEN Testing.synthScope (Terraform JSON only, no folder) THEN the release still names the chart by its hash', () => {
    const json = JSON.parse(Testing.synthScope((scope) => void new GatewayApiCrds(scope, 'crds')));
    const [release] = Object.values(json.resource.helm_release) as Record<string, Json>[];
    expect(release.chart).toBe(`../../charts/gateway-api-crds-${localChartHash(localChartDir(GATEWAY_API_CRDS_CHART))}`);
  });

  test('GIVEN a name that is not a chart name THEN it stops with a clear message', () => {
    expect(() => Testing.synthScope((scope) => void new LocalChart(scope, 'chart', { name: '../etc' }))).toThrow('LocalChart chart: name "../etc" is not a chart name');
  });

  test('GIVEN a chart folder left in the way (a stray file) THEN the synth replaces it with a fresh copy', () => {
    const stack = new TerraformStack(Testing.app(), 'stack');
    new HelmProvider(stack, 'helm', {});
    const chart = new LocalChart(stack, 'chart', { name: MANIFESTS_CHART });
    new Release(stack, 'release', { name: 'objects', chart: chart.chart });
    const outdir = Testing.fullSynth(stack);
    scratch.push(outdir);
    const copy = join(outdir, LOCAL_CHARTS_FOLDER, chart.folder);
    writeFileSync(join(copy, 'stray.yaml'), 'kind: Stray\n');
    // A second synthesis into the same folder, as Testing.fullSynth does it.
    stack.synthesizer.synthesize({ outdir, manifest: new Manifest('stubbed', outdir, false) });
    expect(existsSync(join(copy, 'stray.yaml'))).toBe(false);
    expect(filesUnder(copy)).toEqual(filesUnder(localChartDir(MANIFESTS_CHART)));
  });
});
