/**
 * The `watch` command: argument parsing, selection and output, separate from
 * bin/watch.ts so tests run it in-process with fake streams, a fake clock and
 * their own abort signal.
 */
import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXPOSURE_MODES } from '../../model/modes';
import { compareOutputs, probeTargets } from '../../lab/probe/compare-model';
import { CommandRunner, CompareInputError, LabOutputs, readLabOutputs } from '../../lab/files/outputs';
import { SHARD_OPTION } from '../../lab/selection/shard';
import { shardEnvironments } from '../../lab/selection/selection';
import { colorEnabled, painter, redrawEnabled, TerminalEnv, terminalHeight, terminalWidth, WritableTerminal } from '../../kit/terminal/terminal';
import { wrapWords } from '../../kit/text/wrap';
import { LiveRegion } from '../../kit/terminal/live-region';
import { WatchClock, WatchEvent, watchTargets, WATCH_LIMITS } from './watch';
import { Sample } from '../../lab/probe/probe';
import { jsonLines, plainLines, screenLines, summaryJson, summaryLines } from './render-watch';
import { TimelineRecorder, watchPage } from './watch-page';

export const WATCH_FORMATS = ['table', 'json'] as const;

export interface WatchIo {
  /** Where the screen, the lines and the JSON go (stdout). */
  readonly stdout: WritableTerminal;
  /** Messages (stderr). */
  readonly err: (text: string) => void;
  /** @default process.env */
  readonly env?: TerminalEnv;
  /** Ctrl-C: ends the watch with its summary. */
  readonly signal?: AbortSignal;
  /** @default the real clock */
  readonly clock?: WatchClock;
  /** Sends one request. @default probeOnce */
  readonly send?: (url: URL, timeoutMs: number, stop: AbortSignal) => Promise<Sample>;
  /** The config's environment names, in order (for --shard). @default - from the config file */
  readonly environments?: () => readonly string[];
  /** Runs `npx cdktf output` when no --outputs file is given. */
  readonly run?: CommandRunner;
}

const L = WATCH_LIMITS;

export const WATCH_USAGE = `usage: npm run watch -- [--outputs FILE] [--dir DIR] [--env NAME[,NAME]] [--shard K/N]
                        [--exposure MODE[,MODE]] [--rate N] [--max-rate N] [--duration S]
                        [--interval S] [--window S] [--timeout MS] [--my-ip ADDRESS]
                        [--format table|json] [--html FILE]
       npm run compare -- --watch [the same options]

Probes the selected exposures continuously, all at the same time, at a bounded
rate, and shows per exposure: requests per second, errors, latency p50/p99 over
the last --window seconds, how many Pods and nodes answered (and which), and the
client-IP verdict (client_ip_via, SNAT) measured as compare --probe measures it.
A change is highlighted when it happens (errors start or stop, the verdict flips,
a Pod or node appears or is gone) and logged under the table. Run it while
attendees scale the Deployment, drain a node or flip externalTrafficPolicy.
Ends after --duration, or on Ctrl-C, with a summary.

On a terminal the screen is redrawn in place (colour unless NO_COLOR is set);
otherwise it prints one line per exposure per interval, and one per change.

options:
  --outputs FILE     outputs as \`npx cdktf output --outputs-file FILE\` writes them
                     (default: run npx cdktf output for the stacks in --dir)
  --dir DIR          synthesized stacks (default cdktf.out)
  --env NAME[,NAME]  only these environments
  --shard K/N        only the environments of shard K of N, as deploy --shard puts them
  --exposure MODE[,MODE]
                     only these exposures (${EXPOSURE_MODES.join(', ')})
  --rate N           requests per second per exposure (default ${L.rate.default}, ${L.rate.min}-${L.rate.max})
  --max-rate N       requests per second over all exposures together (default ${L.maxRate.default},
                     ${L.maxRate.min}-${L.maxRate.max}); each exposure's rate is lowered to fit
  --duration S       seconds to run (default ${L.duration.default}: until Ctrl-C; at most ${L.duration.max})
  --interval S       seconds between updates (default ${L.interval.default}, ${L.interval.min}-${L.interval.max})
  --window S         seconds the figures cover (default ${L.window.default}, ${L.window.min}-${L.window.max})
  --timeout MS       deadline of one request in ms (default ${L.timeout.default}, ${L.timeout.min}-${L.timeout.max})
  --my-ip ADDRESS    your public address as the load balancer sees it (see compare --help)
  --format FORMAT    table (default) or json: JSON lines, one object per exposure per
                     interval ({"schema":"hoplab.watch/v1","type":"interval",t_ms,env,cloud,mode,
                     rps,errors,p50_ms,p99_ms,pods,nodes,client_ip_via,source_nat,changes,...}),
                     one per change ({"type":"event",t_ms,label,kind,text}) and a last
                     {"type":"summary",...}
  --html FILE        when the watch ends, also write the timeline as a chart in one
                     self-contained page: per exposure latency p50/p99 and failed
                     requests per interval, the changes marked, and a summary table
  -h, --help         this help

Requests never exceed rate x duration per exposure (plus one); an exposure that
still has --timeout's worth of requests in flight skips its turn.
`;

