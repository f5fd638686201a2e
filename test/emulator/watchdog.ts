/**
 * A watchdog on a long flow's progress, for the emulator tests: instead of a
 * fixed deadline (which a busy machine turns into a failure while nothing is
 * wrong), a flow fails when what it waits on stops making progress, or exits
 * with an error. Progress is any of:
 *
 * - new output from the process (Terraform prints "Still creating... [10s
 *   elapsed]" every 10 s while it waits on a resource);
 * - growth of files it writes (the commands' Terraform logs in .hoplab/logs);
 * - CPU time used by its process tree (at least {@link CPU_PROGRESS_MS} since the
 *   last mark): a starved Terraform decoding provider schemas, or a synth, is
 *   silent but busy, and is slow, not stuck.
 *
 * A flow stalls when none of these happens for {@link STALL_MS} (5 minutes,
 * HOPLAB_TEST_STALL_S sets it): 30 missed Terraform heartbeats. In two concurrent
 * `npm test` runs on a 2-core machine the longest time without any progress was
 * 41 s, and without output or log growth 178 s (README, "Tests on a busy
 * machine"). The message says what stalled, for how long, and its last output
 * lines. {@link CAP_MS} (1 hour, HOPLAB_TEST_CAP_S) caps a flow that keeps making
 * "progress" forever (a retry loop printing as it goes): a safety net only, far
 * above the 6.5 minutes the longest command took in those runs.
 *
 * A watchdog checks every few seconds; before it calls a stall it lets pending
 * output be read and looks at the files and CPU again, so a worker that was
 * itself starved of CPU does not mistake its own lateness for the flow's.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseProcStat, ProcStat } from '../../lib/kit/terraform/child-processes';

const fromSeconds = (value: string | undefined, fallbackMs: number) => (value && Number(value) > 0 ? Number(value) * 1000 : fallbackMs);

/** How long a flow may make no progress at all before it fails. */
export const STALL_MS = fromSeconds(process.env.HOPLAB_TEST_STALL_S, 300_000);
/** The safety net: how long a flow may run however much progress it makes. */
export const CAP_MS = fromSeconds(process.env.HOPLAB_TEST_CAP_S, 3_600_000);
/** CPU time that counts as progress: far above what idle processes use between two checks, far below a second of work. */
export const CPU_PROGRESS_MS = 100;
/** hoplab's own heartbeat while a step runs (`      ... terraform apply: 40.0 s, 12 resources created`): a timer, not the flow's progress. */
export const HOPLAB_HEARTBEAT = /^ {6}\.\.\. .*: \d+\.\d s\b/;

export interface WatchOptions {
  /** What is watched, for the message (a command line and where it runs). */
  readonly what: string;
  /** @default STALL_MS */
  readonly stallMs?: number;
  /** @default CAP_MS */
  readonly capMs?: number;
  /** The process whose tree's CPU time counts as progress. */
  readonly pid?: () => number | undefined;
  /** Count the CPU time of `pid` itself, not only of its descendants (false for this process: its own checks are not progress). @default true */
  readonly includeRoot?: boolean;
  /** Files whose growth counts as progress; the last lines of the latest one go into the message. */
  readonly files?: () => readonly string[];
  /** Output lines that are shown but are no progress (a timer's heartbeat). */
  readonly notProgress?: RegExp;
}

