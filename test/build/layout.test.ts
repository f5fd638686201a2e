/**
 * The layout is written down twice, and both must follow the tree: the lint's
 * table of folders by layer (`LIB_FOLDERS` in eslint.config.mjs, which the
 * layer rule is built from) and CONTRIBUTING.md's Layout section. A folder
 * under lib/ that either does not name, or a name that is no folder, fails.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Every folder under lib/, as `lib/a/b`. */
function libFolders(dir = join(ROOT, 'lib')): string[] {
  const here = relative(ROOT, dir);
  const below = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => libFolders(join(dir, e.name)));
  return [here, ...below];
}

/** The lint's table, as the lint loads it (eslint.config.mjs is an ES module). */
function lintFolders(): Record<string, string[]> {
  const script = "import('./eslint.config.mjs').then((m) => process.stdout.write(JSON.stringify(m.LIB_FOLDERS)))";
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as Record<string, string[]>;
}

/** CONTRIBUTING.md's Layout section, from its heading to the next `## `. */
function layoutSection(): string {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const start = text.indexOf('\n## Layout\n');
  const end = text.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(-1);
  return text.slice(start, end);
}

describe('the layout (eslint.config.mjs LIB_FOLDERS, CONTRIBUTING.md Layout, the tree)', () => {
  const tree = libFolders().filter((f) => f !== 'lib');
  const lint = lintFolders();
  const linted = Object.values(lint).flat();

  test('GIVEN the tree THEN every folder under lib/ is in the lint table, once', () => {
    expect(tree.filter((f) => !linted.includes(f))).toEqual([]);
    expect(linted.filter((f, i) => linted.indexOf(f) !== i)).toEqual([]);
  });

  test('GIVEN the lint table THEN every folder it names exists', () => {
    expect(linted.filter((f) => !tree.includes(f))).toEqual([]);
  });

  test('GIVEN CONTRIBUTING.md THEN its Layout names every folder under lib/ in backticks', () => {
    const section = layoutSection();
    expect(tree.filter((f) => !section.includes(`\`${f}/\``))).toEqual([]);
  });

  test('GIVEN CONTRIBUTING.md THEN every lib/ folder its Layout names exists', () => {
    const section = layoutSection();
    const mentioned = [...section.matchAll(/`(lib\/[a-z0-9-/]+?)\/`/g)].map((m) => m[1]);
    expect([...new Set(mentioned)].filter((f) => !tree.includes(f))).toEqual([]);
  });

  test('GIVEN the layer table THEN the kit sits beside the model and the commands above the lab', () => {
    expect(Object.keys(lint)).toEqual(['model', 'kit', 'config', 'constructs', 'stacks', 'lab', 'commands']);
  });
});
