import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { track } from '../../plumbing/terraform/child-processes';

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

/** Waits until `GET <endpoint>/moto-api/` answers, or throws after `timeoutMs`. */
export async function waitForEmulator(endpoint: string, timeoutMs: number, exited?: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    const exit = exited?.();
    if (exit !== undefined) {
      throw new Error(`the emulator exited before it was ready: ${exit}`);
    }
    try {
      const response = await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the emulator at ${endpoint} did not answer within ${timeoutMs / 1000} s (${lastError})`);
}

export interface StartEmulatorOptions {
  /** Python interpreter with moto installed. @default 'python3' */
  readonly python?: string;
  /** How long to wait for it to answer. @default 30000 */
  readonly timeoutMs?: number;
}

/**
 * Starts moto's server on a free loopback port with AWS managed policies loaded
 * (EKS roles attach them). It is started directly as `python3 -m moto.server`
 * so that the PID is moto's own, not a version manager's shim.
 */
export async function startMoto(options: StartEmulatorOptions = {}): Promise<Emulator> {
  const port = await freeLoopbackPort();
  const endpoint = `http://127.0.0.1:${port}`;
  // moto logs every request on stderr. It goes to a file, not a pipe: a pipe is only drained while this
  // process's event loop runs, and a caller blocked in spawnSync (a test running a command) would let it
  // fill, and moto would stop answering in the middle of a Terraform run.
  const logDir = mkdtempSync(join(tmpdir(), 'hoplab-moto-'));
  const logFile = join(logDir, 'moto.log');
  const logFd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(options.python ?? 'python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
    env: { ...process.env, MOTO_IAM_LOAD_MANAGED_POLICIES: 'true' },
    stdio: ['ignore', 'ignore', logFd],
    // Its own process group: a terminal Ctrl-C must not stop it before hoplab's cleanup destroy.
    detached: true,
  });
  closeSync(logFd);
  track(child);
  const stderrTail = () => {
    try {
      return readFileSync(logFile, 'utf8').slice(-4000);
    } catch {
      return '';
    }
  };
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exit = `exit code ${code ?? signal}; ${stderrTail().trim().split('\n').slice(-3).join(' ')}`;
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
    await waitForEmulator(endpoint, options.timeoutMs ?? 30_000, () => exit);
  } catch (error) {
    await stop();
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
