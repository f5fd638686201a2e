import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The directory of a chart that ships with hoplab (`charts/<name>`), found
 * from this module's location: `lib/k8s/` when run from source (tests),
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