function bounded(name: keyof typeof WATCH_LIMITS, flag: string, text: string | undefined): number {
  const limits = WATCH_LIMITS[name];
  if (text === undefined) return limits.default;
  if (!/^\d+$/.test(text) || Number(text) < limits.min || Number(text) > limits.max) {
    throw new CompareInputError(`${flag} ${text} is not allowed: use a whole number from ${limits.min} to ${limits.max}`);
  }
  return Number(text);
}

/** Refuses a --html path that cannot be written, before anything is probed. */
function checkWritable(path: string): void {
  if (path === '') throw new CompareInputError('--html needs a file name (e.g. --html watch.html)');
  const full = resolve(path);
  if (existsSync(full) && statSync(full).isDirectory()) throw new CompareInputError(`--html ${path} is a folder: give a file name (e.g. ${path.replace(/\/+$/, '')}/watch.html)`);
  const folder = dirname(full);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new CompareInputError(`--html ${path}: there is no folder ${folder}; create it or choose another path`);
  try {
    accessSync(existsSync(full) ? full : folder, constants.W_OK);
  } catch {
    throw new CompareInputError(`--html ${path} cannot be written (no write permission on ${existsSync(full) ? full : folder}); choose another path`);
  }
}

function list(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(',').map((t) => t.trim());
}

