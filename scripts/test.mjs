// `npm test [-- JEST_ARGS...]`: the type check (tsc --noEmit), the linter and formatter check
// (`npm run lint`) and jest at the same time
// rather than one after the other. The type check's and the linter's output are printed when
// jest is done; the exit code is non-zero if anything failed.
//
// `npm run test:unit [-- JEST_ARGS...]` (`--unit`): the same quick loop without the emulator
// project: type check, lint and jest's `unit` project with two workers.
//
// Without jest arguments, `npm test` runs jest as two processes side by side:
// - `emulator` (test/emulator), four workers, the slowest files first
//   (test/sequencer.cjs), so the longest Terraform flows start at once and the short
//   ones fill in after. Four flows keep both cores busy; eight at once measured no
//   faster (the run is bound by the CPU time of Terraform's provider start-ups) and
//   stretched every flow towards its timeouts. It runs at a lower CPU priority
//   (nice 10), and so do its Terraform, provider and moto processes, which inherit it.
// - `unit`, two workers (the machine's two cores) at normal priority: its tests
//   that time loopback servers (compare --probe, the GCP leftover timeouts) get the
//   CPU when they need it, and the emulator flows, which mostly wait and are not
//   timed, take what is left. In one jest process the two projects share workers
//   and priority, and eight Terraform flows starving a 300 ms timeout would fail it.
// With jest arguments (`npm test -- test/some/file.test.ts`), one jest runs them.
// HOPLAB_JEST_WORKERS sets the emulator workers, HOPLAB_UNIT_WORKERS the unit ones.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;

/** Runs a command with its output kept; resolves with its exit code, output and wall seconds since the start. */
const captured = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', (error) => resolve({ code: 1, out: `could not run ${command}: ${error.message}\n`, seconds: elapsed() }));
    child.on('close', (code) => resolve({ code, out, seconds: elapsed() }));
  });

/** The type check of everything tsconfig.json includes (bin, lib, test, scripts). */
const typeCheck = captured(bin('tsc'), ['--noEmit', '-p', '.']);

/** The linter and the formatter's check, as `npm run lint` runs them. */
const lint = captured(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '-s', 'lint']);

/** Runs jest with `args`; resolves with its exit code and wall seconds. `nice` lowers its priority (and its children's). */
const jest = (args, nice = 0) =>
  new Promise((resolve) => {
    const child = spawn(bin('jest'), args, { cwd: root, stdio: 'inherit' });
    if (nice && child.pid) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // Not allowed here: it runs at normal priority, as before.
      }
    }
    child.on('error', () => resolve({ code: 1, seconds: 0 }));
    child.on('close', (code) => resolve({ code, seconds: elapsed() }));
  });

const argv = process.argv.slice(2);
const unitOnly = argv[0] === '--unit';
const jestArgs = unitOnly ? argv.slice(1) : argv;
const unitWorkers = process.env.HOPLAB_UNIT_WORKERS || '2';
const runs = unitOnly
  ? [jest(['--selectProjects', 'unit', '--maxWorkers', unitWorkers, ...jestArgs])]
  : jestArgs.length > 0
  ? [jest(jestArgs)]
  : [jest(['--selectProjects', 'emulator', '--maxWorkers', process.env.HOPLAB_JEST_WORKERS || '4'], 10), jest(['--selectProjects', 'unit', '--maxWorkers', unitWorkers])];

const [types, linted, ...results] = await Promise.all([typeCheck, lint, ...runs]);
process.stdout.write(types.out);
process.stdout.write(linted.out);
if (results.length > 1) {
  console.log(
    `jest: emulator project ${results[0].code === 0 ? 'passed' : 'FAILED'} in ${results[0].seconds.toFixed(1)} s, unit project ${
      results[1].code === 0 ? 'passed' : 'FAILED'
    } in ${results[1].seconds.toFixed(1)} s`,
  );
} else if (unitOnly) {
  console.log(`jest: unit project ${results[0].code === 0 ? 'passed' : 'FAILED'} in ${results[0].seconds.toFixed(1)} s`);
}
const lintLine = `lint (npm run lint): ${linted.code === 0 ? 'passed' : 'FAILED'} in ${linted.seconds.toFixed(1)} s`;
console.log(
  `type check (tsc --noEmit): ${types.code === 0 ? 'passed' : 'FAILED'} in ${types.seconds.toFixed(1)} s; ${lintLine}; ${unitOnly ? 'npm run test:unit' : 'npm test'} took ${elapsed().toFixed(1)} s`,
);
const failed = [types, linted, ...results].find((r) => r.code !== 0);
process.exitCode = failed ? failed.code || 1 : 0;
