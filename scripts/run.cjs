#!/usr/bin/env node
// usage: node scripts/run.cjs <command> [args...]: runs bin/<command>.ts as users type it (npm
// scripts, cdktf.json's app). Builds dist/<command>.js first only if stale (scripts/commands.cjs),
// then runs in this process the very bytes it checked, argv as for `node dist/<command>.js args...`,
// with a V8 code cache (dist/.cache, keyed by the output's hash and node's version) that saves
// the compile of large bundles. HOPLAB_FORCE_BUILD=1 rebuilds first, as a source change would.
//
// Public Node APIs only (vm.Script's cachedData, module.createRequire), the same on Node 20, 22,
// 24 and 26. Node's own compile cache (module.enableCompileCache, Node 22.8+) was measured in its
// place on Node 24 and is slower here: it serializes a module's code right after compiling it,
// before it runs, so a bundle's lazily compiled functions (esbuild's module bodies, nearly all of
// it) are compiled again on every run; this cache is written at exit, with every function the
// command ran (CONTRIBUTING.md, How commands are built, has the figures).
'use strict';

const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const commands = require('./commands.cjs');

/** The CommonJS module wrapper, as Node's loader writes it. */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

async function main() {
  const [name, ...args] = process.argv.slice(2);
  if (!name || !/^[a-z0-9][a-z0-9-]*$/.test(name) || !fs.existsSync(path.join(commands.ROOT, 'bin', `${name}.ts`))) {
    process.stderr.write(`hoplab: no command ${JSON.stringify(name ?? '')}; commands (bin/*.ts): ${commands.listCommands().join(', ')}\nusage: node scripts/run.cjs <command> [args...]\n`);
    process.exitCode = 2;
    return;
  }
  const force = process.env.HOPLAB_FORCE_BUILD === '1';
  let built;
  try {
    built = await commands.ensureBuilt(name, { force });
  } catch (error) {
    process.stderr.write(`hoplab: could not build bin/${name}.ts, so nothing was run: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    return;
  }
  if (built.built && process.stderr.isTTY) process.stderr.write(`(built dist/${name}.js in ${built.built.seconds.toFixed(1)} s: ${built.built.reason})\n`);
  const file = commands.outputPath(name);
  const cacheFile = path.join(commands.CACHE, `${name}-${built.id}-${process.version}-${process.arch}.v8`);
  let cachedData;
  try {
    if (!force) cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet.
  }
  const source = `${WRAPPER[0]}${built.code.toString('utf8')}${WRAPPER[1]}`;
  built.code = undefined; // 6 MB less at the peak
  const script = new vm.Script(source, { filename: file, cachedData, importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  // Written when the command is done, so the functions it compiled are in it.
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => saveCodeCache(name, cacheFile, script));
  // The module the bundle runs as, made with public APIs only: createRequire resolves from dist/
  // as a require() of dist/<name>.js would (its .main is this process's main module).
  const require = Module.createRequire(file);
  const module = { exports: {}, id: file, filename: file, loaded: false, require };
  process.argv = [process.argv[0], file, ...args];
  script.runInThisContext().call(module.exports, module.exports, require, module, file, path.dirname(file));
}

function saveCodeCache(name, cacheFile, script) {
  try {
    commands.writeAtomically(cacheFile, script.createCachedData());
    for (const old of fs.readdirSync(commands.CACHE)) if (old.startsWith(`${name}-`) && old !== path.basename(cacheFile)) fs.rmSync(path.join(commands.CACHE, old), { force: true });
  } catch {
    // A cache is only a speed-up.
  }
}

main().catch((error) => {
  process.stderr.write(`hoplab: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
