import { join } from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runCompare } from '../../../lib/commands/compare/compare-cli';
import { UsageError } from '../../../lib/kit/cli/cli';
import { selectShard } from '../../../lib/lab/selection/shard';
import { fixture } from '../../support/fixtures';

async function run(...argv: string[]) {
  return runWith({}, ...argv);
}

/** Runs compare as bin/compare.ts would with `columns` and `color` (what terminalWidth and colorEnabled said). */
async function runWith(io: { readonly columns?: number; readonly color?: boolean }, ...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCompare(argv, {
    ...io,
    out: (t) => (out += t),
    err: (t) => (err += t),
    progress: { write: () => true, isTTY: false },
    run: async () => ({ code: 1, stderr: 'Error: no state' }),
  });
  return { code, out, err };
}

describe('compare command', () => {
  test('--help prints usage with the JSON shape and exits 0', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out).toContain('usage: npm run compare -- [--outputs FILE]');
    expect(out).toContain('"schema":"hoplab.compare/v1"');
  });

  test.each([
    [['--count', '0'], '--count: "0" is not a whole number from 1 to 1000'],
    [['--concurrency', '500'], '--concurrency: "500" is not a whole number from 1 to 32'],
    [['--timeout', 'soon'], '--timeout: "soon" is not a whole number from 100 to 60000'],
    [['--my-ip', 'me'], '--my-ip: "me" is not an IP address (e.g. 203.0.113.7)'],
    [['--format', 'xml'], '--format: "xml" is not one of table, markdown, json'],
    [['--bogus'], '--bogus: unknown flag'],
  ])('%j is a bad command line (exit 2 through runCli): %s', async (argv, message) => {
    await expect(run(...argv)).rejects.toThrow(new UsageError(message, 'compare'));
  });

  test('a missing outputs file exits 1 with the reason', async () => {
    const { code, err } = await run('--outputs', '/nonexistent/outputs.json');
    expect(code).toBe(1);
    expect(err).toBe('hoplab compare: cannot read outputs file /nonexistent/outputs.json: ENOENT\n');
  });

  test('without --outputs and without a synthesized app it exits 1 and says what to do', async () => {
    const { code, err } = await run('--dir', '/nonexistent');
    expect(code).toBe(1);
    expect(err).toContain('hoplab compare: no /nonexistent/manifest.json: synthesize first (npm run synth), or pass --outputs FILE');
  });

  test('without --outputs and cdktf failing it exits 1 with cdktf’s message', async () => {
    const { code, err } = await run('--dir', fixture('lab'));
    expect(code).toBe(1);
    expect(err).toContain('no ');
  });

  test('--format json without --probe is the outputs side by side', async () => {
    const { code, out } = await run('--outputs', fixture('outputs.json'), '--format', 'json');
    expect(code).toBe(0);
    const model = JSON.parse(out);
    expect(model).toMatchObject({ schema: 'hoplab.compare/v1', probe: null });
    expect(model.environments[0].rows).toHaveLength(3);
  });

  test('GIVEN colour (a TTY without NO_COLOR) THEN the table colours SNAT; GIVEN none, or json THEN no escape code', async () => {
    const coloured = await runWith({ color: true, columns: 120 }, '--outputs', fixture('outputs.json'));
    expect(coloured.out).toContain('\x1b[31mSNAT\x1b[0m');
    expect((await runWith({ columns: 120 }, '--outputs', fixture('outputs.json'))).out).not.toContain('\x1b[');
    expect((await runWith({ color: true }, '--outputs', fixture('outputs.json'), '--format', 'json')).out).not.toContain('\x1b[');
  });
});

