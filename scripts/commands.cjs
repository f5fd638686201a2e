// Builds the commands (every bin/<name>.ts is the command <name>, bundled to
// dist/<name>.js) one at a time, only when stale, and says exactly why one is
// stale. Used by scripts/run.cjs (npm scripts, cdktf.json), scripts/build.mjs
// (`npm run build`), bin/bench.ts and the tests. CommonJS and no dependencies
// at load time, so the up-to-date check costs milliseconds; esbuild is loaded
// only when something must be built.
//
// A build records in dist/.stamps/<name>.json everything its output depends on:
// - the content hash of every project file esbuild loaded, taken from the very
//   bytes esbuild was given (an onLoad plugin reads them), so an edit made while
//   the build runs makes the next check fail instead of being recorded as built;
//   with the file's size, mtime, ctime and inode, so the check hashes only files
//   whose stat changed (git's trick; ctime cannot be set back by hand, and a stat
//   taken less than 2 s after the file's mtime is not trusted: such files are
//   always hashed);
// - size, mtime and inode of every node_modules file bundled, and the hashes of
//   package-lock.json and node_modules/.package-lock.json (npm install/ci; npm
//   gives every installed file the same old mtime, so the lockfiles are what see
//   a new version);
// - the file names in every project folder that held an input (a new file can
//   change what an import resolves to, e.g. lib/x.ts next to lib/x/index.ts);
// - tsconfig.json and package.json (esbuild reads them), and this file (the
//   build recipe) with the esbuild version;
// - the output: a random build id written as its last line, and its stat after
//   the rename. The runner checks the stat and the id in the very bytes it is
//   about to execute, so a missing, edited, or another build's dist/<name>.js
//   never runs as this build.
// Outputs and stamps are written to a temporary name and renamed, so builds
// racing each other (jest workers, cdktf and a terminal) cannot leave a stamp
// that describes another build's output: a mismatch only means one more build.
'use strict';

const { createHash, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const STAMPS = path.join(DIST, '.stamps');
const CACHE = path.join(DIST, '.cache');
const FORMAT = 1;
/** Files esbuild reads besides the inputs it reports. */
const CONFIG_FILES = ['tsconfig.json', 'package.json'];
const LOCK_FILES = ['package-lock.json', 'node_modules/.package-lock.json'];

/**
 * esbuild options of every command. Dependencies are bundled: measured on the
 * 2-core machine, a bundled command starts faster than one that resolves
 * hundreds of node_modules files (synth 1.30 vs 1.84 CPU-s, explain 0.55 vs
 * 0.90, cost 0.33 vs 0.44, deploy --help 1.56 vs 1.84), and the build cost is
 * paid only after a change, for the one command being run. No source maps: no
 * command runs with --enable-source-maps, and they doubled what a build wrote.
 */
const BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'silent',
};

/**
 * cdktf, constructs and the provider packages marked as free of side effects at
 * import: a command that imports a module using a provider class but never uses
 * that class (explain imports constants next to the demo app's Deployment) then
 * leaves the provider out. Their modules only define classes. Measured: explain's
 * bundle 3.8 MB -> 0.9 MB, the same output; synth unchanged (it uses them all).
 */
const PURE_PACKAGES = /^(?:@cdktf\/provider-[^/]+|cdktf|constructs)(?:\/|$)/;
const pureDependencies = {
  name: 'hoplab-pure-dependencies',
  setup(build) {
    build.onResolve({ filter: PURE_PACKAGES }, async (args) => {
      if (args.pluginData === 'hoplab-pure') return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'hoplab-pure' });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { ...resolved, sideEffects: false };
    });
  },
};

const sha1 = (data) => createHash('sha1').update(data).digest('hex');

function readOrNull(file) {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') return null;
    throw error;
  }
}

function hashFileOrNull(rel) {
  const data = readOrNull(path.join(ROOT, rel));
  return data === null ? null : sha1(data);
}

/** A stat worth trusting later: none when the file changed less than 2 s ago (same-tick edits look alike). */
function trustedStat(stat, now = Date.now()) {
  if (now - stat.mtimeMs < 2000 || now - stat.ctimeMs < 2000) return null;
  return [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];
}

const sameStat = (stat, recorded) => recorded !== null && stat.size === recorded[0] && stat.mtimeMs === recorded[1] && stat.ctimeMs === recorded[2] && stat.ino === recorded[3];

/** Fingerprint of a project file: its hash, and its stat if trusted. `null` when missing. */
function fingerprint(rel) {
  const file = path.join(ROOT, rel);
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const data = readOrNull(file);
  if (data === null) return null;
  const after = fs.statSync(file);
  return { hash: sha1(data), stat: sameStat(after, [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino]) ? trustedStat(stat) : null };
}

