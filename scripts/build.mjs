// `npm run build [-- NAME...] [--force] [--check]`: brings dist/NAME.js up to date for the named
// commands (default: every bin/*.ts), building only the stale ones, and says why each was stale.
// --check builds nothing and exits 1 if one is stale. Commands do not need this first: `node
// scripts/run.cjs NAME` (every npm script) checks and builds the one it runs (scripts/commands.cjs).
import { createRequire } from 'node:module';

const commands = createRequire(import.meta.url)('./commands.cjs');
const args = process.argv.slice(2);
const all = commands.listCommands();
const names = args.filter((a) => !a.startsWith('-'));
const bad = args.find((a) => a.startsWith('-') && a !== '--force' && a !== '--check') ?? names.find((n) => !all.includes(n));
if (bad) {
  console.error(
    `hoplab build: ${bad.startsWith('-') ? `unknown option ${bad}` : `no command ${bad} (bin/${bad}.ts)`}; usage: npm run build -- [NAME...] [--force] [--check]; commands: ${all.join(', ')}`,
  );
  process.exit(2);
}
const wanted = names.length > 0 ? names : all;
const stale = wanted.map((name) => [name, args.includes('--force') ? 'forced' : commands.check(name).reason]).filter(([, reason]) => reason);
const started = Date.now();
if (args.includes('--check')) {
  for (const [name, reason] of stale) console.log(`stale: dist/${name}.js (${reason})`);
  process.exitCode = stale.length > 0 ? 1 : 0;
} else if (stale.length > 0) {
  await commands.buildCommands(stale.map(([name]) => name)).catch((error) => {
    console.error(`hoplab build: ${error.message}`);
    process.exit(1);
  });
  for (const [name, reason] of stale) console.log(`built: dist/${name}.js (${reason})`);
  console.log(`hoplab build: ${stale.length} of ${wanted.length} built in ${((Date.now() - started) / 1000).toFixed(1)} s; the others were up to date`);
}
