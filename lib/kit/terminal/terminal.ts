/**
 * What a command may assume about where its output goes, in one place:
 * whether it is a terminal, how wide and tall, whether colour is allowed and
 * whether it may be redrawn in place.
 *
 * - Colour only on a TTY, never when `NO_COLOR` is set (any value, the empty
 *   one included: https://no-color.org asks for a non-empty value; an empty
 *   one is read as "no colour" too, the safer reading), never on `TERM=dumb`.
 * - The width is `$COLUMNS`, then the TTY's, then 80; the height `$LINES`,
 *   then the TTY's, else unknown.
 */

/** The part of a stream (process.stdout, process.stderr, a test's fake) these helpers read. */
export interface TerminalStream {
  /** True on a terminal (Node sets it on a TTY's stream only). */
  readonly isTTY?: boolean;
  /** The terminal's width in columns (Node sets it on a TTY's stream only). */
  readonly columns?: number;
  /** The terminal's height in rows (Node sets it on a TTY's stream only). */
  readonly rows?: number;
}

/** A {@link TerminalStream} that can be written to. */
export interface WritableTerminal extends TerminalStream {
  write(text: string): unknown;
}

/** The part of the environment these helpers read (`process.env` is one). */
export type TerminalEnv = Readonly<Record<string, string | undefined>>;

/** The width when neither `$COLUMNS` nor the terminal says. */
export const DEFAULT_WIDTH = 80;

/** Whether to write colour codes to `stream`: a TTY, `NO_COLOR` not set, `TERM` not `dumb`. */
export function colorEnabled(stream: TerminalStream, env: TerminalEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

/**
 * Whether `stream` may be redrawn in place (cursor movement): a TTY whose
 * terminal understands ANSI. Independent of `NO_COLOR`, which is about colour.
 */
export function redrawEnabled(stream: TerminalStream, env: TerminalEnv = process.env): boolean {
  return stream.isTTY === true && env.TERM !== 'dumb';
}

function positiveWhole(value: string | undefined): number {
  const text = value?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : 0;
}

/** Columns to fit output in: a positive whole `$COLUMNS`, else the TTY's width, else {@link DEFAULT_WIDTH}. */
export function terminalWidth(stream: TerminalStream, env: TerminalEnv = process.env): number {
  const fromEnv = positiveWhole(env.COLUMNS);
  if (fromEnv > 0) return fromEnv;
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  return DEFAULT_WIDTH;
}

/** Rows: a positive whole `$LINES`, else the TTY's height; `undefined` when unknown (not a terminal). */
export function terminalHeight(stream: TerminalStream, env: TerminalEnv = process.env): number | undefined {
  const fromEnv = positiveWhole(env.LINES);
  if (fromEnv > 0) return fromEnv;
  if (stream.isTTY === true && typeof stream.rows === 'number' && stream.rows > 0) return stream.rows;
  return undefined;
}

/** The styles hoplab uses, as SGR codes: red for trouble, yellow for a change, green for as expected, cyan for names, bold, dim and reverse for emphasis. */
export const COLORS = { red: 31, green: 32, yellow: 33, cyan: 36, bold: 1, dim: 2, reverse: 7 } as const;
/** One of {@link COLORS}. */
export type Style = keyof typeof COLORS;

/** `text` in `style` when `enabled` (see {@link colorEnabled}), else `text` unchanged. */
export function paint(text: string, style: Style, enabled: boolean): string {
  return enabled && text !== '' ? `\x1b[${COLORS[style]}m${text}\x1b[0m` : text;
}

/** A function that paints text in one or more styles when colour is on and returns it unchanged when off. */
export type Paint = (text: string, ...styles: Style[]) => string;

/** A {@link Paint} for the given colour decision. */
export function painter(enabled: boolean): Paint {
  if (!enabled) return (text) => text;
  return (text, ...styles) => (text === '' || styles.length === 0 ? text : `\x1b[${styles.map((s) => COLORS[s]).join(';')}m${text}\x1b[0m`);
}

/** `text` without ANSI escape sequences (colour and cursor movement): what a terminal shows. */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/**
 * `text` cut to at most `width` visible characters, ending in `...` when cut.
 * Plain text only (cut before painting it).
 */
export function fitWidth(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 3) return text.slice(0, Math.max(0, width));
  return `${text.slice(0, width - 3)}...`;
}

/** A duration for people: `42s`, `5m03s`, `1h02m`. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}h${String(minutes).padStart(2, '0')}m`;
  if (minutes > 0) return `${minutes}m${String(seconds).padStart(2, '0')}s`;
  return `${seconds}s`;
}

/** `1 resource`, `2 resources`: a count with its noun in the right number (`pluralNoun` when not noun + s). */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/** A word or phrase to colour wherever it appears as whole words. */
export interface Highlight {
  readonly pattern: RegExp;
  readonly color: Style;
}

/**
 * The words hoplab's tables colour on a terminal: what breaks the lesson in
 * red (`SNAT`, but not `no SNAT`; `LOST`; `MISMATCH`; `NOT as expected`),
 * what holds in green (`as expected`), DNAT in yellow.
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
  if (!enabled) return text;
  // One pass over all patterns, so a coloured word is never coloured again.
  const marks: { start: number; end: number; color: Style }[] = [];
  for (const { pattern, color } of highlights) {
    for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))) {
      const start = match.index;
      const end = start + match[0].length;
      if (!marks.some((m) => start < m.end && end > m.start)) marks.push({ start, end, color });
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
