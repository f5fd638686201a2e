/**
 * A screen redrawn in place on a terminal: each frame replaces the previous
 * one (cursor back up to the frame's first line, lines rewritten, the rest
 * cleared), so a live view does not scroll. The caller keeps every line
 * within the terminal's width and the frame within its height: a line that
 * wraps or a frame taller than the screen cannot be redrawn in place.
 */
import { TerminalStream } from './terminal';

export interface LiveStream extends TerminalStream {
  write(text: string): unknown;
}

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

export class LiveScreen {
  private height = 0;
  private drawn = false;

  constructor(private readonly stream: LiveStream) {}

  /** Replaces the previous frame with `lines` (no line may hold a newline or be wider than the terminal). */
  draw(lines: readonly string[]): void {
    let text = this.drawn ? '' : HIDE_CURSOR;
    if (this.height > 0) text += `\x1b[${this.height}F`;
    text += `${lines.map((line) => `${line}\x1b[K`).join('\n')}\n\x1b[J`;
    this.stream.write(text);
    this.height = lines.length;
    this.drawn = true;
  }

  /** Leaves the last frame where it is and shows the cursor again: what is written next goes below it. */
  release(): void {
    if (this.drawn) this.stream.write(SHOW_CURSOR);
    this.height = 0;
    this.drawn = false;
  }
}
