/**
 * What a command may assume about where its output goes: whether colour is
 * allowed (only on a TTY, never with NO_COLOR set to anything), how wide the
 * terminal is (`$COLUMNS`, then the TTY's own width, then 80), and ANSI
 * styling that is a no-op when colour is off. One place for these rules, so
 * every command follows them alike.
 */

/** The parts of an output stream these helpers read (process.stdout, or a fake in tests). */
export interface TerminalStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
}

/** The environment variables these helpers read. @default process.env */
export type TerminalEnv = Readonly<Record<string, string | undefined>>;

/** The width used when nothing says otherwise. */
export const DEFAULT_WIDTH = 80;

/** Colour only on a TTY, and never when NO_COLOR is set (to any value, even empty: https://no-color.org). */
export function colorEnabled(stream: TerminalStream, env: TerminalEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined;
}

/** `$COLUMNS` when it is a positive whole number, else the TTY's width, else 80. */
export function terminalWidth(stream: TerminalStream, env: TerminalEnv = process.env): number {
  const fromEnv = env.COLUMNS !== undefined && /^\d+$/.test(env.COLUMNS.trim()) ? Number(env.COLUMNS.trim()) : 0;
  if (fromEnv > 0) return fromEnv;
  if (stream.isTTY && stream.columns !== undefined && stream.columns > 0) return stream.columns;
  return DEFAULT_WIDTH;
}

/** `$LINES`, else the TTY's height; `undefined` when unknown (output is not a terminal). */
export function terminalHeight(stream: TerminalStream, env: TerminalEnv = process.env): number | undefined {
  const fromEnv = env.LINES !== undefined && /^\d+$/.test(env.LINES.trim()) ? Number(env.LINES.trim()) : 0;
  if (fromEnv > 0) return fromEnv;
  if (stream.isTTY && stream.rows !== undefined && stream.rows > 0) return stream.rows;
  return undefined;
}

/** The styles the commands use: red for trouble, yellow for a change, green for as expected, bold and dim for emphasis, reverse for a highlight. */
export type Style = 'red' | 'yellow' | 'green' | 'bold' | 'dim' | 'reverse';

const CODES: Readonly<Record<Style, readonly [number, number]>> = {
  red: [31, 39],
  yellow: [33, 39],
  green: [32, 39],
  bold: [1, 22],
  dim: [2, 22],
  reverse: [7, 27],
};

/** A function that wraps text in the given styles when colour is on, and returns it unchanged when off. */
export type Paint = (text: string, ...styles: Style[]) => string;

export function painter(enabled: boolean): Paint {
  if (!enabled) return (text) => text;
  return (text, ...styles) => (text === '' || styles.length === 0 ? text : styles.reduce((t, s) => `\x1b[${CODES[s][0]}m${t}\x1b[${CODES[s][1]}m`, text));
}

/** The text without ANSI escape sequences: what a terminal shows. */
// eslint-disable-next-line no-control-regex
export const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

/** The columns `text` takes on a terminal (escape sequences take none; every other character one). */
export const visibleLength = (text: string): number => [...stripAnsi(text)].length;

/**
 * Words laid out in lines of at most `width` columns: breaks only between
 * words, never inside one. A word longer than a whole line is abbreviated
 * (its start and `~`), never split across lines.
 */
export function wrapWords(text: string, width: number): string[] {
  const max = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const raw of paragraph.split(/\s+/).filter((w) => w !== '')) {
      const word = abbreviate(raw, max);
      if (line === '') line = word;
      else if (line.length + 1 + word.length <= max) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** `word` if it fits in `width`, else its first `width - 1` characters and `~`. */
export function abbreviate(word: string, width: number): string {
  if (word.length <= width) return word;
  if (width <= 1) return '~';
  return `${word.slice(0, width - 1)}~`;
}
