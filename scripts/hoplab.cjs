#!/usr/bin/env node
// usage: hoplab <command> [args...] (package.json "bin", so `npx hoplab explain --format json > x.json`
// works): runs bin/<command>.ts through scripts/run.cjs in this process, exactly as `npm run <command>`
// does, but without npm's banner on stdout, so what a command prints can be redirected or piped as is.
// `hoplab synth` is the app (bin/hoplab.ts, cdktf.json's app); `hoplab --help` lists the commands.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** Command name -> [bin/<file>.ts, one line for --help]. A test holds this list and bin/*.ts together. */
const COMMANDS = {
  synth: ['hoplab', 'validate the config and synthesize every stack into cdktf.out/stacks'],
  local: ['local', 'the embedded default: a real Terraform deploy to a local AWS emulator, then destroy'],
  explain: ['explain', "each exposure's path, hops, client IP, health check and Pod capacity"],
  compare: ['compare', 'deployed environments side by side; --probe measures them, all exposures at once'],
  watch: ['watch', 'live view of the traffic per exposure while attendees change things'],
  handout: ['handout', 'Markdown, a self-contained page and an access card per attendee; an index'],
  progress: ['progress', "each attendee's handout exercises: done, not yet, or could not check"],
  cost: ['cost', 'estimated cost and wall time of deploy and teardown'],
  preflight: ['preflight', 'everything that blocks a deploy, before any spend'],
  deploy: ['deploy', 'preflight, estimate, confirmation, then every stack in dependency order'],
  verify: ['verify', 'after a deploy: no drift, every exposure ready and as claimed; a report'],
  teardown: ['teardown', 'destroys every stack in reverse order, then checks for leftovers'],
  reap: ['reap', "after workshop.expiresAt: teardown, then a search by hoplab's tags"],
  pipeline: ['pipeline', 'writes sharded CI pipelines (GitHub Actions, GitLab CI)'],
  schema: ['schema', 'regenerates schema/hoplab.config.schema.json'],
};

function usage() {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, [, what]]) => `  ${name.padEnd(width)}  ${what}`);
  return [
    'usage: hoplab <command> [args...]   (npx hoplab ... in this repository; npm run <command> -- ... is the same)',
    '',
    'commands:',
    ...lines,
    '',
    "`hoplab <command> --help` shows a command's flags. Only the command's own output goes to stdout,",
    'so `npx hoplab explain --format json > explain.json` writes plain JSON.',
    '',
  ].join('\n');
}

function version() {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version;
}

function main() {
  const [name, ...args] = process.argv.slice(2);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && args[0] !== undefined && Object.hasOwn(COMMANDS, args[0])) {
      process.argv = [process.argv[0], path.join(__dirname, 'run.cjs'), COMMANDS[args[0]][0], '--help'];
      require('./run.cjs');
    } else {
      process.stdout.write(usage());
      // No command is a bad command line (exit 2); asking for help is not.
      if (name === undefined) process.exitCode = 2;
    }
  } else if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
  } else if (!Object.hasOwn(COMMANDS, name)) {
    process.stderr.write(`hoplab: no command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(', ')} (see hoplab --help)\n`);
    process.exitCode = 2;
  } else {
    // scripts/run.cjs reads its command and arguments from process.argv when it loads.
    process.argv = [process.argv[0], path.join(__dirname, 'run.cjs'), COMMANDS[name][0], ...args];
    require('./run.cjs');
  }
}

module.exports = { COMMANDS, usage };

if (require.main === module) main();
