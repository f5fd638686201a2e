/**
 * A block of lines at the bottom of a terminal, redrawn in place with ANSI
 * cursor movement, with ordinary lines printed above it as they come (they
 * scroll up; the block stays last). Each line of the block is cut to the
 * terminal's width, so no line wraps and the cursor arithmetic stays right.
 * For a TTY only: callers check {@link redrawEnabled} and print plain lines
 * otherwise (see live-status.ts). `watch` and the deploy/teardown/verify
 * progress use it.
 */
import { fitWidth, WritableTerminal, terminalWidth } from './terminal';

export class LiveRegion {
  /** Lines of the block on screen now. */
  private shown = 0;

  constructor(private readonly stream: WritableTerminal, private readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The width lines are cut to: one less than the terminal's, so the last column never wraps. */
  width(): number {
    return Math.max(1, terminalWidth(this.stream, this.env) - 1);
  }

  /**
   * Replaces the block with `lines` (plain text; `paint` is applied by `style`
   * after cutting, so escape sequences never count as width), printing
   * `above` first as ordinary lines. One write per frame.
   */
  render(lines: readonly string[], above: readonly string[] = [], style: (line: string, index: number) => string = (line) => line): void {
    const width = this.width();
    const block = lines.map((line, i) => `${style(fitWidth(line, width), i)}\n`).join('');
    const printed = above.map((line) => `${line}\n`).join('');
    const frame = `${this.erase()}${printed}${block}`;
    if (frame !== '') this.stream.write(frame);
    this.shown = lines.length;
  }

  /** Removes the block from the screen (prints `above` in its place); the cursor is left where it started. */
  clear(above: readonly string[] = []): void {
    const frame = `${this.erase()}${above.map((line) => `${line}\n`).join('')}`;
    if (frame !== '') this.stream.write(frame);
    this.shown = 0;
  }

  /** Back to the first line of the block and erase to the end of the screen; nothing when no block is shown. */
  private erase(): string {
    return this.shown === 0 ? '' : `\r\x1b[${this.shown}A\x1b[J`;
  }
}
