/**
 * The `compare` command: argument parsing, bounds and exit codes, separate
 * from bin/compare.ts so tests can run it in-process.
 */
import { compareOutputs, probeModel } from '../../lab/probe/compare-model';
import { CommandRunner, LabOutputs, readLabOutputs } from '../../lab/files/outputs';
import { progressReporter } from '../../lab/probe/progress';
import { keepEnvironment, narrowOutputs, shardEnvironments } from '../../lab/selection/selection';
import { roomFromCompare, roomLines } from '../../lab/probe/room';
import { renderCompare } from './render-compare';
import { commandMessage, UsageError } from '../../kit/cli/cli';
import { COMPARE_COMMAND } from './command';
import { highlight, painter, WritableTerminal } from '../../kit/terminal/terminal';

export interface CompareIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Where progress goes (stderr); a TTY gets a bar. */
  readonly progress: WritableTerminal;
  readonly columns?: number;
  /** Colour the table's verdicts (bin/compare.ts: stdout is a TTY and NO_COLOR is not set). @default false */
  readonly color?: boolean;
  /** The config's environment names, in order (for --shard). @default - from the config file, as deploy reads it */
  readonly environments?: () => readonly string[];
  /** Runs `npx cdktf output` when no --outputs file is given. */
  readonly run?: CommandRunner;
  /**
   * `compare --watch ...`: the watch command, handed the other arguments (bin/compare.ts passes
   * it in; commands do not import each other).
   * @default - --watch is refused
   */
  readonly watch?: (argv: readonly string[]) => Promise<number>;
}

/** The command: parses `argv` and compares (or hands `--watch` to watch); resolves with the exit code. Throws a UsageError for a bad command line. */
export async function runCompare(argv: readonly string[], io: CompareIo): Promise<number> {
  if (argv.includes('--watch')) {
    const rest = argv.filter((a) => a !== '--watch');
    if (!io.watch) throw new UsageError('--watch is not available here; run npm run watch');
    return io.watch(rest);
  }
  const values = COMPARE_COMMAND.parse(argv, io);
  if (!values) return 0;
  const say = (line: string) => io.err(`${commandMessage(COMPARE_COMMAND.name, line)}\n`);
  if (values.room && values.format !== 'table') throw new UsageError(`--room and --format ${values.format} contradict each other: --room is a view for a terminal; give one of them`);
  const settings = {
    format: values.format,
    count: values.count,
    concurrency: values.concurrency,
    maxInFlight: values['max-in-flight'],
    timeoutMs: values.timeout,
    ...(values['my-ip'] !== undefined ? { myIp: values['my-ip'] } : {}),
  };
  const inShard = values.shard !== undefined ? shardEnvironments(values.shard, io.environments) : undefined;

  let outputs: LabOutputs;
  let source: string;
  try {
    ({ outputs, source } = await readLabOutputs({
      outputsFile: values.outputs,
      synthDir: values.dir,
      run: io.run,
      keepEnv: keepEnvironment(values.env, inShard),
      say,
    }));
  } catch (error) {
    // Outputs missing or unreadable: said as the reader words it.
    say((error as Error).message);
    return 1;
  }
  const narrowed = narrowOutputs(outputs, values.env, inShard, values.shard);
  if (narrowed.missing) {
    say(narrowed.missing);
    return 1;
  }
  outputs = narrowed.outputs;

  let model = compareOutputs(outputs, source);
  if (values.probe) {
    model = await probeModel(model, { ...settings, progress: progressReporter(io.progress) });
  }
  if (values.room) {
    const attendees = model.environments.length;
    const header = `hoplab compare: ${attendees} attendee${attendees === 1 ? '' : 's'}, ${values.probe ? 'probed' : 'not probed (add --probe to measure)'}; source ${source}`;
    io.out(`${roomLines(roomFromCompare(model), { width: io.columns ?? 80, paint: painter(io.color === true), header }).join('\n')}\n`);
  } else {
    io.out(highlight(renderCompare(model, settings.format, io.columns), io.color === true && settings.format === 'table'));
  }
  if (values.probe) {
    const unmeasured = unmeasuredExposures(model);
    for (const line of unmeasured) say(`nothing measured: ${line}`);
    if (unmeasured.length > 0) return 1;
  }
  return 0;
}

/** Under --probe: each exposure that was not probed or got no successful reply, or that there were none to probe. */
export function unmeasuredExposures(model: ReturnType<typeof compareOutputs>): string[] {
  const lines: string[] = [];
  let cells = 0;
  for (const env of model.environments) {
    for (const row of env.rows) {
      for (const [cloud, cell] of Object.entries(row.clouds)) {
        cells += 1;
        if (!cell) continue;
        if (!cell.probe) lines.push(`${env.env} ${cloud} ${row.mode}: not probed: ${cell.not_probed_because ?? 'no URL'}`);
        else if (cell.probe.ok === 0)
          lines.push(
            `${env.env} ${cloud} ${row.mode}: no successful reply of ${cell.probe.sent} (${Object.entries(cell.probe.errors)
              .map(([e, n]) => `${n} ${e}`)
              .join(', ')})`,
          );
      }
    }
  }
  if (cells === 0) lines.push('the outputs hold no exposure to probe (are the -lb stacks deployed?)');
  return lines;
}
