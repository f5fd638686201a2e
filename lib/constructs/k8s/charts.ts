import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The directory of a chart that ships with hoplab (`charts/<name>`), found
 * from this module's location: `lib/constructs/k8s/` when run from source (tests),
 * `dist/` when bundled.
 */
export function localChartDir(name: string): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'charts', name);
    if (existsSync(join(candidate, 'Chart.yaml'))) {
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`hoplab: the chart "charts/${name}" was not found above ${__dirname}; run hoplab from its checkout`);
    }
    dir = parent;
  }
}

const chartHashes = new Map<string, string>();

/**
 * The content hash of a local chart directory, computed as cdktf's
 * `TerraformAsset` computes an asset's hash (MD5 of every file's bytes, walked
 * in directory order; 32 upper-case hex digits), so the asset paths in the
 * synthesized plans are the same, but once per process and chart instead of
 * once per asset: every `-aws-lb` stack of a workshop carries the 1.2 MB Gateway
 * API CRD chart, and 30 attendees hashed it 30 times. Pass it as the asset's
 * `assetHash`. The memo lives as long as the process, one synth: a chart edited
 * meanwhile is seen by the next run.
 */
export function localChartHash(dir: string): string {
  const key = resolve(dir);
  let hash = chartHashes.get(key);
  if (hash === undefined) {
    const md5 = createHash('md5');
    const walk = (path: string): void => {
      const stat = statSync(path);
      if (stat.isFile()) {
        md5.update(readFileSync(path));
      } else if (stat.isDirectory()) {
        for (const name of readdirSync(path)) walk(resolve(path, name));
      }
    };
    walk(key);
    hash = md5.digest('hex').slice(0, 32).toUpperCase();
    chartHashes.set(key, hash);
  }
  return hash;
}
