/**
 * The documentation holds together: every relative link and image in
 * README.md, CONTRIBUTING.md and docs/ points at a file that exists, every
 * `#anchor` at a heading that exists, every docs page is reachable from the
 * README, and the README stays a host's short first read.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { documentationFiles, githubSlug, headingAnchors, isExternal, markdownLinks, withoutCodeBlocks } from './markdown';

const ROOT = resolve(__dirname, '..', '..');
const FILES = documentationFiles(ROOT);
const README_LIMIT = 15_360;

const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** What is wrong with one link of `file`, or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const path = decodeURIComponent(pathPart);
  const resolved = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
  if (relative(ROOT, resolved).startsWith('..')) {
    return 'points outside the repository';
  }
  if (!existsSync(resolved)) {
    return `no file ${normalize(relative(ROOT, resolved))}`;
  }
  if (anchor === undefined || anchor === '') {
    return undefined;
  }
  if (!resolved.endsWith('.md') || !statSync(resolved).isFile()) {
    return `#${anchor} on a file that is not Markdown`;
  }
  const anchors = headingAnchors(readFileSync(resolved, 'utf8'));
  return anchors.includes(anchor) ? undefined : `no heading #${anchor} in ${relative(ROOT, resolved)} (it has: ${anchors.join(', ')})`;
}

describe('documentation links', () => {
  test('GIVEN the documentation files WHEN listed THEN the README, CONTRIBUTING.md and the docs pages are all there', () => {
    expect(FILES).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/configuration.md', 'docs/config-reference.md']));
  });

  test.each(FILES)('GIVEN %s WHEN its relative links and images are followed THEN each file and #anchor exists', (file) => {
    const broken = markdownLinks(text(file))
      .filter((link) => !isExternal(link.target))
      .map((link) => ({ at: `${file}:${link.line}`, target: link.target, problem: brokenLink(file, link.target) }))
      .filter((link) => link.problem !== undefined);
    expect(broken).toEqual([]);
  });

  test('GIVEN the README WHEN its links are read THEN every docs page and CONTRIBUTING.md is linked from it', () => {
    const linked = new Set(
      markdownLinks(text('README.md'))
        .filter((link) => !isExternal(link.target))
        .map((link) => normalize(link.target.split('#')[0])),
    );
    const pages = FILES.filter((file) => file !== 'README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('README', () => {
  test(`GIVEN the README WHEN measured THEN it is at most ${README_LIMIT} bytes (the rest belongs in docs/ or CONTRIBUTING.md)`, () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(README_LIMIT);
  });

  test.each([['README.md', '## Quick start'], ['docs/getting-started.md', '# Getting started: requirements and `npm run local`']])(
    'GIVEN %s WHEN read from the top THEN its first command block is the quick start, complete on a fresh clone: npm ci && npm run local, then npm test',
    (file, heading) => {
      const lines = text(file).split('\n');
      const open = lines.findIndex((line) => /^```/.test(line));
      const close = lines.findIndex((line, index) => index > open && /^```\s*$/.test(line));
      expect(open).toBeGreaterThan(-1);
      const commands = lines.slice(open + 1, close).map((line) => line.replace(/\s+#.*$/, ''));
      // Pasted alone into a fresh clone, the block installs before it runs anything ("Cannot find module 'esbuild'" otherwise).
      expect(commands).toEqual(['npm ci && npm run local', 'npm test']);
      const headingBefore = lines.slice(0, open).filter((line) => /^#{1,6}\s/.test(line)).pop();
      expect(headingBefore).toBe(heading);
    },
  );

  test('GIVEN the README WHEN read THEN it cites no DESIGN.md, which is not in the repository', () => {
    for (const file of FILES) {
      expect([file, /DESIGN\.md/.test(text(file))]).toEqual([file, false]);
    }
  });
});

describe('GitHub heading anchors', () => {
  test.each([
    ['Quick start', 'quick-start'],
    ['See the difference: `explain` and `compare`', 'see-the-difference-explain-and-compare'],
    ['The first real deploy: `preflight`, `deploy`, `verify`', 'the-first-real-deploy-preflight-deploy-verify'],
    ['100 attendees, step by step', '100-attendees-step-by-step'],
    ['`$schema`', 'schema'],
    ['`type: s3`', 'type-s3'],
    ['Where state lives', 'where-state-lives'],
    ['A [linked](x.md) heading', 'a-linked-heading'],
    ['snake_case and kebab-case', 'snake_case-and-kebab-case'],
  ])('GIVEN the heading %j WHEN slugged THEN the anchor is %j', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  test('GIVEN repeated headings WHEN anchored THEN the repeats get -1, -2', () => {
    expect(headingAnchors('# A\n## Notes\ntext\n## Notes\n```\n## Notes\n```\n### Notes\n')).toEqual(['a', 'notes', 'notes-1', 'notes-2']);
  });

  test('GIVEN Markdown with code WHEN its links are read THEN links inside code blocks and spans are not links', () => {
    const links = markdownLinks('see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n![d](d.png "title")\n[e]: <e.md>\n');
    expect(links.map((link) => [link.target, link.image])).toEqual([
      ['a.md', false],
      ['d.png', true],
      ['e.md', false],
    ]);
    expect(withoutCodeBlocks('a\n```\nb\n```\nc')).toEqual(['a', '', '', '', 'c']);
  });
});

describe('repository paths named in the documentation', () => {
  /** `lib/...`, `test/...` and the other top-level folders, as the docs name them in code spans: they must exist, or the docs send a reader to nothing. */
  const PATH = /`((?:lib|test|scripts|bin|charts|schema|tools|docs)\/[A-Za-z0-9_./-]+)`/g;

  test.each(FILES)('GIVEN %s THEN every file or folder it names in a code span exists', (file) => {
    const named = [...text(file).matchAll(PATH)].map((m) => m[1].replace(/[.,:]+$/, '')).filter((p) => !/[<>*{}]/.test(p));
    // Examples of paths, not paths: the up-to-date check's `lib/x.ts` next to `lib/x/index.ts`.
    const missing = named.filter((p) => !/^lib\/x(\/|\.)/.test(p) && !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });
});
