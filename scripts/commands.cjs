// Builds the commands (bin/<name>.ts, bundled by esbuild to dist/<name>.js) only when stale. Used
// by scripts/run.cjs (npm scripts, cdktf.json's app), scripts/build.mjs and the tests. esbuild is
// loaded only to build, so the check needs nothing but node.
//
// Each output ends with a stamp line, and may run while the stamp still matches, by sha1:
// - the output's bytes before the stamp line (an edited output is never run);
// - every project file in the bundle, hashed from the very bytes esbuild was given (onLoad);
// - package.json, tsconfig.json (esbuild reads them), package-lock.json and
//   node_modules/.package-lock.json (npm rewrites it on every install): the lockfiles stand for
//   the bundled node_modules files, which are not hashed one by one;
// - the names in every folder holding a project input, and in an index file's parent folder: the
//   metafile names what an import resolved to, not the candidates esbuild tried first, so a new
//   lib/z.ts next to an imported lib/z/index.ts shows up only here;
// - the recipe: this file and esbuild's version.
// The rest is read before esbuild starts, so a change made during a build shows up. The stamp is
// in the output: one write (temporary file + rename) replaces both, and builds racing each other
// (jest workers, cdktf, a terminal) each leave a whole, self-consistent file.
'use strict';

const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CACHE = path.join(ROOT, 'dist', '.cache');
const CONFIG_FILES = ['package.json', 'tsconfig.json', 'package-lock.json', 'node_modules/.package-lock.json'];
const NOT_SOURCES = new Set(['node_modules', '.git', 'dist', 'cdktf.out', '.hoplab', '.scratch', 'coverage', '.gen', '.terraform']);
const MARK = '\n//# hoplab-stamp ';

// cdktf, constructs and the provider packages marked free of side effects at import (their modules
// only define classes): a command importing a provider class it never uses leaves the provider out
// (explain's bundle 3.8 MB -> 0.9 MB).
const PURE_PACKAGES = /^(?:@cdktf\/provider-[^/]+|cdktf|constructs)(?:\/|$)/;
const pureDependencies = {
  name: 'hoplab-pure-dependencies',
  setup(build) {
    build.onResolve({ filter: PURE_PACKAGES }, async (args) => {
      if (args.pluginData === 'hoplab-pure') return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'hoplab-pure' });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { ...resolved, sideEffects: false };
    });
  },
};

const sha1 = (data) => createHash('sha1').update(data).digest('hex');
const orNull = (fn) => {
  try {
    return fn();
  } catch {
    return null;
  }
};
const read = (rel) => orNull(() => fs.readFileSync(path.resolve(ROOT, rel)));
const hash = (rel) => orNull(() => sha1(fs.readFileSync(path.resolve(ROOT, rel))));
const listing = (rel) => orNull(() => sha1(fs.readdirSync(path.join(ROOT, rel)).sort().join('\n')));

/** The listing of every project folder, taken before a build. */
function projectListings(rel = '.', out = {}) {
  const entries = orNull(() => fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) ?? [];
  out[rel] = sha1(
    entries
      .map((e) => e.name)
      .sort()
      .join('\n'),
  );
  for (const e of entries) if (e.isDirectory() && !NOT_SOURCES.has(e.name)) projectListings(path.posix.join(rel, e.name), out);
  return out;
}

let recipe;
const recipeHash = () => (recipe ??= sha1(Buffer.concat([fs.readFileSync(__filename), read('node_modules/esbuild/package.json') ?? Buffer.alloc(0)])));

/** Every command: the names of bin/*.ts. */
const listCommands = () =>
  fs
    .readdirSync(path.join(ROOT, 'bin'))
    .filter((n) => /(?<!\.d)\.ts$/.test(n))
    .map((n) => n.slice(0, -3))
    .sort();
const outputPath = (name) => path.join(ROOT, 'dist', `${name}.js`);

/** `{ code, id }` (the bytes of dist/<name>.js and their hash) while its stamp matches, else `{ reason }` it must be built. */
function check(name) {
  const code = read(outputPath(name));
  if (code === null) return { reason: 'never built' };
  const at = code.lastIndexOf(MARK);
  const stamp = at < 0 ? null : orNull(() => JSON.parse(code.toString('utf8', at + MARK.length)));
  if (!stamp || sha1(code.subarray(0, at)) !== stamp.code) return { reason: `dist/${name}.js is not the output of its last build` };
  if (stamp.recipe !== recipeHash()) return { reason: 'the build recipe changed' };
  for (const [rel, recorded] of Object.entries(stamp.files)) {
    const now = hash(rel);
    if (now !== recorded) return { reason: `${rel} ${now === null ? 'was deleted' : recorded === null ? 'was added' : 'changed'}` };
  }
  for (const [rel, recorded] of Object.entries(stamp.dirs)) if (listing(rel) !== recorded) return { reason: `a file was added to or removed from ${rel}/` };
  return { code, id: stamp.code };
}

