/**
 * Plain-text tables with word-wrapped cells, for terminals: ASCII only, so the
 * output is the same everywhere and diffs well. Also the Markdown table form.
 */

/** Wraps `text` into lines of at most `width` characters (long words are cut). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      let rest = word;
      while (rest.length > width) {
        if (line !== '') {
          lines.push(line);
          line = '';
        }
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
      if (line === '') {
        line = rest;
      } else if (line.length + 1 + rest.length <= width) {
        line += ` ${rest}`;
      } else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines;
}

export interface TextTableOptions {
  /** Total width to fit in. @default 120 */
  readonly width?: number;
  /** Width of the first column (row labels). @default - its longest cell, at most 22 */
  readonly firstColumnWidth?: number;
}

/** A table with a header row; every column but the first shares the width left. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], options: TextTableOptions = {}): string {
  const total = Math.max(options.width ?? 120, 40);
  const columns = header.length;
  const first = options.firstColumnWidth ?? Math.min(22, Math.max(...[header, ...rows].map((r) => r[0]?.length ?? 0), 4));
  const separators = 3 * (columns - 1) + 4;
  const rest = columns > 1 ? Math.max(12, Math.floor((total - first - separators) / (columns - 1))) : 0;
  const widths = header.map((_, i) => (i === 0 ? first : rest));
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const render = (cells: readonly string[]) => {
    const wrapped = widths.map((w, i) => wrap(cells[i] ?? '', w));
    const height = Math.max(...wrapped.map((w) => w.length));
    const lines: string[] = [];
    for (let line = 0; line < height; line += 1) {
      lines.push(`| ${wrapped.map((w, i) => (w[line] ?? '').padEnd(widths[i])).join(' | ')} |`);
    }
    return lines;
  };
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
