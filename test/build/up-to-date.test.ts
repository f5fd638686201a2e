/**
 * The build's up-to-date check (scripts/commands.cjs) on a small project of its
 * own in a temporary folder: a stale dist/ must never count as built. esbuild
 * runs in child processes (it does not run inside jest's module sandbox).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Json } from '../support/synth';

const ROOT = resolve(__dirname, '..', '..');

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-build-'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'lib', 'z'), { recursive: true });
  copyFileSync(join(ROOT, 'scripts', 'commands.cjs'), join(dir, 'scripts', 'commands.cjs'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"name":"p","private":true}\n');
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"strict":true}}\n');
  writeFileSync(join(dir, 'lib', 'y.ts'), "export const y = 'one';\n");
  writeFileSync(join(dir, 'lib', 'z', 'index.ts'), "export const z = 'folder';\n");
  writeFileSync(join(dir, 'bin', 'x.ts'), "import { y } from '../lib/y';\nimport { z } from '../lib/z';\nconsole.log(y, z);\n");
  return dir;
}

/** Runs `fn(commands)` in a child node and returns what it printed as JSON. */
function inProject(dir: string, body: string): Json {
  const script = `const c = require(${JSON.stringify(
    join(dir, 'scripts', 'commands.cjs'),
  )});\n(async () => { const r = await (async () => { ${body} })(); process.stdout.write(JSON.stringify(r ?? null)); })().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

const reason = (dir: string) => inProject(dir, "return c.staleReason('x') ?? (c.freshOutput('x', w = {}) ? 'fresh' : w.reason); var w;");
const build = (dir: string) => inProject(dir, "const r = await c.ensureBuilt('x'); return r.built ? r.built.reason : 'up to date';");
const runX = (dir: string) => spawnSync(process.execPath, [join(dir, 'dist', 'x.js')], { encoding: 'utf8' }).stdout.trim();
/** Files written now have an mtime the check does not trust yet; age them as if written a minute ago. */
const age = (...files: string[]) => files.forEach((f) => utimesSync(f, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000)));

describe('the build up-to-date check', () => {
  let dir: string;
  beforeEach(() => {
    dir = project();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('GIVEN a fresh clone WHEN a command runs THEN it is built first, and not again while nothing changes', () => {
    expect(reason(dir)).toBe('never built');
    expect(build(dir)).toBe('never built');
    expect(runX(dir)).toBe('one folder');
    expect(reason(dir)).toBe('fresh');
    expect(build(dir)).toBe('up to date');
  });

  test('GIVEN a built command WHEN a source is touched without a change THEN it stays built; WHEN its content changes THEN it is rebuilt with the change', () => {
    build(dir);
    const y = join(dir, 'lib', 'y.ts');
    age(y);
    expect(reason(dir)).toBe('fresh');
    writeFileSync(y, "export const y = 'two';\n");
    expect(reason(dir)).toBe('lib/y.ts changed');
    expect(build(dir)).toBe('lib/y.ts changed');
    expect(runX(dir)).toBe('two folder');
  });

  test('GIVEN a built command WHEN a source gets other content of the same size and its old mtime back THEN it is still seen as changed', () => {
    const y = join(dir, 'lib', 'y.ts');
    age(y);
    // Past the 2 s in which a stat is not trusted (its ctime just changed), so the check's stat shortcut is what is tested.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);
    build(dir);
    expect(readFileSync(join(dir, 'dist', '.stamps', 'x.json'), 'utf8')).toMatch(/"lib\/y\.ts":\{"hash":"[0-9a-f]+","stat":\[/);
    const before = statSync(y);
    writeFileSync(y, "export const y = 'six';\n");
    utimesSync(y, before.atime, before.mtime);
    expect(statSync(y).size).toBe(before.size);
    expect(reason(dir)).toBe('lib/y.ts changed');
  });

  test('GIVEN a built command WHEN a branch switch deletes a source THEN it is stale', () => {
    build(dir);
    rmSync(join(dir, 'lib', 'y.ts'));
    expect(reason(dir)).toBe('lib/y.ts was deleted');
  });

  test('GIVEN an import resolved to a folder index WHEN a file that takes precedence is added THEN it is stale and the rebuild uses it', () => {
    build(dir);
    writeFileSync(join(dir, 'lib', 'z.ts'), "export const z = 'file';\n");
    expect(reason(dir)).toBe('a file was added to or removed from lib/');
    build(dir);
    expect(runX(dir)).toBe('one file');
  });

  test('GIVEN a built command WHEN dist is missing, or its output edited or written by another build THEN it is stale', () => {
    build(dir);
    rmSync(join(dir, 'dist'), { recursive: true });
    expect(reason(dir)).toBe('never built');
    build(dir);
    rmSync(join(dir, 'dist', 'x.js'));
    expect(reason(dir)).toBe('dist/x.js is missing');
    build(dir);
    const out = join(dir, 'dist', 'x.js');
    writeFileSync(out, readFileSync(out, 'utf8').replace("'one'", "'won'"));
    expect(reason(dir)).toBe('dist/x.js is not the output of its last build');
  });

  test('GIVEN a built command WHEN the lockfile, tsconfig.json or the build recipe changes THEN it is stale', () => {
    build(dir);
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
    expect(reason(dir)).toBe('package-lock.json changed (dependencies)');
    build(dir);
    writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"strict":false}}\n');
    expect(reason(dir)).toBe('tsconfig.json changed');
    build(dir);
    writeFileSync(join(dir, 'scripts', 'commands.cjs'), `${readFileSync(join(dir, 'scripts', 'commands.cjs'), 'utf8')}\n// changed\n`);
    expect(reason(dir)).toBe('the build recipe changed');
  });

  test('GIVEN a source that does not compile WHEN built THEN the build fails with the place and no output counts as built', () => {
    build(dir);
    writeFileSync(join(dir, 'lib', 'y.ts'), 'export const y = ;\n');
    expect(() => build(dir)).toThrow(/esbuild failed:\n {2}lib\/y\.ts:1:\d+: /);
    expect(reason(dir)).toBe('lib/y.ts changed');
  });
});