/** Files reachable from `entry` in an esbuild metafile (imports, transitively; externals excluded). */
function reachable(metafile, entry, seen = new Set()) {
  if (seen.has(entry) || !metafile.inputs[entry]) return seen;
  seen.add(entry);
  for (const edge of metafile.inputs[entry].imports) if (!edge.external) reachable(metafile, edge.path, seen);
  return seen;
}

function writeAtomically(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
}

/** Builds dist/<name>.js for each name in one esbuild run; rejects with esbuild's messages (nothing written then). */
async function buildCommands(names) {
  if (names.length === 0) return [];
  const config = Object.fromEntries(CONFIG_FILES.map((rel) => [rel, hash(rel)]));
  const listings = projectListings();
  const loaded = new Map();
  const hashInputs = {
    name: 'hoplab-hash-inputs',
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const rel = path.relative(ROOT, args.path).split(path.sep).join('/');
        if (rel.split('/').includes('node_modules')) return undefined;
        const contents = fs.readFileSync(args.path);
        loaded.set(rel, sha1(contents));
        return { contents, loader: 'default' };
      });
    },
  };
  // Dependencies are bundled: measured, a bundled command starts faster than one resolving hundreds
  // of node_modules files (synth 1.30 vs 1.84 CPU-s, explain 0.55 vs 0.90). No source maps: no
  // command runs with --enable-source-maps. One esbuild run for all names shares the parsing.
  const entryPoints = names.map((name) => `bin/${name}.ts`);
  // jsonc-parser's main is a UMD module that requires its parts through the factory's `require`
  // argument, which esbuild does not follow (the bundle would fail at run time): bundle its ES
  // module build instead, the same code.
  const alias = { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' };
  const options = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'silent', absWorkingDir: ROOT, outdir: 'dist', write: false, metafile: true, alias };
  const result = await require('esbuild')
    .build({ ...options, entryPoints, plugins: [hashInputs, pureDependencies] })
    .catch((error) => {
      const messages = (error.errors ?? []).map((m) => `  ${m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : ''}${m.text}`);
      throw new Error(`esbuild failed:\n${messages.join('\n') || String(error)}`);
    });
  for (const name of names) {
    const output = result.outputFiles.find((f) => f.path === outputPath(name)).contents;
    const stamp = { recipe: recipeHash(), code: sha1(output), files: { ...config }, dirs: {} };
    for (const rel of [...reachable(result.metafile, `bin/${name}.ts`)].filter((r) => loaded.has(r))) {
      stamp.files[rel] = loaded.get(rel);
      const dir = path.posix.dirname(rel);
      // Not the root folder, which builds and synth change (dist/, cdktf.out/). A folder the walk
      // did not list (outside the project, behind a symlink) is listed now.
      for (const d of path.posix.basename(rel).startsWith('index.') ? [dir, path.posix.dirname(dir)] : [dir]) if (d !== '.') stamp.dirs[d] ??= listings[d] ?? listing(d);
    }
    const line = JSON.stringify(stamp).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
    writeAtomically(outputPath(name), Buffer.concat([output, Buffer.from(`${MARK}${line}\n`)]));
  }
  return names;
}

/** dist/<name>.js, built first if stale: `{ code, id, built }` (`built`: why and how long, or undefined). */
async function ensureBuilt(name, { force = false } = {}) {
  const first = force ? { reason: 'forced' } : check(name);
  if (first.code) return first;
  const started = Date.now();
  let result = first;
  // At most twice: a source edited during the first build is built once more.
  for (let attempt = 0; attempt < 2 && !result.code; attempt += 1) {
    await buildCommands([name]);
    result = check(name);
  }
  if (!result.code) throw new Error(`dist/${name}.js is still stale right after a build (${result.reason}); are the sources being edited?`);
  return { ...result, built: { reason: first.reason, seconds: (Date.now() - started) / 1000 } };
}

module.exports = { ROOT, CACHE, listCommands, check, buildCommands, ensureBuilt, outputPath, writeAtomically };
