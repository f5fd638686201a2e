/**
 * Every shell example in README.md and docs/ that redirects (`>`) or pipes (`|`) a command's
 * output yields a file a script can read: it uses `npx hoplab` (nothing but the command's
 * output on stdout), and, where it runs offline, this test runs it as written, in a directory
 * with the synthesized default lab and the outputs fixture, and parses what it wrote.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'cdktf';
import { parse as parseYaml } from 'yaml';
import { labConfig } from '../../lib/config/schema';
import { addLab } from '../../lib/stacks/hoplab-app';
import { documentationFiles } from './markdown';

const ROOT = resolve(__dirname, '..', '..');
const HOPLAB = join(ROOT, 'scripts', 'hoplab.cjs');

interface Example {
  readonly file: string;
  readonly line: number;
  readonly command: string;
}

/** Shell lines (sh, bash, shell or console fences) with `>` or `|` outside a trailing `# comment`. */
function redirectingExamples(): Example[] {
  const examples: Example[] = [];
  for (const file of documentationFiles(ROOT).filter((f) => f === 'README.md' || f.startsWith('docs/'))) {
    let fence: { marker: string; shell: boolean } | undefined;
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const opener = /^ {0,3}(`{3,}|~{3,})\s*(\w*)/.exec(text);
        if (!fence && opener) {
          fence = { marker: opener[1], shell: ['sh', 'bash', 'shell', 'console'].includes(opener[2]) };
          return;
        }
        if (fence && text.trim().startsWith(fence.marker)) {
          fence = undefined;
          return;
        }
        if (!fence?.shell) return;
        const command = text.replace(/^\s*\$\s+/, '').replace(/\s+#.*$/, '').trim();
        if (command && !command.startsWith('#') && /[>|]/.test(command)) examples.push({ file, line: i + 1, command });
      });
  }
  return examples;
}

/** Examples that cannot run here, each with why (a new one must say why here). */
const NOT_RUN_HERE: Readonly<Record<string, string>> = {
  'npx hoplab watch --outputs outputs.json --duration 300 --format json > timeline.jsonl':
    'probes deployed load balancers for 300 s; the same JSON timeline is written and parsed line by line against loopback servers in test/commands/watch/watch-cli.test.ts',
  'npx hoplab progress --outputs outputs.json --env ann,bob --format json > progress.json':
    "reads deployed clusters' APIs with the host's cloud credentials; the same JSON is written and parsed against loopback clusters over TLS in test/commands/progress/progress.test.ts",
};

/** Reads the redirected file as its format: JSON, YAML, or a Markdown table. */
function parsed(path: string, command: string): unknown {
  const text = readFileSync(path, 'utf8');
  if (/--format json|--json/.test(command) || path.endsWith('.json')) return JSON.parse(text);
  if (/--format markdown/.test(command) || path.endsWith('.md')) {
    const rows = text.split('\n').filter((l) => l.startsWith('|'));
    expect(rows.length).toBeGreaterThan(2);
    expect(rows.some((r) => /^\|(\s*:?-{3,}:?\s*\|)+$/.test(r))).toBe(true);
    return rows;
  }
  if (path.endsWith('.yaml') || path.endsWith('.yml')) return parseYaml(text);
  throw new Error(`${command}: no parser for ${path}`);
}

const examples = redirectingExamples();

describe('redirecting and piping examples in the docs', () => {
  let cwd: string;

  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-examples-'));
    const app = new App({ outdir: join(cwd, 'cdktf.out'), stackTraces: false });
    addLab(app, labConfig.parse({}));
    app.synth();
    copyFileSync(join(ROOT, 'test', 'fixtures', 'outputs.json'), join(cwd, 'outputs.json'));
  });

  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  test('GIVEN README.md and docs/ WHEN their shell examples are read THEN some redirect, and every one runs hoplab as `npx hoplab` (no npm banner in the file)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const example of examples) {
      expect(`${example.file}:${example.line}: ${example.command}`).toMatch(/: npx hoplab [a-z]+ /);
    }
  });

  test.each(examples.map((e) => [`${e.file}:${e.line}`, e] as const))('GIVEN the example at %s WHEN run as written THEN its redirected output parses', (_where, example) => {
    if (NOT_RUN_HERE[example.command]) return;
    const match = /^npx hoplab (.+?)\s*>\s*(\S+)$/.exec(example.command);
    if (!match) throw new Error(`${example.file}:${example.line}: ${example.command}: not of the form "npx hoplab ... > FILE"; run it here or list it in NOT_RUN_HERE with the reason`);
    const [, args, target] = match;
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.HOPLAB_CONFIG;
    delete env.HOPLAB_AWS_ENDPOINT;
    const result = spawnSync(process.execPath, [HOPLAB, ...args.split(/\s+/)], { cwd, env, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/DEP0044|DeprecationWarning/);
    const out = join(cwd, target);
    // The shell's `> FILE`: stdout as it is, byte for byte.
    writeFileSync(out, result.stdout);
    expect(parsed(out, example.command)).toBeTruthy();
  });
});
