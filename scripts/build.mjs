// `npm run build [-- NAME...] [--force] [--check]`: brings dist/NAME.js up to date for
// the named commands (default: every bin/*.ts), building only the stale ones, and
// says why each was stale. --check builds nothing and exits 1 if one is stale.
// Commands do not need this first: `node scripts/run.cjs NAME` (every npm script)
// checks and builds the one command it runs. See scripts/commands.cjs.
import { createRequire } from 'node:module';

const commands = createRequire(import.meta.url)('./commands.cjs');
const args = process.argv.slice(2);
const force = args.includes('--force');
const check = args.includes('--check');
const unknown = args.filter((a) => a.startsWith('-') && a !== '--force' && a !== '--check');
const all = commands.listCommands();
const names = args.filter((a) => !a.startsWith('-'));
const missing = names.filter((n) => !all.includes(n));
if (unknown.length > 0 || missing.length > 0) {
  console.error(
    `hoplab build: ${
      unknown.length > 0 ? `unknown option ${unknown[0]}` : `no command ${missing[0]} (bin/${missing[0]}.ts)`
    }; usage: npm run build -- [NAME...] [--force] [--check]; commands: ${all.join(', ')}`,
  );
  process.exit(2);
}
const wanted = names.length > 0 ? names : all;
const stale = [];
for (const name of wanted) {
  const why = {};
  if (force || !commands.freshOutput(name, why)) stale.push([name, force ? 'forced' : why.reason]);
}
if (check) {
  for (const [name, reason] of stale) console.log(`stale: dist/${name}.js (${reason})`);
  process.exit(stale.length > 0 ? 1 : 0);
}
if (stale.length > 0) {
  const started = Date.now();
  try {
    await commands.buildCommands(stale.map(([name]) => name));
  } catch (error) {
    console.error(`hoplab build: ${error.message}`);
    process.exit(1);
  }
  for (const [name, reason] of stale) console.log(`built: dist/${name}.js (${reason})`);
  console.log(`hoplab build: ${stale.length} of ${wanted.length} built in ${((Date.now() - started) / 1000).toFixed(1)} s; the others were up to date`);
}
