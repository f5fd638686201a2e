/**
 * One Node LTS everywhere: the Node `.ci/node-lts` runs the whole `npm test` on is the one the
 * generated pipelines set up (GitHub Actions' setup-node, GitLab's image), `engines` admits it,
 * and no document or script calls an older major the current LTS. The machine's own Node is
 * checked by `.ci/node-machine`, after it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { githubActionsWorkflows } from '../../lib/commands/pipeline/github-actions';
import { gitlabPipeline } from '../../lib/commands/pipeline/gitlab-ci';
import { PIPELINE_VERSIONS } from '../../lib/commands/pipeline/versions';
import { PipelineInput } from '../../lib/commands/pipeline/jobs';

const ROOT = resolve(__dirname, '..', '..');
const read = (...parts: string[]) => readFileSync(join(ROOT, ...parts), 'utf8');

/** The major `.ci/node-lts` installs (`node-linux-<arch>@<major>`) and insists on (`^v<major>.`). */
const ciLts = (() => {
  const script = read('.ci', 'node-lts');
  const installed = /node-linux-\$arch@(\d+)/.exec(script)?.[1];
  const checked = /grep -q '\^v(\d+)\\\.'/.exec(script)?.[1];
  return { installed, checked };
})();

describe('the current Node LTS', () => {
  test('GIVEN .ci/node-lts WHEN read THEN it installs and checks one major, and .ci/run runs npm test with it', () => {
    expect(ciLts.installed).toBeDefined();
    expect(ciLts.checked).toBe(ciLts.installed);
    expect(read('.ci', 'run')).toMatch(/^\.ci\/node-lts npm test$/m);
    expect(read('.ci', 'run')).toMatch(/^\.ci\/node-machine$/m);
  });

  test('GIVEN the generated pipelines WHEN written THEN both use the LTS CI tests on', () => {
    const lts = ciLts.installed!;
    expect([PIPELINE_VERSIONS.node, PIPELINE_VERSIONS.gitlabImage]).toEqual([lts, `node:${lts}-bookworm`]);
    const input: PipelineInput = { shards: 2, expiresAt: '2026-12-30T22:00:00Z', verify: { run: true }, jobMinutes: 60, reapMinutes: 60, branch: 'main' };
    const github = githubActionsWorkflows(input)
      .map((f) => f.text)
      .join('\n');
    expect([...github.matchAll(/node-version: "?(\d+)"?/g)].map((m) => m[1])).toEqual(expect.arrayContaining([lts]));
    expect(new Set([...github.matchAll(/node-version: "?(\d+)"?/g)].map((m) => m[1]))).toEqual(new Set([lts]));
    expect(gitlabPipeline(input).text).toContain(`image: node:${lts}-bookworm`);
  });

  test("GIVEN package.json WHEN read THEN engines admits the LTS (and the machine's Node, which CI runs too)", () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines.split('||').map((r) => r.trim())).toEqual(expect.arrayContaining([`^${ciLts.installed}`, `^${process.versions.node.split('.')[0]}`]));
  });

  test('GIVEN the docs, CONTRIBUTING and the scripts WHEN they name the current LTS THEN it is that one', () => {
    const files = [
      'CONTRIBUTING.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join('docs', f)),
      ...readdirSync(join(ROOT, '.ci')).map((f) => join('.ci', f)),
      ...readdirSync(join(ROOT, 'scripts')).map((f) => join('scripts', f)),
    ];
    const claims = files.flatMap((file) => [...read(file).matchAll(/(\d+) is the current LTS|current (?:Node )?LTS,? \(?(\d+)/g)].map((m) => [file, m[1] ?? m[2]]));
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.filter(([, major]) => major !== ciLts.installed)).toEqual([]);
  });
});
