// `npm test [-- JEST_ARGS...]`: the type check (tsc --noEmit) and jest at the same
// time rather than one after the other: the emulator suites mostly wait, so the
// type check's CPU seconds fit beside them. The type check's output is printed
// when jest is done; the exit code is non-zero if either failed.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const started = Date.now();

const tsc = new Promise((resolve) => {
  const child = spawn(bin('tsc'), ['--noEmit', '-p', '.'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  child.on('error', (error) => resolve({ code: 1, out: `could not run tsc: ${error.message}\n`, seconds: 0 }));
  child.on('close', (code) => resolve({ code, out, seconds: (Date.now() - started) / 1000 }));
});
const jest = new Promise((resolve) => {
  const child = spawn(bin('jest'), process.argv.slice(2), { cwd: root, stdio: 'inherit' });
  child.on('error', () => resolve(1));
  child.on('close', (code) => resolve(code));
});

const [typeCheck, jestCode] = await Promise.all([tsc, jest]);
process.stdout.write(typeCheck.out);
console.log(`type check (tsc --noEmit): ${typeCheck.code === 0 ? 'passed' : 'FAILED'} in ${typeCheck.seconds.toFixed(1)} s; npm test took ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = typeCheck.code !== 0 ? typeCheck.code || 1 : jestCode ?? 1;
