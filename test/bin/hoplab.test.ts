/**
 * The package's `hoplab` bin (scripts/hoplab.cjs): `npx hoplab <command>` runs bin/<command>.ts
 * with only the command's output on stdout, and `hoplab --help` lists every command.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const HOPLAB = join(ROOT, 'scripts', 'hoplab.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is CommonJS, as npm runs it
const { COMMANDS } = require(HOPLAB) as { COMMANDS: Record<string, [string, string]> };

const run = (...args: string[]) => spawnSync(process.execPath, [HOPLAB, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('hoplab bin', () => {
  test('GIVEN package.json WHEN npm links bins THEN hoplab is scripts/hoplab.cjs and every bin/*.ts is one of its commands', () => {
    expect((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: unknown }).bin).toEqual({ hoplab: 'scripts/hoplab.cjs' });
    const bins = readdirSync(join(ROOT, 'bin'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3))
      .sort();
    expect(
      Object.values(COMMANDS)
        .map(([bin]) => bin)
        .sort(),
    ).toEqual(bins);
  });

  test('GIVEN --help WHEN run THEN every command is listed and it exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  test.each([
    [[], 2, /^usage: hoplab <command>/],
    [['nope'], 2, /^$/],
  ])('GIVEN %j WHEN run THEN it exits %i', (args, status, stdout) => {
    const result = run(...args);
    expect(result.status).toBe(status);
    expect(result.stdout).toMatch(stdout);
  });

  test('GIVEN cost --format json WHEN run through the bin THEN stdout is only the JSON', () => {
    const result = run('cost', '--format', 'json');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ time: { deploy: expect.any(Object), teardown: expect.any(Object) } });
  });
});
