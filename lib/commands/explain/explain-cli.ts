/**
 * The `explain` command: argument parsing and exit codes, separate from
 * bin/explain.ts so tests can run it in-process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { commandMessage, UsageError } from '../../kit/cli/cli';
import { explainDir } from '../../lab/anatomy/explain-dir';
import { ExplainModel } from '../../lab/anatomy/model';
import { readOutputsFile } from '../../lab/files/outputs';
import { MeasuredByExposure, readMeasuredFile } from '../../lab/probe/measured';
import { writeDiagrams } from './mermaid';
import { renderExplain } from './render-explain';
import { EXPLAIN_COMMAND } from './command';
import { ExposureUrls, urlsFromOutputs } from './words';

/** Where a command writes. */
export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Width to fit (bin/explain.ts: \$COLUMNS, the TTY's, 80). @default 80 */
  readonly columns?: number;
  /** Colour the terminal view (bin/explain.ts: stdout is a TTY and NO_COLOR is not set). @default false */
  readonly color?: boolean;
}

/** Whether any cloud of the model has `mode`, or says why it does not offer it. */
function mentions(model: ExplainModel, mode: string): boolean {
  return model.environments.some((env) => env.clouds.some((c) => c.exposures.some((e) => e.mode === mode) || c.not_offered.some((n) => n.mode === mode)));
}

/** The command: parses `argv` and explains; returns the exit code. Throws a UsageError for a bad command line. */
export function runExplain(argv: readonly string[], io: CommandIo): number {
  const values = EXPLAIN_COMMAND.parse(argv, io);
  if (!values) return 0;
  const say = (line: string) => io.err(`${commandMessage(EXPLAIN_COMMAND.name, line)}\n`);
  const { format } = values;
  if (values.details && format !== 'table') throw new UsageError('--details is for --format table (markdown, json and html always have every detail)');
  if (values.measured !== undefined && format !== 'html') throw new UsageError(`--measured is for --format html (the packet's journeys), not --format ${format}`);
  let model: ExplainModel;
  let urls: ExposureUrls | undefined;
  let measured: MeasuredByExposure | undefined;
  try {
    model = explainDir(values.dir, values.env !== undefined ? { envs: values.env } : {});
    urls = values.outputs !== undefined ? urlsFromOutputs(readOutputsFile(values.outputs)) : undefined;
    measured = values.measured !== undefined ? readMeasuredFile(values.measured) : undefined;
  } catch (error) {
    // Nothing to read, or an outputs file or compare report that cannot be read: said as the readers word it.
    say((error as Error).message);
    return 1;
  }
  if (values.exposure !== undefined && !mentions(model, values.exposure)) {
    const found = [...new Set(model.environments.flatMap((env) => env.clouds.flatMap((c) => c.exposures.map((e) => e.mode))))];
    say(`no environment in ${values.dir} has exposure ${values.exposure}; found: ${found.length ? found.join(', ') : 'none'}`);
    return 1;
  }
  const toFile = values.out !== undefined;
  const text = renderExplain(model, format, {
    width: io.columns ?? 80,
    // A file is not a terminal: no colour codes in it.
    color: io.color === true && !toFile,
    details: values.details,
    ...(values.exposure !== undefined ? { exposure: values.exposure } : {}),
    ...(urls ? { urls } : {}),
    ...(measured ? { measured } : {}),
  });
  if (toFile) {
    try {
      mkdirSync(dirname(values.out), { recursive: true });
      writeFileSync(values.out, text);
    } catch (error) {
      say(`cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      return 1;
    }
    say(`wrote ${values.out}`);
  } else {
    io.out(text);
  }
  if (values.diagram !== undefined) {
    try {
      const written = writeDiagrams(model, values.diagram);
      say(`wrote ${written.length} Mermaid diagram${written.length === 1 ? '' : 's'} to ${values.diagram}`);
    } catch (error) {
      say(`cannot write diagrams to ${values.diagram}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      return 1;
    }
  }
  return 0;
}
