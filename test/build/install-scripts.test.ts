/**
 * npm 11 warns after `npm ci` about every package whose install scripts package.json's
 * `allowScripts` does not decide (npm 12 will skip them). Each decision is explained in
 * CONTRIBUTING.md ("Install scripts"); this holds the list and the lockfile together.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;
const pkg = read('package.json') as { allowScripts?: Record<string, unknown>; overrides?: Record<string, unknown>; devDependencies?: Record<string, string> };
const lock = read('package-lock.json') as { packages: Record<string, { name?: string; version?: string; hasInstallScript?: boolean }> };

/** The package a lockfile entry installs: its own `name` for an alias, else the last `node_modules/` segment of its path. */
const packageName = (path: string, entry: { name?: string }) => entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts', () => {
  test('GIVEN the lockfile WHEN npm ci installs it THEN allowScripts decides exactly the packages that have install scripts, each true or false', () => {
    const withScripts = [...new Set(Object.entries(lock.packages).flatMap(([path, entry]) => (path !== '' && entry.hasInstallScript ? [packageName(path, entry)] : [])))].sort();
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts);
    for (const decision of Object.values(pkg.allowScripts ?? {})) expect(typeof decision).toBe('boolean');
  });

  test('GIVEN cdktf-cli WHEN its pty package is resolved THEN it is @lydell/node-pty (N-API prebuilds, no install script) at the top of node_modules, where the cdktf-cli bundle finds it', () => {
    expect(lock.packages['node_modules/@cdktf/node-pty-prebuilt-multiarch']).toMatchObject({ name: '@lydell/node-pty', version: '1.1.0' });
    expect(lock.packages['node_modules/@cdktf/node-pty-prebuilt-multiarch'].hasInstallScript).toBeUndefined();
    expect(Object.keys(lock.packages).filter((p) => p.endsWith('/@cdktf/node-pty-prebuilt-multiarch'))).toEqual(['node_modules/@cdktf/node-pty-prebuilt-multiarch']);
    expect(pkg.devDependencies?.['@cdktf/node-pty-prebuilt-multiarch']).toBe('npm:@lydell/node-pty@1.1.0');
    expect(pkg.overrides?.['@cdktf/node-pty-prebuilt-multiarch']).toBe('$@cdktf/node-pty-prebuilt-multiarch');
    // What cdktf-cli loads: the module resolves from its bundle and exposes the API cdktf uses (spawn, write, onData, onExit).
    const fromBundle = createRequire(join(ROOT, 'node_modules', 'cdktf-cli', 'bundle', 'bin', 'cmds', 'handlers.js'));
    const pty = fromBundle('@cdktf/node-pty-prebuilt-multiarch') as { spawn?: unknown };
    expect(typeof pty.spawn).toBe('function');
  });
});
