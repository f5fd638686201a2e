/**
 * What a command may assume about where its output goes: whether it is a
 * terminal, how wide, and whether colour is allowed. Colour only on a TTY and
 * never when NO_COLOR is set (any value, the empty one included); the width
 * from $COLUMNS, else the terminal's, else 80. Every command asks here, so
 * the rule lives in one place.
 */

/** The part of a stream (process.stdout, process.stderr, a test's fake) this module reads and writes. */
export interface TerminalStream {
  write(text: string): unknown;
  /** True on a terminal (Node sets it on a TTY's stream only). */
  readonly isTTY?: boolean;
  /** The terminal's width in columns (Node sets it on a TTY's stream only). */
  readonly columns?: number;
}

/** Width when neither $COLUMNS nor the terminal says. */
export const DEFAULT_WIDTH = 80;

/** Whether `stream` may get ANSI colour: a TTY, and NO_COLOR not set (https://no-color.org). */
export function colorEnabled(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

/**
 * Whether `stream` may be redrawn in place (cursor movement): a TTY whose
 * terminal understands ANSI. Independent of NO_COLOR, which is about colour.
 */
export function redrawEnabled(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** Columns to fit output in: a positive whole $COLUMNS, else the TTY's width, else {@link DEFAULT_WIDTH}. */
export function terminalWidth(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = env.COLUMNS !== undefined && /^\d+$/.test(env.COLUMNS.trim()) ? Number(env.COLUMNS.trim()) : 0;
  if (fromEnv > 0) return fromEnv;
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  return DEFAULT_WIDTH;
}

const SGR = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, cyan: 36 } as const;
export type Style = keyof typeof SGR;

/** `text` in `style` when `enabled` (see {@link colorEnabled}), else as it is. */
export function paint(text: string, style: Style, enabled: boolean): string {
  return enabled && text !== '' ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text;
}

/** `text` without ANSI escape sequences. */
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

/** `1 resource`, `2 resources`: a count with its noun in the right number (`plural` when not noun + s). */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