describe('compare --shard', () => {
  test('GIVEN outputs of two environments WHEN --shard picks one THEN only that environment is shown', async () => {
    const outputs = readFileSync(fixture('outputs.json'), 'utf8');
    const one = (env: string) => JSON.parse(outputs.replace(/"lab-/g, `"${env}-`));
    const file = join(mkdtempSync(join(tmpdir(), 'hoplab-compare-')), 'outputs.json');
    writeFileSync(file, JSON.stringify({ ...one('ann'), ...one('bob') }));
    const envs = ['ann', 'bob'];
    const [first] = selectShard(envs, { index: 1, total: 2 });
    for (const [k, expected] of [
      [1, first],
      [2, envs.find((e) => e !== first)],
    ] as const) {
      let out = '';
      const code = await runCompare(['--outputs', file, '--format', 'json', '--shard', `${k}/2`], {
        out: (t) => (out += t),
        err: () => undefined,
        progress: { write: () => true, isTTY: false },
        environments: () => envs,
      });
      expect(code).toBe(0);
      expect(JSON.parse(out).environments.map((e: { env: string }) => e.env)).toEqual([expected]);
    }
  });

  test('GIVEN outputs that hold none of the shard’s environments WHEN compare --shard runs THEN exit 1 naming what the shard holds and what the outputs hold (was: a blank line, exit 0)', async () => {
    const envs = ['ann', 'bob', 'cy', 'dee'];
    const first = selectShard(envs, { index: 1, total: 2 });
    const others = envs.filter((e) => !first.includes(e));
    const outputs = readFileSync(fixture('outputs.json'), 'utf8');
    const one = (env: string) => JSON.parse(outputs.replace(/"lab-/g, `"${env}-`));
    const file = join(mkdtempSync(join(tmpdir(), 'hoplab-compare-')), 'outputs.json');
    writeFileSync(file, JSON.stringify(Object.assign({}, ...others.map(one))));
    const compare = async (...argv: string[]) => {
      let out = '';
      let err = '';
      const code = await runCompare(['--outputs', file, ...argv], { out: (t) => (out += t), err: (t) => (err += t), progress: { write: () => true, isTTY: false }, environments: () => envs });
      return { code, out, err };
    };
    for (const argv of [[], ['--room'], ['--format', 'json']]) {
      expect(await compare('--shard', '1/2', ...argv)).toEqual({
        code: 1,
        out: '',
        err: `hoplab compare: shard 1/2 holds none of the outputs' environments (it holds ${first.join(', ')}; the outputs hold ${others.join(', ')})\n`,
      });
    }
    expect(await compare('--shard', '1/2', '--env', others[0])).toEqual({ code: 1, out: '', err: `hoplab compare: shard 1/2 holds none of --env ${others[0]} (it holds ${first.join(', ')})\n` });
  });

  test('GIVEN a bad --shard WHEN run THEN a usage error naming the value', async () => {
    await expect(run('--shard', '3/2')).rejects.toThrow('--shard: "3/2" is not a shard; write K/N with 1 <= K <= N <= 256');
  });
});

describe('compare --env and --room', () => {
  /** The fixture's outputs for environments ann and bob, or others (the fixture's lab renamed). */
  function twoEnvironments(names: readonly [string, string] = ['ann', 'bob']): string {
    const outputs = readFileSync(fixture('outputs.json'), 'utf8');
    const one = (env: string) => JSON.parse(outputs.replace(/"lab-/g, `"${env}-`));
    const file = join(mkdtempSync(join(tmpdir(), 'hoplab-compare-')), 'outputs.json');
    writeFileSync(file, JSON.stringify({ ...one(names[0]), ...one(names[1]) }));
    return file;
  }

  test('GIVEN outputs of ann and bob WHEN --env bob THEN only bob is shown', async () => {
    const { code, out } = await run('--outputs', twoEnvironments(), '--env', 'bob', '--format', 'json');
    expect(code).toBe(0);
    expect(JSON.parse(out).environments.map((e: { env: string }) => e.env)).toEqual(['bob']);
  });

  test('GIVEN --env naming an environment the outputs lack WHEN compare runs THEN exit 1 naming the ones found', async () => {
    const { code, err } = await run('--outputs', twoEnvironments(), '--env', 'bob,cy');
    expect(code).toBe(1);
    expect(err).toBe('hoplab compare: --env cy: no such environment in the outputs; found: ann, bob\n');
  });

  test('GIVEN --room without --probe THEN one row per attendee, a cell per exposure: measured nothing yet, within 80 columns', async () => {
    const { code, out } = await runWith({ columns: 80 }, '--outputs', twoEnvironments(), '--room');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.filter((l) => /^(ann|bob) /.test(l))).toEqual(['ann       ?   ?   ?    ?   ?   ?', 'bob       ?   ?   ?    ?   ?   ?']);
    expect(out).toMatch(/^attendee nat np +loc +nat np +loc$/m);
    expect(out).toContain('? nothing measured yet');
    expect(out).not.toContain('\x1b[');
  });

  test('GIVEN --room and two attendees whose names differ only at the end WHEN drawn in 80 columns THEN each name is whole', async () => {
    const { code, out } = await runWith({ columns: 80 }, '--outputs', twoEnvironments(['london-team-alice-1', 'london-team-alice-2']), '--room');
    expect(code).toBe(0);
    expect(out.split('\n').filter((l) => l.startsWith('london'))).toEqual(['london-team-alice-1  ?   ?   ?    ?   ?   ?', 'london-team-alice-2  ?   ?   ?    ?   ?   ?']);
  });

  test.each([['json'], ['markdown']])('GIVEN --room with --format %s THEN a usage error', async (format) => {
    await expect(run('--outputs', fixture('outputs.json'), '--room', '--format', format)).rejects.toThrow(
      new UsageError(`--room and --format ${format} contradict each other: --room is a view for a terminal; give one of them`),
    );
  });
});

describe('compare --watch', () => {
  test("GIVEN --watch among other arguments WHEN compare runs THEN the watch command gets the others, in order, and its exit code is compare's", async () => {
    const seen: (readonly string[])[] = [];
    const code = await runCompare(['--outputs', 'o.json', '--watch', '--rate', '2'], {
      out: () => undefined,
      err: () => undefined,
      progress: { write: () => true },
      watch: async (argv) => {
        seen.push(argv);
        return 7;
      },
    });
    expect(seen).toEqual([['--outputs', 'o.json', '--rate', '2']]);
    expect(code).toBe(7);
  });

  test('GIVEN no watch command wired in WHEN compare --watch runs THEN a usage error points at npm run watch', async () => {
    await expect(run('--watch')).rejects.toThrow(new UsageError('--watch is not available here; run npm run watch'));
  });

  test('GIVEN --help WHEN compare runs THEN it names --watch and --max-in-flight', async () => {
    const { out } = await run('--help');
    expect(out).toContain('npm run compare -- --watch [watch options]');
    expect(out).toMatch(/\n {2}--max-in-flight N +requests in flight over all exposures together/);
  });
});
