import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TerraformRunner } from '../../kit/terraform/terraform';
import { Direction, StackTask } from '../../lab/selection/stack-graph';

export interface StackRunnerOptions {
  /** cdktf output directory holding `stacks/<stack>/cdk.tf.json`. */
  readonly outdir: string;
  /** Directory for one log file per stack and action. */
  readonly logDir: string;
  /** Extra environment for Terraform (e.g. TF_CLI_CONFIG_FILE). */
  readonly env: NodeJS.ProcessEnv;
  /** Receives one line per notable Terraform line, prefixed with the stack. @default - nothing */
  readonly onLine?: (stack: string, line: string) => void;
  /** Receives every line of Terraform's output as it streams (for the live progress). @default - nothing */
  readonly onOutput?: (stack: string, line: string) => void;
  /** Told when a stack's Terraform moves on: `init`, then `apply` or `destroy`. @default - nothing */
  readonly onPhase?: (stack: string, phase: 'init' | 'apply' | 'destroy') => void;
}

/**
 * Applies or destroys one synthesized stack with Terraform directly
 * (`init`, then `apply` or `destroy`), the way `cdktf deploy` does, without
 * its provider-lock step that needs the registry. Cross-stack references
 * read the other stacks' state through their backends.
 */
export class StackRunner {
  /**
   * The stacks whose last apply or destroy had nothing to do: Terraform printed "No changes."
   * (`No changes. Your infrastructure matches the configuration.` on apply, `No changes. No
   * objects need to be destroyed.` on destroy, seen with Terraform 1.11.4). A deploy run again
   * after a failure or an interrupt finds the stacks that had finished so.
   */
  readonly unchanged = new Set<string>();
  private readonly runners = new Set<TerraformRunner>();
  /** `terraform init`s run one at a time: concurrent first installs into one plugin cache can race. */
  private initQueue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: StackRunnerOptions) {
    mkdirSync(options.logDir, { recursive: true });
  }

  /**
   * `extraArgs` go after `apply` or `destroy` (a retried destroy's `-refresh=false`); `before` runs
   * between `init` and the apply or destroy, with Terraform in the stack's directory (adopting what
   * an interrupted deploy left out of the state).
   */
  async run(task: StackTask, direction: Direction, extraArgs: readonly string[] = [], before?: (terraform: (args: readonly string[]) => Promise<string>) => Promise<void>): Promise<void> {
    const runner = new TerraformRunner({
      cwd: join(this.options.outdir, 'stacks', task.stack),
      env: this.options.env,
      logFile: join(this.options.logDir, `${task.stack}.${direction}.log`),
      onLine: (line) => {
        this.options.onOutput?.(task.stack, line);
        if (/(complete after|Error:|Apply complete|Destroy complete)/.test(line)) this.options.onLine?.(task.stack, line.trim());
      },
    });
    this.runners.add(runner);
    try {
      this.options.onPhase?.(task.stack, 'init');
      const init = this.initQueue.then(() => runner.run(['init', '-input=false', '-no-color']));
      this.initQueue = init.catch(() => undefined);
      await init;
      await before?.((args) => runner.run(args));
      const action = direction === 'deploy' ? 'apply' : 'destroy';
      this.options.onPhase?.(task.stack, action);
      // apply and destroy plan again first, so a stack that is already as it should be changes nothing.
      const out = await runner.run([action, '-auto-approve', '-input=false', '-no-color', ...extraArgs]);
      if (/^No changes\. /m.test(out)) this.unchanged.add(task.stack);
      else this.unchanged.delete(task.stack);
    } finally {
      this.runners.delete(runner);
    }
  }

  /** Asks every running Terraform to stop gracefully (Ctrl-C). */
  interrupt(): void {
    for (const runner of this.runners) runner.interrupt();
  }
}