/** Every process's parent and CPU time, read from /proc (empty where there is none). */
function processTable(): Map<number, ProcStat> {
  const table = new Map<number, ProcStat>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (stat) table.set(Number(entry), stat);
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** `root` and its descendants, from a process table. */
function tree(root: number, table: Map<number, ProcStat>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  for (const queue = [root]; queue.length > 0; ) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Ends `root` and everything it started (Terraform runs in process groups of its own, so killing the root alone would orphan it). */
export function killTree(root: number | undefined): void {
  if (root === undefined) return;
  const pids = tree(root, processTable());
  const signal = (sig: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGTERM');
  setTimeout(() => signal('SIGKILL'), 5000).unref();
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const indent = (lines: readonly string[]) => lines.map((l) => `  | ${l}`).join('\n');

export class Watchdog {
  /** Rejects with the stall (or cap) message; never resolves. */
  readonly failed: Promise<never>;
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private readonly stallMs: number;
  private readonly capMs: number;
  private readonly timer: NodeJS.Timeout;
  private lastProgress = Date.now();
  private lastSeen = Date.now();
  private longestQuiet = 0;
  private longestUnseen = 0;
  private tail: string[] = [];
  /** Heartbeat lines since the last line of real output, and the last of them. */
  private idleLines = 0;
  private lastIdleLine = '';
  private partial = '';
  private readonly files = new Map<string, string>();
  private latestFile: string | undefined;
  private cpuMark: number | undefined;
  private looked = false;
  private fail: (error: Error) => void = () => undefined;
  private stopped = false;

  constructor(private readonly options: WatchOptions) {
    this.stallMs = options.stallMs ?? STALL_MS;
    this.capMs = options.capMs ?? CAP_MS;
    this.failed = new Promise<never>((_, reject) => (this.fail = reject));
    // Nobody need listen: a flow that ends first never looks at it.
    this.failed.catch(() => undefined);
    this.sample();
    this.timer = setInterval(() => this.check(), Math.min(5000, Math.max(100, this.stallMs / 5)));
  }

  /** Aborted with the stall (or cap) error. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Output of the watched flow: progress (but for `notProgress` lines), and the tail the message shows. */
  output(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    // Lines that are no progress (a heartbeat) are counted, not kept: a flow that stalls while its timer ticks must still show what it last did.
    const idle = lines.filter((line) => this.options.notProgress?.test(line));
    if (idle.length > 0) {
      this.idleLines += idle.length;
      this.lastIdleLine = idle[idle.length - 1];
    }
    const kept = lines.filter((line) => !this.options.notProgress?.test(line));
    if (kept.length > 0) {
      this.tail = [...this.tail, ...kept].slice(-30);
      this.idleLines = 0;
    }
    if (text.split('\n').some((fragment) => fragment.trim() !== '' && !this.options.notProgress?.test(fragment))) this.progress(true);
  }

  /** Stops watching (the flow ended); with HOPLAB_TEST_WATCHDOG_LOG set, appends what it saw there (one JSON line). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    const log = process.env.HOPLAB_TEST_WATCHDOG_LOG;
    if (!log) return;
    const now = Date.now();
    const record = {
      what: this.options.what,
      seconds: Math.round((now - this.started) / 100) / 10,
      // The longest time without any progress, and without output or file growth (CPU not counted).
      longestQuietSeconds: Math.round(Math.max(this.longestQuiet, now - this.lastProgress) / 100) / 10,
      longestSilentSeconds: Math.round(Math.max(this.longestUnseen, now - this.lastSeen) / 100) / 10,
      failed: this.controller.signal.aborted,
    };
    try {
      appendFileSync(log, `${JSON.stringify(record)}\n`);
    } catch {
      // statistics only
    }
  }

  private progress(seen: boolean): void {
    const now = Date.now();
    this.longestQuiet = Math.max(this.longestQuiet, now - this.lastProgress);
    this.lastProgress = now;
    if (seen) {
      this.longestUnseen = Math.max(this.longestUnseen, now - this.lastSeen);
      this.lastSeen = now;
    }
  }

  /** Looks at the files and the CPU time; either having grown is progress. */
  private sample(): void {
    for (const file of this.options.files?.() ?? []) {
      let state: string;
      try {
        const stat = statSync(file);
        state = `${stat.size}:${stat.mtimeMs}`;
      } catch {
        continue;
      }
      if (this.files.get(file) !== state) {
        // A file that appeared or changed since the last look (the first look only takes stock).
        if (this.looked) this.progress(true);
        this.files.set(file, state);
        this.latestFile = file;
      }
    }
    this.looked = true;
    const root = this.options.pid?.();
    if (root === undefined) return;
    const table = processTable();
    const pids = tree(root, table).filter((pid) => this.options.includeRoot !== false || pid !== root);
    const cpu = pids.reduce((sum, pid) => sum + (table.get(pid)?.cpuMs ?? 0), 0);
    if (this.cpuMark === undefined || cpu < this.cpuMark) {
      // First look, or a process left the tree with its time: mark anew.
      this.cpuMark = cpu;
    } else if (cpu >= this.cpuMark + CPU_PROGRESS_MS) {
      this.cpuMark = cpu;
      this.progress(false);
    }
  }

  private check(): void {
    if (this.stopped || this.controller.signal.aborted) return;
    this.sample();
    const overdue = () => Date.now() - this.lastProgress >= this.stallMs || Date.now() - this.started >= this.capMs;
    if (!overdue()) return;
    // Let output that arrived while this process waited for the CPU be read first (setImmediate runs after the
    // event loop's poll for I/O), then look again.
    setImmediate(() => {
      if (this.stopped || this.controller.signal.aborted) return;
      this.sample();
      if (!overdue()) return;
      const error = new Error(this.message());
      this.controller.abort(error);
      this.fail(error);
    });
  }

  private message(): string {
    const now = Date.now();
    const ran = seconds(now - this.started);
    const head =
      now - this.started >= this.capMs
        ? `${this.options.what}: still running after ${ran}, the safety cap (HOPLAB_TEST_CAP_S; far above what a slow, busy machine needs), though it kept making progress`
        : `${this.options.what}: stalled: no progress for ${seconds(now - this.lastProgress)} (the limit is ${seconds(this.stallMs)}, HOPLAB_TEST_STALL_S): no new output${
            this.options.files ? ', no growth of its log files' : ''
          }${this.options.pid ? `, under ${CPU_PROGRESS_MS} ms of CPU used by its processes` : ''}; it ran ${ran} in all`;
    const parts = [head];
    const shown = [...this.tail, ...(this.partial ? [this.partial] : [])].slice(-20);
    parts.push(shown.length > 0 ? `last output lines:\n${indent(shown)}` : 'no output at all');
    if (this.idleLines > 0) parts.push(`then ${this.idleLines} heartbeat line${this.idleLines === 1 ? '' : 's'} (no progress), the last:\n${indent([this.lastIdleLine])}`);
    if (this.latestFile) {
      try {
        const lines = readFileSync(this.latestFile, 'utf8').trimEnd().split('\n').slice(-20);
        parts.push(`last lines of ${this.latestFile}:\n${indent(lines)}`);
      } catch {
        // gone
      }
    }
    return parts.join('\n');
  }
}

export interface WatchedRun {
  readonly code: number | null;
  /** stdout and stderr as they came. */
  readonly out: string;
  readonly stdout: string;
  readonly stderr: string;
  /** What ran, as the watchdog names it. */
  readonly what: string;
  /** The log files it was watched by ({@link RunWatchedOptions.files}) when it ended: what a failed expectation shows. */
  readonly logs: readonly string[];
}

export interface RunWatchedOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** For the message. @default the command line */
  readonly what?: string;
  readonly stallMs?: number;
  readonly capMs?: number;
  /** Files whose growth counts as progress besides the output (see {@link WatchOptions.files}). */
  readonly files?: () => readonly string[];
  readonly notProgress?: RegExp;
  /** Receives the output as it comes. */
  readonly onOutput?: (text: string) => void;
  /** Receives the process once started (to signal it, as a user's Ctrl-C would). */
  readonly onStart?: (child: ChildProcess) => void;
}

/**
 * Runs `file args` to its end under a {@link Watchdog}: resolves with its exit
 * code and output however long it takes while it makes progress; rejects with
 * the watchdog's message (after ending the process and everything it started)
 * when it stalls.
 */
export function runWatched(file: string, args: readonly string[], options: RunWatchedOptions): Promise<WatchedRun> {
  const what = options.what ?? `${file} ${args.join(' ')} (in ${options.cwd})`;
  return new Promise<WatchedRun>((resolveRun, reject) => {
    const child: ChildProcess = spawn(file, [...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    options.onStart?.(child);
    const dog = new Watchdog({
      what,
      stallMs: options.stallMs,
      capMs: options.capMs,
      pid: () => child.pid,
      files: options.files,
      notProgress: options.notProgress,
    });
    let out = '';
    let stdout = '';
    let stderr = '';
    const take = (text: string) => {
      out += text;
      dog.output(text);
      options.onOutput?.(text);
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      take(chunk.toString());
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      take(chunk.toString());
    });
    dog.failed.catch((error: Error) => {
      killTree(child.pid);
      dog.stop();
      reject(error);
    });
    child.on('error', (error) => {
      dog.stop();
      reject(error);
    });
    child.on('close', (code) => {
      if (dog.signal.aborted) return;
      dog.stop();
      resolveRun({ code, out, stdout, stderr, what, logs: options.files?.() ?? [] });
    });
  });
}

/** The files under `dir` (not recursive), for {@link WatchOptions.files}; none while it does not exist. */
export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).map((f) => join(dir, f));
  } catch {
    return [];
  }
}
