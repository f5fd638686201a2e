/**
 * The build's up-to-date check (scripts/commands.cjs) and the runner (scripts/run.cjs) on a
 * small project of their own in a temporary folder: a stale or edited dist/ must never run as
 * built. Builds run in child processes (esbuild does not run inside jest's module sandbox).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Json } from '../support/synth';

const ROOT = resolve(__dirname, '..', '..');

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-build-'));
  for (const folder of ['scripts', 'bin', 'lib/z', 'node_modules/dep']) mkdirSync(join(dir, folder), { recursive: true });
  copyFileSync(join(ROOT, 'scripts', 'commands.cjs'), join(dir, 'scripts', 'commands.cjs'));
  copyFileSync(join(ROOT, 'scripts', 'run.cjs'), join(dir, 'scripts', 'run.cjs'));
  // node_modules of its own (its lockfile and a dependency can change), with the real esbuild.
  symlinkSync(join(ROOT, 'node_modules', 'esbuild'), join(dir, 'node_modules', 'esbuild'));
  writeFileSync(join(dir, 'node_modules', '.package-lock.json'), '{"packages":{"node_modules/dep":{"version":"1.0.0"}}}\n');
  writeFileSync(join(dir, 'node_modules', 'dep', 'package.json'), '{"name":"dep","version":"1.0.0","main":"index.js"}\n');
  writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), "exports.dep = 'dep1';\n");
  writeFileSync(join(dir, 'package.json'), '{"name":"p","private":true}\n');
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"strict":true}}\n');
  writeFileSync(join(dir, 'lib', 'y.ts'), "export const y = 'one';\n");
  writeFileSync(join(dir, 'lib', 'z', 'index.ts'), "export const z = 'folder';\n");
  writeFileSync(join(dir, 'bin', 'x.ts'), "import { y } from '../lib/y';\nimport { z } from '../lib/z';\nimport { dep } from 'dep';\nconsole.log(y, z, dep);\n");
  return dir;
}

/** Runs `body` with `c` = the project's commands.cjs in a child node, and returns what it returned, as JSON. */
function inProject(dir: string, body: string): Json {
  const script = `const c = require(${JSON.stringify(
    join(dir, 'scripts', 'commands.cjs'),
  )});\n(async () => { const r = await (async () => { ${body} })(); process.stdout.write(JSON.stringify(r ?? null)); })().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

/** Why dist/x.js must be built, or 'fresh': checked in this process (the check needs no esbuild), with a fresh copy of the project's commands.cjs. */
function reason(dir: string): string {
  let result = '';
  jest.isolateModules(() => {
    const commands = jest.requireActual<{ check(name: string): { reason?: string } }>(join(dir, 'scripts', 'commands.cjs'));
    result = commands.check('x').reason ?? 'fresh';
  });
  return result;
}
const build = (dir: string) => inProject(dir, "const r = await c.ensureBuilt('x'); return r.built ? r.built.reason : 'up to date';");
const runX = (dir: string) => spawnSync(process.execPath, [join(dir, 'dist', 'x.js')], { encoding: 'utf8' }).stdout.trim();
/** As `npm run x` runs it: the runner checks dist/x.js, builds it if stale, and runs it. */
const runner = (dir: string) => spawnSync(process.execPath, [join(dir, 'scripts', 'run.cjs'), 'x'], { cwd: dir, encoding: 'utf8' });

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
    expect(runX(dir)).toBe('one folder dep1');
    expect(reason(dir)).toBe('fresh');
    expect(build(dir)).toBe('up to date');
  });

  test('GIVEN a built command WHEN a source is touched without a change THEN it stays built; WHEN its content changes THEN it is rebuilt with the change', () => {
    build(dir);
    const y = join(dir, 'lib', 'y.ts');
    utimesSync(y, new Date(), new Date(Date.now() + 60_000));
    expect(reason(dir)).toBe('fresh');
    writeFileSync(y, "export const y = 'two';\n");
    expect(reason(dir)).toBe('lib/y.ts changed');
    expect(build(dir)).toBe('lib/y.ts changed');
    expect(runX(dir)).toBe('two folder dep1');
  });

  test('GIVEN a built command WHEN a source gets other content of the same size and its old mtime back THEN it is still seen as changed', () => {
    build(dir);
    const y = join(dir, 'lib', 'y.ts');
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
    expect(runX(dir)).toBe('one file dep1');
  });

  test('GIVEN an import resolved to a folder index with no other input next to the folder WHEN a file that takes precedence is added THEN it is stale', () => {
    mkdirSync(join(dir, 'pkg', 'q'), { recursive: true });
    writeFileSync(join(dir, 'pkg', 'q', 'index.ts'), "export const q = 'folder';\n");
    writeFileSync(join(dir, 'bin', 'x.ts'), "import { q } from '../pkg/q';\nconsole.log(q);\n");
    build(dir);
    writeFileSync(join(dir, 'pkg', 'q.ts'), "export const q = 'file';\n");
    expect(reason(dir)).toBe('a file was added to or removed from pkg/');
    build(dir);
    expect(runX(dir)).toBe('file');
  });

  test('GIVEN a source behind a symlink to a folder outside the project WHEN built THEN it stays built until that source changes', () => {
    const outside = mkdtempSync(join(tmpdir(), 'hoplab-build-shared-'));
    try {
      writeFileSync(join(outside, 'w.ts'), "export const w = 'shared';\n");
      symlinkSync(outside, join(dir, 'lib', 'shared'));
      writeFileSync(join(dir, 'bin', 'x.ts'), "import { w } from '../lib/shared/w';\nconsole.log(w);\n");
      expect(build(dir)).toBe('never built');
      expect(reason(dir)).toBe('fresh');
      writeFileSync(join(outside, 'w.ts'), "export const w = 'shared2';\n");
      expect(reason(dir)).toMatch(/^\.\.\/.*\/w\.ts changed$/);
      build(dir);
      expect(runX(dir)).toBe('shared2');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('GIVEN a built command WHEN dist is missing, or its output edited, truncated or an older build put back THEN it is stale', () => {
    build(dir);
    rmSync(join(dir, 'dist'), { recursive: true });
    expect(reason(dir)).toBe('never built');
    build(dir);
    const out = join(dir, 'dist', 'x.js');
    const built = readFileSync(out, 'utf8');
    expect(built).toContain('"one"');
    writeFileSync(out, built.replace('"one"', '"won"'));
    expect(reason(dir)).toBe('dist/x.js is not the output of its last build');
    writeFileSync(out, built.slice(0, built.lastIndexOf('\n//# hoplab-stamp ')));
    expect(reason(dir)).toBe('dist/x.js is not the output of its last build');
    writeFileSync(out, built.slice(0, -10));
    expect(reason(dir)).toBe('dist/x.js is not the output of its last build');
    // A racing build's rename landing last: an output of older sources is never taken as current.
    writeFileSync(join(dir, 'lib', 'y.ts'), "export const y = 'two';\n");
    build(dir);
    writeFileSync(out, built);
    expect(reason(dir)).toBe('lib/y.ts changed');
  });

  test('GIVEN an edited output WHEN the command runs as npm runs it THEN the edit never runs: it is rebuilt first', () => {
    build(dir);
    const out = join(dir, 'dist', 'x.js');
    writeFileSync(out, readFileSync(out, 'utf8').replace('"one"', '"won"'));
    expect(runX(dir)).toBe('won folder dep1');
    const result = runner(dir);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('one folder dep1');
    expect(reason(dir)).toBe('fresh');
  });

  test('GIVEN a built command WHEN the lockfile, an installed dependency, tsconfig.json or the build recipe changes THEN it is stale', () => {
    build(dir);
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
    expect(reason(dir)).toBe('package-lock.json changed');
    build(dir);
    // What `npm install dep@2` does: new files, and node_modules/.package-lock.json rewritten.
    writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), "exports.dep = 'dep2';\n");
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), '{"packages":{"node_modules/dep":{"version":"2.0.0"}}}\n');
    expect(reason(dir)).toBe('node_modules/.package-lock.json changed');
    build(dir);
    expect(runX(dir)).toBe('one folder dep2');
    writeFileSync(join(dir, 'tsconfig.json'), '{"compilerOptions":{"strict":false}}\n');
    expect(reason(dir)).toBe('tsconfig.json changed');
    build(dir);
    writeFileSync(join(dir, 'scripts', 'commands.cjs'), `${readFileSync(join(dir, 'scripts', 'commands.cjs'), 'utf8')}\n// changed\n`);
    expect(reason(dir)).toBe('the build recipe changed');
  });

  test('GIVEN a source edited while esbuild builds WHEN the build is done THEN the output is not taken as built, and the runner builds once more', () => {
    // The edit lands right after esbuild was given the file's bytes.
    const editDuringBuild = (ensure: boolean) =>
      inProject(
        dir,
        `const fs = require('node:fs'); const read = fs.readFileSync; let edited = false;
         fs.readFileSync = function (file, ...rest) { const data = read.call(this, file, ...rest); if (!edited && String(file).endsWith('y.ts')) { edited = true; fs.writeFileSync(file, "export const y = 'edit';\\n"); } return data; };
         if (${ensure}) { const r = await c.ensureBuilt('x'); return r.built.reason; }
         await c.buildCommands(['x']); return c.check('x').reason;`,
      );
    expect(editDuringBuild(false)).toBe('lib/y.ts changed');
    expect(runX(dir)).toBe('one folder dep1');
    writeFileSync(join(dir, 'lib', 'y.ts'), "export const y = 'one';\n");
    rmSync(join(dir, 'dist'), { recursive: true });
    expect(editDuringBuild(true)).toBe('never built');
    expect(runX(dir)).toBe('edit folder dep1');
    expect(reason(dir)).toBe('fresh');
  });

  test('GIVEN an import resolved to a folder index WHEN a file that takes precedence is added while esbuild builds THEN the output is not taken as built', () => {
    // The file lands right after esbuild resolved the import to lib/z/index.ts and loads it.
    const result = inProject(
      dir,
      `const fs = require('node:fs'); const read = fs.readFileSync; let added = false;
       fs.readFileSync = function (file, ...rest) { if (!added && String(file).endsWith('index.ts')) { added = true; fs.writeFileSync(${JSON.stringify(
         join(dir, 'lib', 'z.ts'),
       )}, "export const z = 'file';\\n"); } return read.call(this, file, ...rest); };
       await c.buildCommands(['x']); return c.check('x').reason;`,
    );
    expect(runX(dir)).toBe('one folder dep1');
    expect(result).toBe('a file was added to or removed from lib/');
  });

  test('GIVEN builds and runs at the same time WHEN they are done THEN each run ran a whole build and the last output is current', async () => {
    const children = Array.from(
      { length: 6 },
      (_, i) =>
        new Promise<{ code: number | null; out: string }>((done) => {
          const child =
            i % 2 === 0
              ? spawn(process.execPath, ['-e', `require(${JSON.stringify(join(dir, 'scripts', 'commands.cjs'))}).buildCommands(['x'])`], { cwd: dir })
              : spawn(process.execPath, [join(dir, 'scripts', 'run.cjs'), 'x'], { cwd: dir });
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.on('close', (code) => done({ code, out }));
        }),
    );
    const results = await Promise.all(children);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(results.filter((_, i) => i % 2 === 1).map((r) => r.out.trim())).toEqual(['one folder dep1', 'one folder dep1', 'one folder dep1']);
    expect(reason(dir)).toBe('fresh');
    expect(readdirSync(join(dir, 'dist')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('GIVEN a source that does not compile WHEN built THEN the build fails with the place and no output counts as built', () => {
    build(dir);
    writeFileSync(join(dir, 'lib', 'y.ts'), 'export const y = ;\n');
    expect(() => build(dir)).toThrow(/esbuild failed:\n {2}lib\/y\.ts:1:\d+: /);
    expect(reason(dir)).toBe('lib/y.ts changed');
  });

  test('GIVEN a command the runner ran once WHEN it runs again THEN it starts from the V8 code cache written at exit, its require resolving from dist/, through public Node APIs only', () => {
    writeFileSync(join(dir, 'bin', 'x.ts'), "import { y } from '../lib/y';\nconsole.log(y, require.resolve('dep'), require.main === undefined);\n");
    const first = runner(dir);
    expect(first.stderr).toBe('');
    // require.resolve is left to run time: it resolves from dist/x.js, into the project's node_modules.
    expect(first.stdout.trim()).toBe(`one ${join(dir, 'node_modules', 'dep', 'index.js')} false`);
    const cache = join(dir, 'dist', '.cache');
    const files = readdirSync(cache);
    expect(files).toEqual([expect.stringMatching(new RegExp(`^x-[0-9a-f]{40}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8$`))]);
    const written = statSync(join(cache, files[0])).mtimeMs;
    expect(runner(dir).stdout).toBe(first.stdout);
    // Accepted, so not written again.
    expect(readdirSync(cache)).toEqual(files);
    expect(statSync(join(cache, files[0])).mtimeMs).toBe(written);
    // Module._nodeModulePaths, Module._resolveFilename, process.mainModule and Module.wrap are Node internals or deprecated.
    expect(readFileSync(join(ROOT, 'scripts', 'run.cjs'), 'utf8')).not.toMatch(/Module\._|mainModule|Module\.wrap/);
  });
});