export async function runWatch(argv: readonly string[], io: WatchIo): Promise<number> {
  const env = io.env ?? process.env;
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        outputs: { type: 'string' },
        dir: { type: 'string', default: 'cdktf.out' },
        env: { type: 'string' },
        exposure: { type: 'string' },
        rate: { type: 'string' },
        'max-rate': { type: 'string' },
        duration: { type: 'string' },
        interval: { type: 'string' },
        window: { type: 'string' },
        timeout: { type: 'string' },
        'my-ip': { type: 'string' },
        format: { type: 'string', default: 'table' },
        html: { type: 'string' },
        ...SHARD_OPTION,
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`watch: ${(error as Error).message} (see npm run watch -- --help)\n`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(WATCH_USAGE);
    return 0;
  }
  let settings;
  let inShard: Set<string> | undefined;
  const envs = list(values.env);
  const modes = list(values.exposure);
  try {
    const format = values.format as (typeof WATCH_FORMATS)[number];
    if (!WATCH_FORMATS.includes(format)) throw new CompareInputError(`--format ${values.format} is not supported; use one of ${WATCH_FORMATS.join(', ')}`);
    const unknownMode = modes?.find((m) => !(EXPOSURE_MODES as readonly string[]).includes(m));
    if (unknownMode !== undefined) throw new CompareInputError(`--exposure ${unknownMode} is not an exposure mode; use one of ${EXPOSURE_MODES.join(', ')}`);
    if (envs?.some((e) => e === '')) throw new CompareInputError(`--env ${values.env} has an empty name; write NAME[,NAME]`);
    const myIp = values['my-ip'];
    if (myIp !== undefined && isIP(myIp) === 0) throw new CompareInputError(`--my-ip ${myIp} is not an IP address (e.g. 203.0.113.7)`);
    if (values.html !== undefined) checkWritable(values.html);
    if (values.shard !== undefined) inShard = shardEnvironments(values.shard, io.environments);
    settings = {
      format,
      rate: bounded('rate', '--rate', values.rate),
      maxRate: bounded('maxRate', '--max-rate', values['max-rate']),
      durationMs: bounded('duration', '--duration', values.duration) * 1000,
      intervalMs: bounded('interval', '--interval', values.interval) * 1000,
      windowMs: bounded('window', '--window', values.window) * 1000,
      timeoutMs: bounded('timeout', '--timeout', values.timeout),
      ...(myIp !== undefined ? { myIp } : {}),
    };
  } catch (error) {
    io.err(`watch: ${(error as Error).message}\n`);
    return 2;
  }

  let outputs: LabOutputs;
  try {
    ({ outputs } = await readLabOutputs({
      outputsFile: values.outputs,
      synthDir: values.dir!,
      run: io.run,
      keepEnv: (env) => (!envs || envs.includes(env)) && (!inShard || inShard.has(env)),
      say: (line) => io.err(`watch: ${line}\n`),
    }));
  } catch (error) {
    if (error instanceof CompareInputError) {
      io.err(`watch: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const found = outputs.environments.map((e) => e.env);
  const missing = envs?.filter((e) => !found.includes(e)) ?? [];
  if (missing.length > 0) {
    io.err(`watch: --env ${missing.join(',')}: no such environment in the outputs; found: ${found.join(', ') || 'none'}\n`);
    return 1;
  }
  outputs = { ...outputs, environments: outputs.environments.filter((e) => (!envs || envs.includes(e.env)) && (!inShard || inShard.has(e.env))) };
  const targets = probeTargets(compareOutputs(outputs, values.outputs ?? 'cdktf output'), modes);
  if (!targets.some((t) => typeof t.url !== 'string')) {
    io.err(
      targets.length === 0
        ? 'watch: no exposure selected: check --env, --shard and --exposure against the outputs\n'
        : `watch: no exposure has a URL to probe (${targets.map((t) => `${t.label}: ${t.url as string}`).join('; ')})\n`,
    );
    return 1;
  }

  const live = settings.format === 'table' && redrawEnabled(io.stdout, env);
  const paint = painter(colorEnabled(io.stdout, env));
  // The screen lays out and paints its own lines within the width (render-watch.ts): not cut again.
  const screen = live ? new LiveRegion(io.stdout, { env, hideCursor: true, cut: false }) : undefined;
  const recent: WatchEvent[] = [];
  const probed = targets.filter((t) => typeof t.url !== 'string').length;
  const header = (tMs: number) =>
    `hoplab watch: ${probed} exposure${probed === 1 ? '' : 's'}, ${settings.rate} req/s each (at most ${settings.maxRate} in all), last ${settings.windowMs / 1000} s; ` +
    `${(tMs / 1000).toFixed(0)} s${settings.durationMs ? ` of ${settings.durationMs / 1000} s` : ''}; Ctrl-C ends it`;
  const recorder = values.html !== undefined ? new TimelineRecorder() : undefined;
  const result = await watchTargets(targets, {
    ...settings,
    ...(recorder ? { onSample: (label: string, sample: Sample) => recorder.sample(label, sample) } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
    ...(io.clock ? { clock: io.clock } : {}),
    ...(io.send ? { send: io.send } : {}),
    onFrame: (frame) => {
      recent.push(...frame.events);
      recorder?.frame(frame);
      if (settings.format === 'json') {
        io.stdout.write(
          jsonLines(frame)
            .map((l) => `${l}\n`)
            .join(''),
        );
      } else if (screen) {
        const height = terminalHeight(io.stdout, env);
        screen.render(screenLines(frame, recent, terminalWidth(io.stdout, env), paint, header(frame.t_ms), height === undefined ? undefined : height - 1));
      } else {
        io.stdout.write(
          plainLines(frame)
            .map((l) => `${l}\n`)
            .join(''),
        );
      }
    },
  });
  screen?.release();
  let code = 0;
  if (recorder && values.html !== undefined) {
    try {
      writeFileSync(values.html, watchPage(recorder.all(), result, { intervalMs: settings.intervalMs }));
      io.err(`watch: wrote ${values.html}\n`);
    } catch (error) {
      io.err(`watch: --html ${values.html} could not be written: ${(error as Error).message}\n`);
      code = 1;
    }
  }
  if (settings.format === 'json') io.stdout.write(`${summaryJson(result)}\n`);
  else {
    // On a terminal the summary fits its width too (wrapped between words, continuation lines indented).
    const width = terminalWidth(io.stdout, env);
    const fit = (line: string) => {
      const indent = /^ */.exec(line)![0];
      return wrapWords(line, Math.max(1, width - indent.length - 2), 'abbreviate').map((part, i) => `${indent}${i === 0 ? '' : '  '}${part}`);
    };
    const lines = live ? summaryLines(result).flatMap(fit) : summaryLines(result);
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return code;
}