/** Whether a project file still has the recorded content (stat first, hash when the stat differs). */
function unchanged(rel, recorded) {
  let stat;
  try {
    stat = fs.statSync(path.join(ROOT, rel));
  } catch {
    return recorded === null;
  }
  if (recorded === null) return false;
  if (sameStat(stat, recorded.stat)) return true;
  return hashFileOrNull(rel) === recorded.hash;
}

function listingHash(rel) {
  try {
    return sha1(fs.readdirSync(path.join(ROOT, rel)).sort().join('\n'));
  } catch {
    return null;
  }
}

/** Folders never holding a command's sources. */
const NOT_SOURCES = new Set(['node_modules', '.git', 'dist', 'cdktf.out', '.hoplab', '.scratch', 'coverage', '.gen']);

/** Listing hashes of every project folder that could hold a source, taken before a build. */
function projectListings() {
  const listings = {};
  const walk = (rel) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true });
    } catch {
      return;
    }
    listings[rel] = sha1(
      entries
        .map((e) => e.name)
        .sort()
        .join('\n'),
    );
    for (const entry of entries) {
      if (entry.isDirectory() && !(rel === '.' && NOT_SOURCES.has(entry.name)) && entry.name !== 'node_modules') {
        walk(rel === '.' ? entry.name : `${rel}/${entry.name}`);
      }
    }
  };
  walk('.');
  return listings;
}

let recipe;
/** Hash of the build recipe: this file and the esbuild version. */
function recipeHash() {
  if (recipe === undefined) {
    const esbuildPackage = readOrNull(path.join(ROOT, 'node_modules', 'esbuild', 'package.json'));
    recipe = sha1(Buffer.concat([fs.readFileSync(__filename), esbuildPackage ?? Buffer.alloc(0)]));
  }
  return recipe;
}

/** Every command: the names of bin/*.ts. */
function listCommands() {
  return fs
    .readdirSync(path.join(ROOT, 'bin'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => name.slice(0, -3))
    .sort();
}

const outputPath = (name) => path.join(DIST, `${name}.js`);
const stampPath = (name) => path.join(STAMPS, `${name}.json`);

function readStamp(name) {
  const text = readOrNull(stampPath(name));
  if (text === null) return undefined;
  try {
    return JSON.parse(text.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why dist/<name>.js must be built before it may run, or undefined when its
 * stamp still describes every input. Does not look at the output itself: the
 * caller compares the output's hash with `stamp.output` (see `freshOutput`).
 */
function staleReason(name, stamp = readStamp(name)) {
  if (!stamp) return 'never built';
  if (stamp.format !== FORMAT || stamp.recipe !== recipeHash()) return 'the build recipe changed';
  for (const [rel, recorded] of Object.entries(stamp.config)) {
    if (!unchanged(rel, recorded)) return `${rel} changed`;
  }
  for (const [rel, recorded] of Object.entries(stamp.locks)) {
    if (!unchanged(rel, recorded)) return `${rel} changed (dependencies)`;
  }
  for (const [rel, recorded] of Object.entries(stamp.sources)) {
    if (!unchanged(rel, recorded)) return fs.existsSync(path.join(ROOT, rel)) ? `${rel} changed` : `${rel} was deleted`;
  }
  for (const [rel, hash] of Object.entries(stamp.dirs)) {
    if (listingHash(rel) !== hash) return `a file was added to or removed from ${rel}/`;
  }
  for (const [rel, [size, mtimeMs, ino]] of Object.entries(stamp.packages)) {
    let stat;
    try {
      stat = fs.statSync(path.join(ROOT, rel));
    } catch {
      return `${rel} was deleted`;
    }
    if (stat.size !== size || stat.mtimeMs !== mtimeMs || stat.ino !== ino) return `${rel} changed`;
  }
  return undefined;
}

/** The last line of every output: the id of the build that wrote it. */
const trailer = (id) => `\n//# hoplab-build ${id}\n`;

/**
 * The bytes of dist/<name>.js if they are what the stamp says was built from
 * the current inputs, else undefined (with the reason in `why.reason`).
 */
function freshOutput(name, why = {}) {
  const stamp = readStamp(name);
  const reason = staleReason(name, stamp);
  if (reason) {
    why.reason = reason;
    return undefined;
  }
  const file = outputPath(name);
  let code;
  let stat;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      stat = fs.fstatSync(fd);
      code = fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    why.reason = `dist/${name}.js is missing`;
    return undefined;
  }
  const end = trailer(stamp.output.id);
  if (!sameStat(stat, stamp.output.stat) || code.length !== stamp.output.size || code.toString('latin1', code.length - end.length) !== end) {
    why.reason = `dist/${name}.js is not the output of its last build`;
    return undefined;
  }
  return { code, id: stamp.output.id };
}

function writeAtomically(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
}

const isPackageFile = (rel) => rel.split(/[\\/]/).includes('node_modules');

/** Files reachable from `entry` in an esbuild metafile (its imports, transitively; externals excluded). */
function reachable(metafile, entry) {
  const seen = new Set();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file) || !metafile.inputs[file]) continue;
    seen.add(file);
    for (const edge of metafile.inputs[file].imports) {
      if (!edge.external) stack.push(edge.path);
    }
  }
  return [...seen];
}

