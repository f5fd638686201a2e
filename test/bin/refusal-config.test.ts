/**
 * Every command that reads the config says, when it refuses, which config file it read, or that
 * none was found and the defaults apply: a CI job run without the committed config is otherwise
 * refused for what the defaults lack (a placeholder project, a local backend), never naming the
 * missing file. The built commands run as users run them, in a folder with no config or with one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const HOPLAB = join(ROOT, 'scripts', 'hoplab.cjs');
const COMMANDS = ['deploy', 'teardown', 'pipeline', 'preflight', 'verify', 'cost', 'handout', 'progress'];

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', ...COMMANDS], { cwd: ROOT });
});

/** Runs `npx hoplab <args>` in `cwd` with `env` added (no credentials asked: every refusal here comes first). */
const run = (cwd: string, args: string[], env: Record<string, string> = {}) => {
  // The config is only what the test puts there: none of the machine's HOPLAB_CONFIG.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'HOPLAB_CONFIG'));
  const result = spawnSync(process.execPath, [HOPLAB, ...args], { cwd, encoding: 'utf8', env: { ...inherited, NO_COLOR: '1', ...env } });
  return { code: result.status, lines: result.stderr.trimEnd().split('\n') };
};

describe('a refusal says which config it judged', () => {
  const empty = realpathSync(mkdtempSync(join(tmpdir(), 'hoplab-no-config-')));
  const none = `no config file found (no hoplab.config.json, hoplab.config.yaml or hoplab.config.yml in ${empty}, and HOPLAB_CONFIG is not set): the defaults apply`;

  test.each([
    ['deploy', ['deploy', '--yes'], 1, 'hoplab: deploy refused before anything ran: 2 problems, fix all of them:'],
    [
      'teardown',
      ['teardown', '--yes'],
      1,
      'hoplab: gcp.project is "hoplab-demo", a placeholder that lets the lab synthesize without config; set gcp.project to your Google Cloud project ID, or add --stacks aws-cluster,aws-lb',
    ],
    ['pipeline', ['pipeline', '--github-actions', '--shards', '2'], 1, 'hoplab pipeline: nothing written:'],
    ['verify', ['verify', '--shard', '1/2'], 1, expect.stringMatching(/^hoplab: --shard 1\/2: backend\.type is "local"/)],
    ['preflight', ['preflight', '--env', 'ann'], 2, 'hoplab preflight: --env: "ann" not in this config; environments: lab (see npx hoplab preflight --help)'],
    ['cost', ['cost', '--env', 'ann'], 2, 'hoplab cost: --env: "ann" not in this config; environments: lab (see npx hoplab cost --help)'],
    ['handout', ['handout', '--env', 'ann'], 2, 'hoplab handout: --env: "ann" not in this config; environments: lab (see npx hoplab handout --help)'],
    ['progress', ['progress', '--env', 'nobody'], 2, 'hoplab progress: --env: "nobody" not in this config; environments: lab (see npx hoplab progress --help)'],
  ])('GIVEN no config file WHEN %s refuses THEN its last line says none was found and the defaults apply', (command, args, code, first) => {
    const result = run(empty, args as string[]);
    expect(result.code).toBe(code);
    expect(result.lines[0]).toEqual(first);
    expect(result.lines.at(-1)).toBe(`hoplab ${command}: ${none}`);
  });

  test('GIVEN no config file WHEN verify finds nothing deployed and exits 1 with its report THEN the last line says so too', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hoplab-no-config-verify-')));
    const result = run(dir, ['verify', '--stacks', 'aws-cluster']);
    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toBe(`hoplab verify: ${none.replace(empty, dir)}`);
  });

  test.each(['handout', 'progress'])(
    'GIVEN no config file and outputs of ann and bob WHEN %s runs THEN it names the environments the outputs hold and that the config (the defaults) names lab, then that no config was found',
    (command) => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), `hoplab-no-config-${command}-`)));
      const lab = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'outputs.json'), 'utf8')) as Record<string, unknown>;
      const outputs = Object.fromEntries(['ann', 'bob'].flatMap((env) => Object.entries(lab).map(([stack, values]) => [stack.replace(/^lab-/, `${env}-`), values])));
      writeFileSync(join(dir, 'outputs.json'), JSON.stringify(outputs));
      const result = run(dir, [command, '--outputs', 'outputs.json']);
      expect([result.code, result.lines]).toEqual([
        1,
        [
          `hoplab ${command}: outputs.json holds environments ann, bob; the config names none of them (it names lab): run where the config that deployed them is, or point HOPLAB_CONFIG at it`,
          `hoplab ${command}: ${none.replace(empty, dir)}`,
        ],
      ]);
    },
  );

  test('GIVEN a config file WHEN a command refuses THEN it names the file read', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hoplab-config-')));
    writeFileSync(join(dir, 'hoplab.config.yaml'), 'attendees: [ann, bob]\n');
    const result = run(dir, ['cost', '--env', 'cy']);
    expect([result.code, result.lines]).toEqual([
      2,
      ['hoplab cost: --env: "cy" not in this config; environments: ann, bob (see npx hoplab cost --help)', `hoplab cost: config read: ${join(dir, 'hoplab.config.yaml')}`],
    ]);
  });

  test('GIVEN HOPLAB_CONFIG WHEN a command refuses THEN it names the file and the variable', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hoplab-config-env-')));
    writeFileSync(join(dir, 'workshop.json'), JSON.stringify({ name: 'ws' }));
    const result = run(empty, ['pipeline', '--gitlab-ci', '--shards', '3'], { HOPLAB_CONFIG: join(dir, 'workshop.json') });
    expect([result.code, result.lines.at(-1)]).toEqual([1, `hoplab pipeline: config read: ${join(dir, 'workshop.json')} (named by HOPLAB_CONFIG)`]);
  });

  test('GIVEN a bad command line WHEN refused before the config is read THEN nothing is said about a config', () => {
    const result = run(empty, ['cost', '--shards', 'x']);
    expect(result.code).toBe(2);
    expect(result.lines).toHaveLength(1);
  });
});
