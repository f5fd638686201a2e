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

/** The AWS provider version `@cdktf/provider-aws@20.1.0` is generated for. */
export const AWS_PROVIDER_VERSION = '5.100.0';

/**
 * Finds a filesystem provider mirror that holds `hashicorp/aws` at `version`:
 * `HOPLAB_PROVIDER_MIRROR` if set (it must hold it), else the first candidate
 * that does. Returns undefined when there is none (Terraform then downloads).
 */
export function findProviderMirror(env: NodeJS.ProcessEnv = process.env, version = AWS_PROVIDER_VERSION): string | undefined {
  const holds = (dir: string) => existsSync(join(dir, 'registry.terraform.io', 'hashicorp', 'aws', version));
  const explicit = env.HOPLAB_PROVIDER_MIRROR;
  if (explicit) {
    if (!holds(explicit)) {
      throw new Error(
        `HOPLAB_PROVIDER_MIRROR=${explicit} does not hold registry.terraform.io/hashicorp/aws/${version}; ` + 'point it at a filesystem mirror made with `terraform providers mirror`, or unset it',
      );
    }
    return explicit;
  }
  return MIRROR_CANDIDATES.find(holds);
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
  /** File every line of output is appended to. */
  readonly logFile: string;
  /** Called with each output line, for progress. */
  readonly onLine?: (line: string) => void;
}

/** Runs Terraform child processes and forwards Ctrl-C to the one running. */
export class TerraformRunner {
  private current: ChildProcess | undefined;

  constructor(private readonly options: TerraformRunOptions) {}

  /** Runs `terraform <args>`; resolves with its stdout, rejects with the output's tail on a non-zero exit. */
  run(args: readonly string[]): Promise<string> {
    const { cwd, env, logFile, onLine } = this.options;
    appendFileSync(logFile, `\n$ terraform ${args.join(' ')}\n`);
    return new Promise((resolve, reject) => {
      const child = track(
        spawn('terraform', [...args], {
          cwd,
          env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own process group: a terminal Ctrl-C reaches hoplab only, which forwards one interrupt.
          detached: true,
        }),
      );
      this.current = child;
      let stdout = '';
      let tail: string[] = [];
      let partial = '';
      const take = (chunk: Buffer, isStdout: boolean) => {
        const text = chunk.toString();
        appendFileSync(logFile, text);
        if (isStdout) stdout += text;
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          onLine?.(line);
        }
        tail = [...tail, ...lines].slice(-25);
      };
      child.stdout?.on('data', (c: Buffer) => take(c, true));
      child.stderr?.on('data', (c: Buffer) => take(c, false));
      child.on('error', (error) => {
        this.current = undefined;
        reject(new Error(`could not run terraform: ${error.message}`));
      });
      child.on('close', (code, signal) => {
        this.current = undefined;
        if (code === 0) {
          resolve(stdout);
        } else {
          reject(new Error(`terraform ${args[0]} failed (${code ?? signal}); last lines:\n${tail.join('\n')}\n(full log: ${logFile})`));
        }
      });
    });
  }

  /** Asks the running Terraform to stop gracefully (it finishes in-flight operations and saves state). */
  interrupt(): void {
    this.current?.kill('SIGINT');
  }
}
