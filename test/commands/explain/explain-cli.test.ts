import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExplain } from '../../../lib/commands/explain/explain-cli';
import { UsageError } from '../../../lib/kit/cli/cli';
import { fixture } from '../../support/fixtures';
import { FIXTURE_APP } from '../../lab/anatomy/support';

function run(...argv: string[]) {
  return runWith({}, ...argv);
}

/** Runs explain as bin/explain.ts would with `columns` and `color` (what terminalWidth and colorEnabled said). */
function runWith(io: { readonly columns?: number; readonly color?: boolean }, ...argv: string[]) {
  let out = '';
  let err = '';
  const code = runExplain(argv, { ...io, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('explain command', () => {
  test('--help prints usage with the JSON shape and exits 0', () => {
    const { code, out } = run('--help');
    expect(code).toBe(0);
    expect(out).toContain('usage: npm run explain -- [--dir DIR]');
    expect(out).toContain('"schema":"hoplab.explain/v1"');
  });

  test.each([
    [['--format', 'yaml'], '--format: "yaml" is not one of table, markdown, json, html'],
    [['--nope'], '--nope: unknown flag'],
    [['--exposure', 'nodeport-locl'], '--exposure: "nodeport-locl" is not one of native, gateway, nodeport, nodeport-l4, nodeport-local, native-l4'],
    [['--details', '--format', 'markdown'], '--details is for --format table (markdown, json and html always have every detail)'],
  ])('%j is a bad command line (exit 2 through runCli): %s', (argv, message) => {
    expect(() => run(...argv)).toThrow(new UsageError(message));
  });

  test('GIVEN a --dir with no synthesized app THEN exit 1 with a clear message', () => {
    const { code, err, out } = run('--dir', '/nonexistent');
    expect(code).toBe(1);
    expect(err).toContain('hoplab explain: no synthesized app at /nonexistent: the directory does not exist; synthesize first with `npm run synth`');
    expect(out).toBe('');
  });

  test('--format json writes the model to stdout; --diagram writes the files and says so on stderr', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hoplab-cli-')), 'mmd');
    const { code, out, err } = run('--dir', FIXTURE_APP, '--format', 'json', '--diagram', dir);
    expect(code).toBe(0);
    expect(JSON.parse(out).environments[0].clouds).toHaveLength(2);
    // One per exposure, plus one matrix per cloud.
    expect(err).toBe(`hoplab explain: wrote 8 Mermaid diagrams to ${dir}\n`);
    expect(readdirSync(dir)).toHaveLength(8);
  });

  test('--env selects an environment, and an unknown one is an input error', () => {
    expect(run('--dir', FIXTURE_APP, '--env', 'lab').code).toBe(0);
    const { code, err } = run('--dir', FIXTURE_APP, '--env', 'other');
    expect(code).toBe(1);
    expect(err).toContain('hoplab explain: no stacks of environment "other"');
  });

  test('GIVEN an app of three environments WHEN --env names two THEN those two, in the app’s order; one it lacks is an input error naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-explain-envs-'));
    for (const env of ['ann', 'bob', 'cy']) {
      for (const stack of ['aws-cluster', 'aws-lb']) cpSync(join(FIXTURE_APP, 'stacks', `lab-${stack}`), join(dir, 'stacks', `${env}-${stack}`), { recursive: true });
    }
    const { code, out } = run('--dir', dir, '--env', 'cy,ann', '--format', 'json');
    expect(code).toBe(0);
    expect(JSON.parse(out).environments.map((e: { env: string }) => e.env)).toEqual(['ann', 'cy']);
    expect(run('--dir', dir, '--env', 'ann,zed')).toEqual({ code: 1, out: '', err: `hoplab explain: no stacks of environment "zed" in ${dir}; found: ann (aws), bob (aws), cy (aws)\n` });
  });

  test('GIVEN no width THEN the view fits 80 columns; GIVEN 60 THEN 60; no colour unless asked', () => {
    for (const [columns, width] of [
      [undefined, 80],
      [60, 60],
    ] as const) {
      const { code, out } = runWith(columns === undefined ? {} : { columns }, '--dir', FIXTURE_APP);
      expect(code).toBe(0);
      expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(width);
      expect(out).not.toContain('\x1b[');
    }
    expect(runWith({ color: true }, '--dir', FIXTURE_APP, '--exposure', 'nodeport').out).toContain('\x1b[31mSNAT\x1b[0m');
  });

  test('GIVEN --exposure of a mode the lab leaves out THEN exit 1 naming the ones found', () => {
    const { code, err } = run('--dir', FIXTURE_APP, '--exposure', 'gateway');
    expect(code).toBe(1);
    expect(err).toBe(`hoplab explain: no environment in ${FIXTURE_APP} has exposure gateway; found: native, nodeport, nodeport-local\n`);
  });

  test('GIVEN --format html --out FILE THEN one self-contained page with a picture per exposure and per cloud, no colour codes even on a terminal', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hoplab-cli-')), 'sub', 'explain.html');
    const { code, out, err } = runWith({ color: true }, '--dir', FIXTURE_APP, '--format', 'html', '--out', file, '--outputs', fixture('outputs.json'));
    expect(code).toBe(0);
    expect(out).toBe('');
    expect(err).toBe(`hoplab explain: wrote ${file}\n`);
    const page = readFileSync(file, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    // Three exposures per cloud and one overview per cloud.
    expect(page.match(/<svg /g)).toHaveLength(8);
    expect(page).toContain('http://35.192.55.66/');
    expect(page).not.toContain('\x1b[');
  });

  test('GIVEN --outputs that cannot be read THEN exit 1 with the reason', () => {
    const { code, err } = run('--dir', FIXTURE_APP, '--outputs', '/nonexistent/outputs.json');
    expect(code).toBe(1);
    expect(err).toBe('hoplab explain: cannot read outputs file /nonexistent/outputs.json: ENOENT\n');
  });

  test('GIVEN --out in a place that cannot be written THEN exit 1 with the reason', () => {
    // A folder where a file is: mkdir fails (EEXIST), as a read-only or missing mount would with its own code.
    const blocker = join(mkdtempSync(join(tmpdir(), 'hoplab-cli-')), 'a-file');
    writeFileSync(blocker, '');
    const { code, err } = run('--dir', FIXTURE_APP, '--format', 'html', '--out', join(blocker, 'explain.html'));
    expect(code).toBe(1);
    expect(err).toBe(`hoplab explain: cannot write ${join(blocker, 'explain.html')}: EEXIST\n`);
  });
});
