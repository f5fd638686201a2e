/**
 * Plain-text tables with word-wrapped cells, for terminals: ASCII only, so the
 * output is the same everywhere and diffs well. Also the Markdown table form.
 *
 * Words are never split: each column is at least as wide as its longest word,
 * and the width left is shared by what each column would need to show its
 * cells on one line. Only a word longer than the whole width can give (a URL
 * on a very narrow terminal) is cut, as the one exception.
 */
import { wrapWords } from '../text/wrap';

/**
 * `text` wrapped to `width`, its first line after `first` and the others
 * after `rest` (a hanging indent): `label: value` blocks, notes.
 */
export function wrapIndented(text: string, width: number, first = '', rest = first): string[] {
  const room = Math.max(8, width - Math.max(first.length, rest.length));
  return wrapWords(text, room).map((line, i) => `${i === 0 ? first : rest}${line}`.trimEnd());
}

/**
 * A shell command for the terminal: broken before its flags (`--name`) with shell continuations
 * (` \\`), each flag with its value on one line, so that each line fits `width` and the lines still
 * paste as one command. The first line after `indent`, the others two further in.
 */
export function commandLines(command: string, width: number, indent = ''): string[] {
  const units = command.split(/ (?=--)/);
  const lines: string[] = [];
  let line = `${indent}${units[0]}`;
  for (const unit of units.slice(1)) {
    if (line.length + 1 + unit.length > width - 2) {
      lines.push(`${line} \\`);
      line = `${indent}  ${unit}`;
    } else line = `${line} ${unit}`;
  }
  lines.push(line);
  return lines;
}

/** The longest word of a cell. */
function longestWord(cell: string): number {
  return Math.max(0, ...cell.split(/\s+/).map((w) => w.length));
}

/** The longest line of a cell, unwrapped. */
function longestLine(cell: string): number {
  return Math.max(0, ...cell.split('\n').map((l) => l.trim().replace(/\s+/g, ' ').length));
}

/**
 * Widths for columns whose content needs `natural` (one line) and at least
 * `least` (the longest word), to fit in `room`, shared fairly (water-filling):
 * the widest level L such that every column is `L` wide, but never narrower
 * than its least nor wider than it needs, fits; the width still left goes one
 * by one to the columns that can grow, first come first. So short columns stay
 * on one line, and long ones end equally wide. Returns undefined when even the
 * least does not fit.
 */
export function fitColumns(least: readonly number[], natural: readonly number[], room: number): number[] | undefined {
  const low = least.map((l) => Math.max(1, l));
  const want = natural.map((n, i) => Math.max(n, low[i]));
  const at = (level: number) => low.map((l, i) => Math.min(want[i], Math.max(l, level)));
  const sum = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0);
  if (sum(low) > room) return undefined;
  let level = 0;
  const top = Math.max(...want);
  while (level < top && sum(at(level + 1)) <= room) {
    level += 1;
  }
  const widths = at(level);
  let spare = room - sum(widths);
  for (let i = 0; i < widths.length && spare > 0; i += 1) {
    if (widths[i] < want[i]) {
      widths[i] += 1;
      spare -= 1;
    }
  }
  return widths;
}

/** Whether `textTable` can lay these rows out in `width` without cutting a word. */
export function tableFits(header: readonly string[], rows: readonly (readonly string[])[], width: number): boolean {
  const all = [header, ...rows];
  const room = Math.max(width, 20) - (3 * (header.length - 1) + 4);
  const least = header.map((_, i) => Math.max(...all.map((r) => longestWord(r[i] ?? ''))));
  return fitColumns(least, least, room) !== undefined;
}

export interface TextTableOptions {
  /** Total width to fit in (at least 20). @default 120 */
  readonly width?: number;
  /** Width of the first column (row labels), widened to its longest word. @default - as its content needs */
  readonly firstColumnWidth?: number;
  /** Rules between rows (`all`), or only under the header and at the bottom (`header`). @default 'all' */
  readonly rules?: 'all' | 'header';
}

/**
 * A table with a header row that fits `width` without splitting a word: each
 * column as wide as its content needs where there is room, else wrapped, and
 * never narrower than its longest word. Only when the longest words alone do
 * not fit does it fall back to equal columns and cut the words that are too
 * long.
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], options: TextTableOptions = {}): string {
  const total = Math.max(options.width ?? 120, 20);
  const all = [header, ...rows];
  const count = header.length;
  const room = total - (3 * (count - 1) + 4);
  const least = header.map((_, i) => Math.max(...all.map((r) => longestWord(r[i] ?? ''))));
  const natural = header.map((_, i) => Math.max(...all.map((r) => longestLine(r[i] ?? ''))));
  if (options.firstColumnWidth !== undefined) {
    natural[0] = Math.max(least[0], options.firstColumnWidth);
  }
  const widths = fitColumns(least, natural, room) ?? header.map(() => Math.max(1, Math.floor(room / count)));
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const render = (cells: readonly string[]) => {
    const wrapped = widths.map((w, i) => wrapWords(cells[i] ?? '', w));
    const height = Math.max(...wrapped.map((w) => w.length));
    const lines: string[] = [];
    for (let line = 0; line < height; line += 1) {
      lines.push(`| ${wrapped.map((w, i) => (w[line] ?? '').padEnd(widths[i])).join(' | ')} |`);
    }
    return lines;
  };
  if (options.rules === 'header') {
    return [rule, ...render(header), rule, ...rows.flatMap((row) => render(row)), rule].join('\n');
  }
  return [rule, ...render(header), rule, ...rows.flatMap((row) => [...render(row), rule])].join('\n');
}

function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, '<br>');
}

/** The same table in GitHub Markdown. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${header.map(markdownCell).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${header.map((_, i) => markdownCell(row[i] ?? '')).join(' | ')} |`)].join(
    '\n',
  );
}
