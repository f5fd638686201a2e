#!/usr/bin/env node
// usage: node scripts/run.cjs <command> [args...]: runs bin/<command>.ts as users type it (npm
// scripts, cdktf.json's app). Builds dist/<command>.js first only if stale (scripts/commands.cjs),
// then runs in this process the very bytes it checked, argv as for `node dist/<command>.js args...`,
// with a V8 code cache (dist/.cache, keyed by the output's hash and node's version) that saves
// the compile of large bundles. HOPLAB_FORCE_BUILD=1 rebuilds first, as a source change would.
'use strict';

const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const commands = require('./commands.cjs');

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
  const source = Module.wrap(built.code.toString('utf8'));
  built.code = undefined; // 6 MB less at the peak
  const script = new vm.Script(source, { filename: file, cachedData, importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  // Written when the command is done, so the functions it compiled are in it.
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => saveCodeCache(name, cacheFile, script));
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.cache = Module._cache;
  require.main = process.mainModule;
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
