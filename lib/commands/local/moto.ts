import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { processCpuMs, track } from '../../kit/terraform/child-processes';

/** A running local AWS emulator. */
export interface Emulator {
  /** Base URL, e.g. `http://127.0.0.1:45123`. */
  readonly endpoint: string;
  /** Whether hoplab started it (and so must stop it). */
  readonly owned: boolean;
  /** Stops it if hoplab started it; waits for the process to exit. */
  stop(): Promise<void>;
}

/** A free TCP port on loopback, picked by the kernel. */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** CPU time (ms) that counts as a sign of work: far more than an idle server's wake-ups, far less than a second of starting. */
const WORK_MS = 100;

/** What the starter of an emulator process knows of it while it starts (see {@link waitForEmulator}). */
export interface StartingEmulator {
  /** Why the process is gone, or undefined while it runs. */
  exited(): string | undefined;
  /** The CPU time (ms) it has used so far, or undefined where that cannot be read. */
  cpuMs(): number | undefined;
  /** Whether it has said it listens: an answer before that comes from another program on the same port. */
  listening(): boolean;
}

/**
 * Waits until `GET <endpoint>/moto-api/` answers. Gives up after `timeoutMs`
 * without an answer, or, for a process this one started (`starting`), as soon as
 * it exits. For such a process the `timeoutMs` count from its last sign of work
 * (CPU time used, where it can be read) instead of from the start: a moto still
 * starting on a busy machine is slow, not broken, and is waited for; one that has
 * stopped working without answering is not. A safety net still ends that wait at
 * `capMs` (default 20 times `timeoutMs`: 10 minutes for moto's default), working or not.
 */
