/** Prints numbered steps with their durations: `[2/8] terraform apply ... ok (31.9 s)`. */
export class Progress {
  private readonly started = Date.now();
  private step = 0;

  constructor(private readonly total: number, private readonly write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {}

  /** Runs one step, printing its start, its heartbeat for long steps, and its outcome. */
  async run<T>(title: string, work: (tick: (detail: string) => void) => Promise<T>): Promise<T> {
    this.step += 1;
    const label = `[${this.step}/${this.total}] ${title}`;
    const start = Date.now();
    this.write(`${label} ...`);
    let detail = '';
    const heartbeat = setInterval(() => this.write(`      ... ${title}: ${seconds(Date.now() - start)}${detail ? `, ${detail}` : ''}`), 10_000);
    heartbeat.unref();
    try {
      const result = await work((d) => {
        detail = d;
      });
      this.write(`      ok: ${title} (${seconds(Date.now() - start)})`);
      return result;
    } catch (error) {
      this.write(`      FAILED: ${title} (${seconds(Date.now() - start)})`);
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Prints a line between steps. */
  note(line: string): void {
    this.write(line);
  }

  /** Time since the progress started, e.g. `42.0 s`. */
  elapsed(): string {
    return seconds(Date.now() - this.started);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
