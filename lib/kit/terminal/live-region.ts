/**
 * A block of lines at the bottom of a terminal, redrawn in place with ANSI
 * cursor movement (back up to the block's first line, erase to the end of the
 * screen, the new block: one write per frame), with ordinary lines printed
 * above it as they come (they scroll up; the block stays last). The one
 * live-redraw class: the deploy/teardown/verify progress (live-status.ts),
 * `compare --probe`'s bar, and `watch`'s screen, which hides the cursor while
 * it is shown and lays out its own lines.
 *
 * Each line is cut to the terminal's width less one, so no line wraps and the
 * cursor arithmetic stays right; a caller that lays out and paints its lines
 * within the width itself says `cut: false` (a line that wraps, or a block
 * taller than the screen, cannot be redrawn in place).
 * For a TTY only: callers check `redrawEnabled` (terminal.ts) and print plain
 * lines otherwise.
 */
import { fitWidth, TerminalEnv, terminalWidth, WritableTerminal } from './terminal';

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

export interface LiveRegionOptions {
  /** Where `$COLUMNS` and `TERM` are read. @default process.env */
  readonly env?: TerminalEnv;
  /** Hide the cursor while the block is shown; {@link LiveRegion.release} shows it again. @default false */
  readonly hideCursor?: boolean;
  /** Cut each line to {@link LiveRegion.width}; off when the caller lays out (and paints) its lines within the width. @default true */
  readonly cut?: boolean;
}

export class LiveRegion {
  /** Lines of the block on screen now. */
  private shown = 0;
  private cursorHidden = false;

  constructor(private readonly stream: WritableTerminal, private readonly options: LiveRegionOptions = {}) {}

  /** The width lines are cut to: one less than the terminal's, so the last column never wraps. */
  width(): number {
    return Math.max(1, terminalWidth(this.stream, this.options.env ?? process.env) - 1);
  }

  /**
   * Replaces the block with `lines` (plain text; `style` is applied after
   * cutting, so escape sequences never count as width), printing `above`
   * first as ordinary lines. One write per frame.
   */
  render(lines: readonly string[], above: readonly string[] = [], style: (line: string, index: number) => string = (line) => line): void {
    const width = this.width();
    const block = lines.map((line, i) => `${style(this.options.cut === false ? line : fitWidth(line, width), i)}\n`).join('');
    const hide = this.options.hideCursor && !this.cursorHidden && lines.length > 0 ? HIDE_CURSOR : '';
    this.write(`${hide}${this.erase()}${above.map((line) => `${line}\n`).join('')}${block}`);
    this.cursorHidden ||= hide !== '';
    this.shown = lines.length;
  }

  /** Removes the block from the screen (prints `above` in its place); the cursor is left where it started. */
  clear(above: readonly string[] = []): void {
    this.write(`${this.erase()}${above.map((line) => `${line}\n`).join('')}`);
    this.shown = 0;
  }

  /** Leaves the block where it is, as ordinary lines, and shows the cursor again: what is written next goes below it. */
  release(): void {
    if (this.cursorHidden) this.write(SHOW_CURSOR);
    this.cursorHidden = false;
    this.shown = 0;
  }

  private write(frame: string): void {
    if (frame !== '') this.stream.write(frame);
  }

  /** Back to the first line of the block and erase to the end of the screen; nothing when no block is shown. */
  private erase(): string {
    return this.shown === 0 ? '' : `\r\x1b[${this.shown}A\x1b[J`;
  }
}
