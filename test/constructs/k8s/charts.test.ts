import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// cdktf's own asset hash (a private module): what localChartHash must equal, or the asset paths in the plans would change.
import { hashPath } from 'cdktf/lib/private/fs';
import { localChartDir, localChartHash } from '../../../lib/constructs/k8s/charts';
import { GATEWAY_API_CRDS_CHART } from '../../../lib/constructs/k8s/gateway-api-crds';
import { MANIFESTS_CHART } from '../../../lib/constructs/k8s/manifests-release';

describe('localChartHash', () => {
  test.each([GATEWAY_API_CRDS_CHART, MANIFESTS_CHART])('GIVEN the shipped chart %s THEN its hash is the one cdktf computes for the asset', (name) => {
    const dir = localChartDir(name);
    expect(localChartHash(dir)).toBe(hashPath(dir));
  });

  test('GIVEN two charts that differ in one byte THEN their hashes differ, and asking again gives the same hash', () => {
    const a = mkdtempSync(join(tmpdir(), 'hoplab-chart-'));
    cpSync(localChartDir(MANIFESTS_CHART), a, { recursive: true });
    const b = mkdtempSync(join(tmpdir(), 'hoplab-chart-'));
    cpSync(a, b, { recursive: true });
    writeFileSync(join(b, 'Chart.yaml'), '# changed\n', { flag: 'a' });
    expect(localChartHash(a)).not.toBe(localChartHash(b));
    expect(localChartHash(a)).toBe(hashPath(a));
    expect(localChartHash(b)).toBe(hashPath(b));
    for (const dir of [a, b]) rmSync(dir, { recursive: true, force: true });
  });
});
