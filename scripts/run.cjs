#!/usr/bin/env node
// usage: node scripts/run.cjs <command> [args...]
//
// Runs bin/<command>.ts as users type it (`npm run <script>`, cdktf.json's app):
// builds dist/<command>.js first only if its stamp says it is stale (see
// scripts/commands.cjs), then runs in this same process the very bytes whose
// hash it checked, with argv as if `node dist/<command>.js args...` ran. A V8
// code cache (dist/.cache, keyed by the build's id and node's version) saves
// the compile of large bundles on later runs. HOPLAB_FORCE_BUILD=1 rebuilds
// first, as a source change would (the benchmark uses it).
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
    return 2;
  }
  const force = process.env.HOPLAB_FORCE_BUILD === '1';
  let built;
  try {
    built = await commands.ensureBuilt(name, { force });
  } catch (error) {
    process.stderr.write(`hoplab: could not build bin/${name}.ts, so nothing was run: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (built.built && process.stderr.isTTY) {
    process.stderr.write(`(built dist/${name}.js in ${built.built.seconds.toFixed(1)} s: ${built.built.reason})\n`);
  }
  execute(name, built, args, force);
  return undefined;
}

/** Runs the checked bytes as the main program would run, with a code cache. */
function execute(name, { code, id }, args, dropCache) {
  const file = commands.outputPath(name);
  const cacheFile = path.join(commands.CACHE, `${name}-${id}-${process.version}-${process.arch}.v8`);
  let cachedData;
  if (!dropCache) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(Module.wrap(code.toString('utf8')), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written when the command is done, so the functions it compiled are in it.
    process.once('exit', () => saveCodeCache(name, cacheFile, script));
  }
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
    const data = script.createCachedData();
    fs.mkdirSync(commands.CACHE, { recursive: true });
    for (const old of fs.readdirSync(commands.CACHE)) {
      if (old.startsWith(`${name}-`)) fs.rmSync(path.join(commands.CACHE, old), { force: true });
    }
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, cacheFile);
  } catch {
    // A cache is only a speed-up.
  }
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`hoplab: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
