/**
 * `npx hoplab progress`: each attendee's handout exercises as done, not yet,
 * could not check, or not checkable, read from their clusters with the host's
 * admin access (lib/lab/progress).
 */
import { labEnvironments } from '../../config/environments';
import { LabConfig } from '../../config/schema';
import { commandMessage, UsageError } from '../../kit/cli/cli';
import { HostTokens, hostTokens } from '../../lab/cluster/cluster-access';
import { CommandRunner, LabOutputs, readLabOutputs } from '../../lab/files/outputs';
import { progressOf, readProgress } from '../../lab/progress/progress';
import { readLabConfig } from '../../lab/files/config-file';
import { outputsNotInConfig, selectEnvironments } from '../../lab/selection/selection';
import { PROGRESS_COMMAND } from './command';
import { progressJson, progressTable } from './render-progress';

/** What the command reads and where it writes; tests replace parts. */
export interface ProgressIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** @default - the config file, as every command reads it */
  readonly config?: () => LabConfig;
  /** Runs `npx cdktf output` (without --outputs). @default - a child process */
  readonly run?: CommandRunner;
  /** The host's access to the clusters. @default - hostTokens() */
  readonly tokens?: HostTokens;
  /** The clock of the JSON report. @default - now */
  readonly now?: () => Date;
}

const defaultIo: ProgressIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** The command: parses `argv`, reads the clusters, prints the report; resolves with the exit code. */
export async function progress(argv: readonly string[], io: ProgressIo = defaultIo): Promise<number> {
  /** A line on progress's own account, on stderr. */
  const say = (text: string) => io.err(`${commandMessage(PROGRESS_COMMAND.name, text)}\n`);
  const values = PROGRESS_COMMAND.parse(argv, io);
  if (!values) return 0;
  const config = io.config ? io.config() : readLabConfig().config;
  try {
    selectEnvironments(config, values.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const environments = labEnvironments(config).filter((e) => !values.env || values.env.includes(e.name));
  let outputs: LabOutputs;
  try {
    ({ outputs } = await readLabOutputs({
      outputsFile: values.outputs,
      synthDir: values.dir,
      ...(io.run ? { run: io.run } : {}),
      keepEnv: (env) => environments.some((e) => e.name === env),
      say,
    }));
  } catch (error) {
    // Outputs missing or unreadable: said as the reader words it.
    say((error as Error).message);
    return 1;
  }
  const elsewhere = outputsNotInConfig(outputs, config, values.outputs ?? 'the collected outputs');
  if (elsewhere) {
    say(elsewhere);
    return 1;
  }
  const { plans, states } = await readProgress({ outputs, config, environments, tokens: io.tokens ?? hostTokens(), timeoutMs: values.timeout * 1000 });
  const report = progressOf(plans, states, { replicas: config.app.replicas });
  io.out(values.format === 'json' ? progressJson(report, (io.now ?? (() => new Date()))()) : progressTable(report));
  const unchecked = report.some((p) => p.why !== undefined || p.exercises.some((e) => e.status === 'could not check'));
  return unchecked ? 1 : 0;
}
