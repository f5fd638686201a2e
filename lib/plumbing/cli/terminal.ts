/**
 * What a command needs to know about the terminal it writes to, in one place:
 * how wide it is and whether to colour. Colour only on a TTY and never when
 * `NO_COLOR` is set, whatever its value (https://no-color.org says a non-empty
 * value; an empty one is taken as "no colour" too, the safer reading). The
 * width is `$COLUMNS`, then the TTY's, then 80.
 */

/** The part of a stream this module reads (`process.stdout` is one). */
export interface TerminalStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** The part of the environment this module reads (`process.env` is one). */
export type TerminalEnv = Readonly<Record<string, string | undefined>>;

/** The width when nothing says otherwise. */
export const DEFAULT_WIDTH = 80;

/** Whether to write colour codes to `stream`: only on a TTY, and never when `NO_COLOR` is set. */
export function colorEnabled(stream: TerminalStream, env: TerminalEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined;
}

/** The width to fit: a positive whole `$COLUMNS`, else the TTY's columns, else 80. */
export function terminalWidth(stream: TerminalStream, env: TerminalEnv = process.env): number {
  const fromEnv = env.COLUMNS?.trim();
  if (fromEnv !== undefined && /^\d+$/.test(fromEnv) && Number(fromEnv) > 0) {
    return Number(fromEnv);
  }
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) {
    return stream.columns;
  }
  return DEFAULT_WIDTH;
}

/** The colours hoplab uses, as SGR codes. */
export const COLORS = { red: 31, green: 32, yellow: 33, cyan: 36, bold: 1, dim: 2 } as const;
export type Color = keyof typeof COLORS;

/** `text` in `color` when `enabled`, else `text` unchanged. */
export function paint(text: string, color: Color, enabled: boolean): string {
  return enabled && text !== '' ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text;
}

const SGR = /\x1b\[[0-9;]*m/g;

/** `text` without colour codes. */
export function stripColor(text: string): string {
  return text.replace(SGR, '');
}

/** The width a line takes on the screen: its length without colour codes. */
export function visibleLength(text: string): number {
  return stripColor(text).length;
}

/** A word or phrase to colour wherever it appears as whole words. */
export interface Highlight {
  readonly pattern: RegExp;
  readonly color: Color;
}

/**
 * The words hoplab's tables colour on a terminal: what breaks the lesson in
 * red (`SNAT`, but not `no SNAT`; `LOST`; `MISMATCH`; `NOT as expected`;
 * `DOWN`), what holds in green (`as expected`).
 */
export const VERDICT_HIGHLIGHTS: readonly Highlight[] = [
  { pattern: /\bNOT as expected\b/g, color: 'red' },
  { pattern: /(?<!NOT )\bas expected\b/g, color: 'green' },
  { pattern: /\bMISMATCH\b/g, color: 'red' },
  { pattern: /\bLOST\b/g, color: 'red' },
  { pattern: /(?<!\bno )(?<![A-Za-z-])SNAT\b/g, color: 'red' },
  { pattern: /\bDNAT\b/g, color: 'yellow' },
];

/**
 * Colours the highlighted words of already laid-out text (after wrapping, so
 * the codes never count towards a width). Returns `text` unchanged when
 * colour is off.
 */
export function highlight(text: string, enabled: boolean, highlights: readonly Highlight[] = VERDICT_HIGHLIGHTS): string {
  if (!enabled) {
    return text;
  }
  // One pass over all patterns, so a coloured word is never coloured again.
  const marks: { start: number; end: number; color: Color }[] = [];
  for (const { pattern, color } of highlights) {
    for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))) {
      const start = match.index;
      const end = start + match[0].length;
      if (!marks.some((m) => start < m.end && end > m.start)) {
        marks.push({ start, end, color });
      }
    }
  }
  marks.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const m of marks) {
    out += text.slice(at, m.start) + paint(text.slice(m.start, m.end), m.color, true);
    at = m.end;
  }
  return out + text.slice(at);
}
