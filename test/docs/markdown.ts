/**
 * Just enough Markdown reading for the docs tests: the links and images of a
 * file (outside code), and its headings' anchors as GitHub makes them.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A link or image in a Markdown file, with the line it is on. */
export interface MarkdownLink {
  target: string;
  line: number;
  image: boolean;
}

/** The lines of `text` with fenced code blocks blanked (kept as empty lines, so line numbers stay). */
export function withoutCodeBlocks(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === undefined && opener) {
      fence = opener[1];
      return '';
    }
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) {
        fence = undefined;
      }
      return '';
    }
    return line;
  });
}

/** A line without its inline code spans (`` `[not](a link)` ``). */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, '');
}

/** Inline links and images `[text](target "title")`, and reference definitions `[label]: target`. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCodeBlocks(text).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const inline = /(!?)\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
    for (let match = inline.exec(line); match; match = inline.exec(line)) {
      links.push({ target: match[2].replace(/^<|>$/g, ''), line: index + 1, image: match[1] === '!' });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (definition) {
      links.push({ target: definition[1].replace(/^<|>$/g, ''), line: index + 1, image: false });
    }
  });
  return links;
}

/** True for a link that leaves the repository: `https:`, `mailto:` and other schemes. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * GitHub's anchor for a heading's text: inline markup rendered away (links to
 * their text, code and emphasis markers dropped), lowercased, every character
 * that is not a letter, digit, space, hyphen or underscore removed, spaces
 * turned into hyphens.
 */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a file's headings, in order, duplicates numbered as GitHub does (`x`, `x-1`, `x-2`); plus explicit `<a id>`/`name` anchors. */
export function headingAnchors(text: string): string[] {
  const anchors: string[] = [];
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]);
      const count = seen.get(slug) ?? 0;
      anchors.push(count === 0 ? slug : `${slug}-${count}`);
      seen.set(slug, count + 1);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
      anchors.push(match[1]);
    }
  }
  return anchors;
}

/** The Markdown files the docs tests cover, relative to `root`: README.md, CONTRIBUTING.md and docs/**\/*.md. */
export function documentationFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? walk(path) : entry.name.endsWith('.md') ? [relative(root, path)] : [];
    });
  return ['README.md', 'CONTRIBUTING.md', ...walk(join(root, 'docs')).sort()];
}
