/**
 * The layer rule of eslint.config.mjs, tried on a small project of its own
 * (the real config, a skeleton of lib/), so a rule that stops catching wrong
 * imports fails here rather than silently passing `npm run lint`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('the layer rule (eslint.config.mjs)', () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hoplab-lint-'));
    cpSync(join(ROOT, 'eslint.config.mjs'), join(dir, 'eslint.config.mjs'));
    symlinkSync(join(ROOT, 'tools'), join(dir, 'tools'));
    write('lib/model/modes.ts', "export const MODES = ['native'];\n");
    write('lib/config/load.ts', "import { MODES } from '../model/modes';\nexport const load = () => MODES;\n");
    write('lib/constructs/aws/vpc.ts', "import { MODES } from '../../model/modes';\nexport const vpc = () => MODES;\n");
    write('lib/constructs/gcp/network.ts', 'export const network = () => 1;\n');
    write('lib/stacks/stack.ts', "import { load } from '../config/load';\nimport { vpc } from '../constructs/aws/vpc';\nexport const stack = () => [load(), vpc()];\n");
    write('lib/kit/cli/cli.ts', 'export const cli = () => 1;\n');
    write('lib/lab/probe/probe.ts', "import { cli } from '../../kit/cli/cli';\nimport { stack } from '../../stacks/stack';\nexport const probe = () => [cli(), stack()];\n");
    write('lib/commands/explain/explain.ts', "import { cli } from '../../kit/cli/cli';\nimport { probe } from '../../lab/probe/probe';\nexport const explain = () => [cli(), probe()];\n");
    write('lib/commands/compare/compare.ts', 'export const compare = () => 1;\n');
    write('lib/commands/preflight/preflight.ts', 'export const preflight = () => 1;\n');
    write('lib/commands/lifecycle/deploy.ts', "import { preflight } from '../preflight/preflight';\nexport const deploy = () => preflight();\n");
    write('lib/commands/verify/verify.ts', 'export const verify = () => 1;\n');
    write('lib/commands/lifecycle/canary.ts', "import { verify } from '../verify/verify';\nexport const canary = () => verify();\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The import rules' messages for each file, from one ESLint run over the skeleton (as `npm run lint` runs it: a process of its own). */
  let messages: Record<string, string[]>;
  const CASES = [
    ['the model importing config', 'lib/model/bad.ts', "import { load } from '../config/load';\nexport const x = load;\n", 'lib/model is below'],
    ['a construct importing config loading', 'lib/constructs/aws/bad.ts', "import { load } from '../../config/load';\nexport const x = load;\n", 'constructs never import lib/config'],
    ['a construct importing a stack', 'lib/constructs/aws/bad2.ts', "import { stack } from '../../stacks/stack';\nexport const x = stack;\n", 'lib/constructs is below'],
    ['one cloud importing the other', 'lib/constructs/aws/bad3.ts', "import { network } from '../gcp/network';\nexport const x = network;\n", 'lib/constructs/aws may not import lib/constructs/gcp'],
    ['the domain importing a command', 'lib/lab/probe/bad.ts', "import { explain } from '../../commands/explain/explain';\nexport const x = explain;\n", 'lib/lab is below'],
    ['the kit importing the model', 'lib/kit/cli/bad.ts', "import { MODES } from '../../model/modes';\nexport const x = MODES;\n", 'lib/kit knows no lab'],
    ['the kit importing the domain', 'lib/kit/cli/bad2.ts', "import { probe } from '../../lab/probe/probe';\nexport const x = probe;\n", 'lib/kit knows no lab'],
    ['a stack importing the kit', 'lib/stacks/bad.ts', "import { cli } from '../kit/cli/cli';\nexport const x = cli;\n", 'lib/kit is used only by'],
    ['a command importing another', 'lib/commands/compare/bad.ts', "import { explain } from '../explain/explain';\nexport const x = explain;\n", 'commands do not import each other'],
    [
      'a step importing its command (the arrow is one way)',
      'lib/commands/verify/bad.ts',
      "import { deploy } from '../lifecycle/deploy';\nexport const x = deploy;\n",
      'commands do not import each other',
    ],
  ] as const;

  beforeAll(() => {
    for (const [, path, text] of CASES) write(path, text);
    write('lib/lab/probe/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
    write('lib/lab/probe/b.ts', "import { a } from './a';\nexport const b = () => a;\n");
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--format', 'json', 'lib'], { cwd: dir, encoding: 'utf8' });
    if (!run.stdout.startsWith('[')) throw new Error(`eslint did not run: ${run.stderr}`);
    const results = JSON.parse(run.stdout) as { filePath: string; messages: { ruleId: string | null; message: string }[] }[];
    messages = Object.fromEntries(results.map((r) => [r.filePath.slice(dir.length + 1), r.messages.filter((m) => m.ruleId?.startsWith('import-x/')).map((m) => `${m.ruleId}: ${m.message}`)]));
  });

  test('GIVEN imports that point down the layers (and the allowed command steps) THEN nothing is reported', () => {
    for (const path of [
      'lib/config/load.ts',
      'lib/constructs/aws/vpc.ts',
      'lib/stacks/stack.ts',
      'lib/lab/probe/probe.ts',
      'lib/commands/explain/explain.ts',
      'lib/commands/lifecycle/deploy.ts',
      'lib/commands/lifecycle/canary.ts',
    ])
      expect([path, messages[path]]).toEqual([path, []]);
  });

  test.each(CASES)('GIVEN %s THEN the import is reported, naming the rule', (_what, path, _text, words) => {
    expect(messages[path]).toHaveLength(1);
    expect(messages[path][0]).toContain('import-x/no-restricted-paths');
    expect(messages[path][0]).toContain(words);
  });

  test('GIVEN two files that import each other THEN the cycle is reported in both', () => {
    expect(messages['lib/lab/probe/a.ts']).toEqual(['import-x/no-cycle: Dependency cycle detected']);
    expect(messages['lib/lab/probe/b.ts']).toEqual(['import-x/no-cycle: Dependency cycle detected']);
  });
});
