import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { track } from './child-processes';

/** Places a filesystem provider mirror is commonly kept, searched in order. */
export const MIRROR_CANDIDATES = [
  '/opt/tf-plugins',
  join(homedir(), '.terraform.d', 'plugins'),
  join(homedir(), '.local', 'share', 'terraform', 'plugins'),
  '/usr/local/share/terraform/plugins',
  '/usr/share/terraform/plugins',
];

/** A provider as a filesystem mirror holds it: `registry.terraform.io/<namespace>/<type>/<version>`. */
export interface MirroredProvider {
  readonly namespace: string;
  readonly type: string;
  readonly version: string;
}

/** Whether the filesystem mirror at `dir` holds `provider`. */
export function mirrorHolds(dir: string, provider: MirroredProvider): boolean {
  return existsSync(join(dir, 'registry.terraform.io', provider.namespace, provider.type, provider.version));
}

/**
 * Writes a Terraform CLI config that installs providers from `mirror` only,
 * never from a registry, and returns the environment that makes Terraform use it.
 */
export function writeMirrorCliConfig(path: string, mirror: string): { TF_CLI_CONFIG_FILE: string } {
  writeFileSync(
    path,
    ['provider_installation {', '  filesystem_mirror {', `    path = ${JSON.stringify(mirror)}`, '  }', '  direct {', '    exclude = ["registry.terraform.io/*/*"]', '  }', '}', ''].join('\n'),
  );
  return { TF_CLI_CONFIG_FILE: path };
}

export interface TerraformRunOptions {
  /** The synthesized stack's directory. */
  readonly cwd: string;
  /** Extra environment (TF_CLI_CONFIG_FILE and the like). */
  readonly env: NodeJS.ProcessEnv;
  /** File the command line and its output are appended to (but for the stdout of a `-json` command: machine output, large, and it can hold sensitive values). */
  readonly logFile: string;
  /** Called with each output line, for progress. */
  readonly onLine?: (line: string) => void;
  /**
   * `own`: Terraform runs in a process group of its own, so a terminal's Ctrl-C reaches hoplab
   * alone, which asks Terraform once to stop ({@link TerraformRunner.interrupt}; twice, Terraform
   * would "exit immediately"). `shared`: in hoplab's group, so Ctrl-C reaches Terraform directly
   * (verify, whose plans only read and which forwards nothing).
   * @default 'own'
   */
  readonly processGroup?: 'own' | 'shared';
  /** Whether stdout goes to the log too (`state pull` prints the state, which can hold secrets). @default - yes, but for a `-json` command */
  readonly logStdout?: boolean;
}

/** How one Terraform command ended. */
export interface TerraformResult {
  /** Its exit code; 1 when a signal ended it, 127 when it could not be started. */
  readonly code: number;
  /** The signal that ended it, if one did. */
  readonly signal?: NodeJS.Signals;
  readonly stdout: string;
  /** Its stderr; why it could not be started, when it could not. */
  readonly stderr: string;
  /** The last 25 lines of its output, both streams. */
  readonly tail: readonly string[];
  /** Set when Terraform could not be started at all. */
  readonly startError?: string;
}

/**
 * Runs `terraform <args>` as a child process (tracked, so it is killed if hoplab exits first);
 * resolves however it ends, never rejects. `onStart` is given the child while it runs.
 */
export function runTerraform(args: readonly string[], options: TerraformRunOptions, onStart?: (child: ChildProcess | undefined) => void): Promise<TerraformResult> {
  const { cwd, env, logFile, onLine } = options;
  appendFileSync(logFile, `\n$ terraform ${args.join(' ')}\n`);
  const logStdout = options.logStdout ?? !args.includes('-json');
  return new Promise((resolve) => {
    const child = track(
      spawn('terraform', [...args], {
        cwd,
        env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: (options.processGroup ?? 'own') === 'own',
      }),
    );
    onStart?.(child);
    let stdout = '';
    let stderr = '';
    let tail: string[] = [];
    let partial = '';
    const take = (chunk: Buffer, isStdout: boolean) => {
      const text = chunk.toString();
      if (isStdout) stdout += text;
      else stderr += text;
      if (!isStdout || logStdout) appendFileSync(logFile, text);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine?.(line);
      tail = [...tail, ...lines].slice(-25);
    };
    child.stdout?.on('data', (c: Buffer) => take(c, true));
    child.stderr?.on('data', (c: Buffer) => take(c, false));
    child.on('error', (error) => {
      onStart?.(undefined);
      const startError = `could not run terraform: ${error.message}`;
      resolve({ code: 127, stdout, stderr: startError, tail, startError });
    });
    child.on('close', (code, signal) => {
      onStart?.(undefined);
      resolve({ code: code ?? 1, ...(code === null && signal ? { signal } : {}), stdout, stderr, tail });
    });
  });
}

/** Runs Terraform commands in one stack's directory and forwards Ctrl-C to the one running. */
export class TerraformRunner {
  private current: ChildProcess | undefined;

  constructor(private readonly options: TerraformRunOptions) {}

  /** Runs `terraform <args>`; resolves with its stdout, rejects with the output's tail on a non-zero exit. */
  async run(args: readonly string[]): Promise<string> {
    const result = await runTerraform(args, this.options, (child) => (this.current = child));
    if (result.startError !== undefined) throw new Error(result.startError);
    if (result.code !== 0) throw new Error(`terraform ${args[0]} failed (${result.signal ?? result.code}); last lines:\n${result.tail.join('\n')}\n(full log: ${this.options.logFile})`);
    return result.stdout;
  }

  /** Asks the running Terraform to stop gracefully (it finishes in-flight operations and saves state). */
  interrupt(): void {
    this.current?.kill('SIGINT');
  }
}
