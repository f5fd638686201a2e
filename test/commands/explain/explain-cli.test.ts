import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExplain } from '../../../lib/commands/explain/explain-cli';
import { FIXTURE_APP } from '../../plumbing/plan/support';

function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = runExplain(argv, { out: (t) => (out += t), err: (t) => (err += t) });
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
    [['--format', 'yaml'], 2, 'explain: --format yaml is not supported; use one of table, markdown, json'],
    [['--nope'], 2, "explain: Unknown option '--nope'"],
    [['--dir', '/nonexistent'], 1, 'explain: no synthesized app at /nonexistent: the directory does not exist; synthesize first with `npm run synth`'],
  ])('%j exits %i with a clear message', (argv, expected, message) => {
    const { code, err, out } = run(...argv);
    expect(code).toBe(expected);
    expect(err).toContain(message);
    expect(out).toBe('');
  });

  test('--format json writes the model to stdout; --diagram writes the files and says so on stderr', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'hoplab-cli-')), 'mmd');
    const { code, out, err } = run('--dir', FIXTURE_APP, '--format', 'json', '--diagram', dir);
    expect(code).toBe(0);
    expect(JSON.parse(out).environments[0].clouds).toHaveLength(2);
    // One per exposure, plus one matrix per cloud.
    expect(err).toBe(`explain: wrote 8 Mermaid diagrams to ${dir}\n`);
    expect(readdirSync(dir)).toHaveLength(8);
  });

  test('--env selects an environment, and an unknown one is an input error', () => {
    expect(run('--dir', FIXTURE_APP, '--env', 'lab').code).toBe(0);
    const { code, err } = run('--dir', FIXTURE_APP, '--env', 'other');
    expect(code).toBe(1);
    expect(err).toContain('explain: no stacks of environment "other"');
  });
});