/**
 * Builds dist/<name>.js for each name (one esbuild run, shared parsing) and
 * writes each output and then its stamp. Resolves with the built names; rejects
 * with esbuild's messages when a build fails (nothing is written then).
 */
async function buildCommands(names) {
  if (names.length === 0) return [];
  // Taken before esbuild reads anything: a change made during the build leaves these stale.
  const config = Object.fromEntries(CONFIG_FILES.map((rel) => [rel, fingerprint(rel)]));
  const locks = Object.fromEntries(LOCK_FILES.map((rel) => [rel, fingerprint(rel)]));
  const listings = projectListings();
  const loaded = new Map();
  const recordLoads = {
    name: 'hoplab-record-inputs',
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const rel = path.relative(ROOT, args.path);
        if (isPackageFile(rel)) return undefined;
        const fd = fs.openSync(args.path, 'r');
        try {
          const before = fs.fstatSync(fd);
          const contents = fs.readFileSync(fd);
          const after = fs.statSync(args.path);
          const stable = after.ino === before.ino && after.size === contents.length && after.mtimeMs === before.mtimeMs && after.ctimeMs === before.ctimeMs;
          loaded.set(rel.split(path.sep).join('/'), { hash: sha1(contents), stat: stable ? trustedStat(before) : null });
          return { contents, loader: 'default' };
        } finally {
          fs.closeSync(fd);
        }
      });
    },
  };
  const esbuild = require('esbuild');
  let result;
  try {
    result = await esbuild.build({
      ...BUILD_OPTIONS,
      absWorkingDir: ROOT,
      entryPoints: names.map((name) => `bin/${name}.ts`),
      outdir: 'dist',
      write: false,
      metafile: true,
      plugins: [recordLoads, pureDependencies],
    });
  } catch (error) {
    const messages = (error.errors ?? []).map((m) => `  ${m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : ''}${m.text}`);
    throw new Error(`esbuild failed:\n${messages.join('\n') || String(error)}`);
  }
  for (const name of names) {
    const output = result.outputFiles.find((f) => path.relative(DIST, f.path) === `${name}.js`);
    const inputs = reachable(result.metafile, `bin/${name}.ts`);
    const sources = {};
    const packages = {};
    const dirs = {};
    for (const rel of inputs) {
      if (isPackageFile(rel)) {
        const stat = fs.statSync(path.join(ROOT, rel));
        packages[rel] = [stat.size, stat.mtimeMs, stat.ino];
      } else if (loaded.has(rel)) {
        sources[rel] = loaded.get(rel);
        const dir = path.posix.dirname(rel);
        // The listing from before the build, so a file added while it ran shows up as a change.
        if (!(dir in dirs)) dirs[dir] = listings[dir] ?? listingHash(dir);
      }
    }
    const id = `${Date.now().toString(36)}-${randomBytes(8).toString('hex')}`;
    const code = Buffer.concat([output.contents, Buffer.from(trailer(id), 'latin1')]);
    writeAtomically(outputPath(name), code);
    const stat = fs.statSync(outputPath(name));
    const stamp = { format: FORMAT, recipe: recipeHash(), output: { id, size: code.length, stat: [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino] }, config, locks, sources, dirs, packages };
    writeAtomically(stampPath(name), JSON.stringify(stamp));
  }
  return names;
}

/**
 * dist/<name>.js, built first if stale. Resolves with its verified bytes and
 * hash, and what was done (`built`: the reason, or undefined).
 */
async function ensureBuilt(name, { force = false } = {}) {
  const why = {};
  let fresh = force ? undefined : freshOutput(name, why);
  if (fresh) return { ...fresh, built: undefined };
  const started = Date.now();
  await buildCommands([name]);
  fresh = freshOutput(name, why);
  if (!fresh) {
    // Changed again while it was being built: once more, from what is there now.
    await buildCommands([name]);
    fresh = freshOutput(name, why);
    if (!fresh) throw new Error(`dist/${name}.js is still stale right after a build (${why.reason}); are the sources being edited?`);
  }
  return { ...fresh, built: { reason: force ? 'forced' : why.reason ?? 'stale', seconds: (Date.now() - started) / 1000 } };
}

module.exports = { ROOT, DIST, CACHE, BUILD_OPTIONS, listCommands, staleReason, freshOutput, buildCommands, ensureBuilt, outputPath };
