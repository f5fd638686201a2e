/**
 * A command run in-process in a project directory of its own: each test gets a fresh
 * temporary directory as the current one, no HOPLAB_CONFIG, HOPLAB_AWS_ENDPOINT or
 * CDKTF_OUTDIR from outside, and what the command prints (console.log and console.error) kept
 * as lines. Call {@link commandDir} inside a describe: it registers the hooks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CommandDir {
  /** The current test's directory. */
  readonly dir: () => string;
  /** What the command printed to stdout (console.log), line by line. */
  readonly lines: () => string[];
  /** What it printed to stderr (console.error). */
  readonly errors: () => string[];
}

export function commandDir(prefix: string): CommandDir {
  const saved = { cwd: process.cwd(), config: process.env.HOPLAB_CONFIG, endpoint: process.env.HOPLAB_AWS_ENDPOINT, outdir: process.env.CDKTF_OUTDIR };
  let dir = '';
  let lines: string[] = [];
  let errors: string[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    process.chdir(dir);
    delete process.env.HOPLAB_CONFIG;
    delete process.env.HOPLAB_AWS_ENDPOINT;
    delete process.env.CDKTF_OUTDIR;
    lines = [];
    errors = [];
    jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    jest.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    process.chdir(saved.cwd);
    if (saved.config !== undefined) process.env.HOPLAB_CONFIG = saved.config;
    if (saved.endpoint !== undefined) process.env.HOPLAB_AWS_ENDPOINT = saved.endpoint;
    else delete process.env.HOPLAB_AWS_ENDPOINT;
    if (saved.outdir !== undefined) process.env.CDKTF_OUTDIR = saved.outdir;
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir, lines: () => lines, errors: () => errors };
}