export async function waitForEmulator(endpoint: string, timeoutMs: number, starting?: StartingEmulator, capMs = 20 * timeoutMs): Promise<void> {
  const started = Date.now();
  const cap = started + capMs;
  let deadline = started + timeoutMs;
  let worked = starting?.cpuMs();
  let lastError = '';
  while (Date.now() < Math.min(deadline, cap)) {
    const exit = starting?.exited();
    if (exit !== undefined) {
      throw new Error(`the emulator exited before it was ready: ${exit}`);
    }
    try {
      // An answer that comes late (a busy machine) but before the deadline counts: the request may take all the time left.
      const response = await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(Math.max(1000, Math.min(deadline, cap) - Date.now())) });
      if (response.ok && (starting?.listening() ?? true)) return;
      lastError = response.ok ? 'something else answers on that port (moto has not said it listens)' : `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 150));
    const used = starting?.cpuMs();
    if (used !== undefined && worked !== undefined && used >= worked + WORK_MS) {
      worked = used;
      deadline = Date.now() + timeoutMs;
    }
  }
  if (worked === undefined) throw new Error(`the emulator at ${endpoint} did not answer within ${timeoutMs / 1000} s (${lastError})`);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (Date.now() >= cap) throw new Error(`the emulator at ${endpoint} is not ready after ${seconds} s, though its process kept using CPU; last: ${lastError}`);
  throw new Error(
    `the emulator at ${endpoint} is not ready, and its process has used under ${WORK_MS} ms of CPU in the last ${timeoutMs / 1000} s (it was started ${seconds} s ago); last: ${lastError}`,
  );
}

export interface StartEmulatorOptions {
  /** Python interpreter with moto installed. @default 'python3' */
  readonly python?: string;
  /** How long to wait for it to answer: from its start, or (on Linux) from the last time its process used CPU. @default 30000 */
  readonly timeoutMs?: number;
  /** The safety net: how long to wait at most, even while its process keeps working. @default 20 times `timeoutMs` */
  readonly capMs?: number;
}

/**
 * moto's own server (`python3 -m moto.server`), serving one request at a time.
 * moto's server answers each request on its own thread, and its models are not
 * thread-safe: under load two requests race, and a create can fail with a 500
 * ("dictionary changed size during iteration") after it has stored what it
 * created. The AWS SDK retries the 500 and the retry answers "already exists":
 * seen here as `CreateOpenIDConnectProvider` 409 EntityAlreadyExists in the
 * middle of a Terraform apply, and reproduced with 30 concurrent clients (3 in
 * 3000 requests on threads, none one at a time, in about the same time).
 * Run with the same arguments as `moto.server` (`-H host -p port`).
 */
export const MOTO_ONE_AT_A_TIME = [
  'import sys, moto.server as server',
  'threaded = server.run_simple',
  'server.run_simple = lambda *args, **kwargs: threaded(*args, **{**kwargs, "threaded": False})',
  'server.main(sys.argv[1:])',
].join('\n');

/**
 * Starts moto's server on a free loopback port with AWS managed policies loaded
 * (EKS roles attach them), serving one request at a time ({@link MOTO_ONE_AT_A_TIME}).
 * It is started directly as `python3 -c …` so that the PID is moto's own, not a
 * version manager's shim. The port is free when picked, but another program
 * (another test run on the same machine) can take it before moto binds it: moto
 * then exits saying so, and a new port is tried.
 */
export async function startMoto(options: StartEmulatorOptions = {}): Promise<Emulator> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startMotoOn(await freeLoopbackPort(), options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** moto could not bind its port: another program took it after it was picked. */
class PortTaken extends Error {}

async function startMotoOn(port: number, options: StartEmulatorOptions): Promise<Emulator> {
  const endpoint = `http://127.0.0.1:${port}`;
  // moto logs every request on stderr. It goes to a file, not a pipe: a pipe is only drained while this
  // process's event loop runs, and a caller blocked in spawnSync (a test running a command) would let it
  // fill, and moto would stop answering in the middle of a Terraform run.
  const logDir = mkdtempSync(join(tmpdir(), 'hoplab-moto-'));
  const logFile = join(logDir, 'moto.log');
  const logFd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(options.python ?? 'python3', ['-c', MOTO_ONE_AT_A_TIME, '-H', '127.0.0.1', '-p', String(port)], {
    env: { ...process.env, MOTO_IAM_LOAD_MANAGED_POLICIES: 'true' },
    stdio: ['ignore', 'ignore', logFd],
    // Its own process group: a terminal Ctrl-C must not stop it before hoplab's cleanup destroy.
    detached: true,
  });
  closeSync(logFd);
  track(child);
  const log = () => {
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };
  let exit: string | undefined;
  let portTaken = false;
  let listening = false;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      const text = log();
      portTaken = /Address already in use|is in use by another program/.test(text);
      exit = `exit code ${code ?? signal}; ${text.slice(-4000).trim().split('\n').slice(-3).join(' ')}`;
      rmSync(logDir, { recursive: true, force: true });
      resolve();
    });
    child.on('error', (error) => {
      exit = error.message;
      resolve();
    });
  });
  const stop = async () => {
    if (exit === undefined) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
  };
  try {
    await waitForEmulator(
      endpoint,
      options.timeoutMs ?? 30_000,
      {
        exited: () => exit,
        cpuMs: () => (exit === undefined ? processCpuMs(child.pid) : undefined),
        // moto prints " * Running on http://127.0.0.1:<port>" once it has bound the port.
        listening: () => (listening ||= log().includes(` * Running on ${endpoint}`)),
      },
      options.capMs,
    );
  } catch (error) {
    await stop();
    if (portTaken) throw new PortTaken(`port ${port} was taken by another program before moto bound it`);
    throw error;
  }
  return { endpoint, owned: true, stop };
}

/** An emulator someone else runs: used as is and left running. */
export async function externalEmulator(endpoint: string): Promise<Emulator> {
  const trimmed = endpoint.replace(/\/+$/, '');
  await waitForEmulator(trimmed, 5000);
  return { endpoint: trimmed, owned: false, stop: async () => undefined };
}
