/**
 * The `watch` command: argument parsing, selection and output, separate from
 * bin/watch.ts so tests run it in-process with fake streams, a fake clock and
 * their own abort signal.
 */
import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { compareOutputs, probeTargets } from '../../lab/probe/compare-model';
import { CommandRunner, LabOutputs, readLabOutputs } from '../../lab/files/outputs';
import { commandMessage, UsageError } from '../../kit/cli/cli';
import { keepEnvironment, narrowOutputs, shardEnvironments } from '../../lab/selection/selection';
import { colorEnabled, painter, redrawEnabled, TerminalEnv, terminalHeight, terminalWidth, WritableTerminal } from '../../kit/terminal/terminal';
import { wrapWords } from '../../kit/text/wrap';
import { LiveRegion } from '../../kit/terminal/live-region';
import { WATCH_LIMITS, WatchEvent, WatchFrame, WatchResult, watchTargets } from './watch';
import { REAL_WAIT_CLOCK, WaitClock } from '../../kit/cli/wait-clock';
import { labEnvironments } from '../../config/environments';
import { LabConfig } from '../../config/schema';
import { readLabConfig } from '../../lab/files/config-file';
import { clusterTarget, hostClusterClient, hostTokens, HostTokens } from '../../lab/cluster/cluster-access';
import { readServingPods } from '../../lab/cluster/serving-pods';
import { ENDPOINTS_REQUEST_TIMEOUT_MS, ServingPoller } from './serving-poller';
import { planProgress } from '../../lab/progress/progress';
import { PROGRESS_CREDENTIALS_REASK_MS, ProgressPoller } from './room-progress';
import { DEFAULT_SERVE_ADDRESS, WATCH_COMMAND } from './command';
import { Sample } from '../../lab/probe/probe';
import { changeLine, clockTime, jsonLines, plainLines, roomRows, screenLines, summaryJson, summaryLines } from './render-watch';
import { TimelineRecorder, watchPage } from './watch-page';
import { roomLines } from '../../lab/probe/room';
import { isLoopbackHost, LiveServer, parseHostPort, startLiveServer } from '../../kit/http/live-server';
import { ROOM_PAGE_CSP, roomPageHtml, roomPageState } from './room-page';

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
  readonly clock?: WaitClock;
  /** Sends one request. @default probeOnce */
  readonly send?: (url: URL, timeoutMs: number, stop: AbortSignal) => Promise<Sample>;
  /** The config's environment names, in order (for --shard). @default - from the config file */
  readonly environments?: () => readonly string[];
  /** Runs `npx cdktf output` when no --outputs file is given. */
  readonly run?: CommandRunner;
  /** The config (--progress, --endpoints). @default - the config file, as every command reads it */
  readonly config?: () => LabConfig;
  /** The host's access to the clusters (--progress, --endpoints). @default - hostTokens, asked again every 2 minutes */
  readonly tokens?: HostTokens;
  /** Bound of each request to a cluster. @default - --progress: the Kubernetes client's, 20 s; --endpoints: 5 s */
  readonly clusterTimeoutMs?: number;
}

/** Refuses a --html path that cannot be written, before anything is probed. */
function checkWritable(path: string): void {
  const full = resolve(path);
  const html = `--html: ${JSON.stringify(path)}`;
  if (existsSync(full) && statSync(full).isDirectory()) throw new UsageError(`${html} is a folder: give a file name (e.g. ${path.replace(/\/+$/, '')}/watch.html)`);
  const folder = dirname(full);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${html}: there is no folder ${folder}; create it or choose another path`);
  try {
    accessSync(existsSync(full) ? full : folder, constants.W_OK);
  } catch {
    throw new UsageError(`${html} cannot be written (no write permission on ${existsSync(full) ? full : folder}); choose another path`);
  }
}

/** The command: parses `argv` and watches until --duration or the signal; resolves with the exit code. Throws a UsageError for a bad command line. */
export async function runWatch(argv: readonly string[], io: WatchIo): Promise<number> {
  const env = io.env ?? process.env;
  const values = WATCH_COMMAND.parse(argv, { out: (text) => io.stdout.write(text) });
  if (!values) return 0;
  const say = (line: string) => io.err(`${commandMessage(WATCH_COMMAND.name, line)}\n`);
  const envs = values.env;
  const modes = values.exposure;
  if (values.room && values.format === 'json') throw new UsageError('--room and --format json contradict each other: --room is a view for a terminal (and --serve a page); give one of them');
  const serveAddress = values['serve-address'] ?? (values.serve ? parseHostPort(DEFAULT_SERVE_ADDRESS) : undefined);
  if (values['serve-public'] && !serveAddress) throw new UsageError('--serve-public goes with --serve or --serve-address');
  if (serveAddress && !isLoopbackHost(serveAddress.host) && !values['serve-public']) {
    throw new UsageError(
      `--serve-address ${serveAddress.host}:${serveAddress.port} is not a loopback address: anyone who can reach this machine there would see every attendee's URLs and results; ` +
        'give --serve-public to serve there anyway, or serve on 127.0.0.1 and open the page on this machine',
    );
  }
  if (values.progress && !serveAddress) throw new UsageError('--progress goes with --serve or --serve-address: progress is shown on the served page');
  if (values['progress-interval'] !== undefined && !values.progress) throw new UsageError('--progress-interval goes with --progress');
  if (values.html !== undefined) checkWritable(values.html);
  // --progress and --endpoints read the config (the attendees, app.replicas, where each cluster is): refused now, before anything is probed.
  const config = values.progress || values.endpoints ? (io.config ? io.config() : readLabConfig().config) : undefined;
  const inShard = values.shard !== undefined ? shardEnvironments(values.shard, io.environments) : undefined;
  const settings = {
    format: values.format,
    rate: values.rate,
    maxRate: values['max-rate'],
    durationMs: values.duration * 1000,
    intervalMs: values.interval * 1000,
    windowMs: values.window * 1000,
    timeoutMs: values.timeout,
    ...(values['my-ip'] !== undefined ? { myIp: values['my-ip'] } : {}),
  };

  let outputs: LabOutputs;
  try {
    ({ outputs } = await readLabOutputs({
      outputsFile: values.outputs,
      synthDir: values.dir,
      run: io.run,
      keepEnv: keepEnvironment(envs, inShard),
      say,
    }));
  } catch (error) {
    // Outputs missing or unreadable: said as the reader words it.
    say((error as Error).message);
    return 1;
  }
  const narrowed = narrowOutputs(outputs, envs, inShard, values.shard);
  if (narrowed.missing) {
    say(narrowed.missing);
    return 1;
  }
  outputs = narrowed.outputs;
  const targets = probeTargets(compareOutputs(outputs, values.outputs ?? 'cdktf output'), modes);
  if (!targets.some((t) => typeof t.url !== 'string')) {
    say(
      targets.length === 0
        ? 'no exposure selected: check --env, --shard and --exposure against the outputs'
        : `no exposure has a URL to probe (${targets.map((t) => `${t.label}: ${t.url as string}`).join('; ')})`,
    );
    return 1;
  }

  const live = settings.format === 'table' && redrawEnabled(io.stdout, env);
  const paint = painter(colorEnabled(io.stdout, env));
  // The screen lays out and paints its own lines within the width (render-watch.ts): not cut again.
  const screen = live ? new LiveRegion(io.stdout, { env, hideCursor: true, cut: false }) : undefined;
  const recent: WatchEvent[] = [];
  const probed = targets.filter((t) => typeof t.url !== 'string').length;
  const attendees = new Set(targets.map((t) => t.env)).size;
  const elapsed = (tMs: number) => `${(tMs / 1000).toFixed(0)} s${settings.durationMs ? ` of ${settings.durationMs / 1000} s` : ''}`;
  let serving: ServingPoller | undefined;
  /** With --endpoints, the clusters whose last read failed: their Pods gone show from the replies only. */
  const unreadNote = () => {
    const failed = serving?.failures().length ?? 0;
    return failed === 0 ? '' : `; ${failed} of ${serving!.clusters} clusters not read (--endpoints)`;
  };
  const header = (tMs: number) =>
    `hoplab watch: ${probed} exposure${probed === 1 ? '' : 's'}, ${settings.rate} req/s each (at most ${settings.maxRate} in all), last ${settings.windowMs / 1000} s; ` +
    `${elapsed(tMs)}; Ctrl-C ends it${unreadNote()}`;
  const roomHeader = (tMs: number) =>
    `hoplab watch: ${attendees} attendee${attendees === 1 ? '' : 's'}, ${probed} exposure${probed === 1 ? '' : 's'} at ${settings.rate} req/s; ${elapsed(tMs)}; Ctrl-C ends it${unreadNote()}`;

  let server: LiveServer | undefined;
  if (serveAddress) {
    try {
      server = await startLiveServer({ ...serveAddress, page: roomPageHtml(), csp: ROOM_PAGE_CSP });
    } catch (error) {
      say(`--serve: ${(error as Error).message}`);
      return 1;
    }
    say(`serving the room on ${server.url} (open it in a browser; Ctrl-C ends the watch)`);
  }
  const clock = io.clock ?? REAL_WAIT_CLOCK;
  const started = clock.now();
  let poller: ProgressPoller | undefined;
  let lastFrame: WatchFrame | undefined;
  const publish = (frame: WatchFrame) => {
    lastFrame = frame;
    server?.publish(JSON.stringify(roomPageState(frame, recent, roomHeader(frame.t_ms), poller && ((env) => poller!.panels(env)), poller?.view())));
  };
  const tokens = config ? io.tokens ?? hostTokens({ reaskAfterMs: PROGRESS_CREDENTIALS_REASK_MS }) : undefined;
  if (server && config && values.progress) {
    const shown = new Set(targets.map((t) => t.env));
    const environments = labEnvironments(config).filter((e) => shown.has(e.name));
    const { plans, clusters } = planProgress({ outputs, config, environments });
    const intervalS = values['progress-interval'] ?? WATCH_LIMITS.progressInterval.default;
    poller = new ProgressPoller({
      plans,
      clusters,
      facts: { replicas: config.app.replicas },
      intervalMs: intervalS * 1000,
      tokens: tokens!,
      now: () => clock.now() - started,
      ...(io.clusterTimeoutMs !== undefined ? { timeoutMs: io.clusterTimeoutMs } : {}),
      // A read that ended shows at once, not only with the next snapshot.
      onRead: () => {
        if (lastFrame && !lastFrame.final) publish(lastFrame);
      },
    });
    say(`--progress: reading ${clusters.length} cluster${clusters.length === 1 ? '' : 's'} of ${plans.length} attendee${plans.length === 1 ? '' : 's'} every ${intervalS} s`);
    poller.tick();
  }
  const servingStop = new AbortController();
  let servingRuns: Promise<void> | undefined;
  if (config && values.endpoints) {
    const watched = [...new Map(targets.filter((t) => typeof t.url !== 'string').map((t) => [`${t.env}/${t.cloud}`, t])).values()];
    const clusters = watched.map((t) => ({
      key: `${t.env}/${t.cloud}`,
      env: t.env,
      cloud: t.cloud,
      target: clusterTarget(outputs.environments.find((e) => e.env === t.env)!, t.cloud, config),
    }));
    const timeoutMs = io.clusterTimeoutMs ?? ENDPOINTS_REQUEST_TIMEOUT_MS;
    serving = new ServingPoller({ clusters, read: (target, notOlderThan) => readServingPods(hostClusterClient(target, tokens!, timeoutMs), notOlderThan), now: () => clock.now() - started });
    say(`--endpoints: reading the app's Pods of ${clusters.length} cluster${clusters.length === 1 ? '' : 's'} every ${serving.intervalMs / 1000} s`);
    servingRuns = serving.run(clock, servingStop.signal);
  }
  const recorder = values.html !== undefined ? new TimelineRecorder() : undefined;
  const result = await watchTargets(targets, {
    ...settings,
    ...(recorder ? { onSample: (label: string, sample: Sample) => recorder.sample(label, sample) } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
    clock,
    ...(io.send ? { send: io.send } : {}),
    ...(serving ? { clusterNews: () => serving!.take() } : {}),
    onFrame: (frame) => {
      recent.push(...frame.events);
      recorder?.frame(frame);
      if (frame.final) poller?.stop();
      else poller?.tick();
      publish(frame);
      if (values.room && settings.format === 'table') {
        const height = screen ? terminalHeight(io.stdout, env) : undefined;
        const lines = roomLines(roomRows(frame), {
          width: terminalWidth(io.stdout, env),
          ...(height !== undefined ? { maxLines: height - 1 } : {}),
          paint,
          header: roomHeader(frame.t_ms),
          changes: (screen ? recent : frame.events).map(changeLine),
        });
        if (screen) screen.render(lines);
        else io.stdout.write(`${clockTime(frame.t_ms)}\n${lines.join('\n')}\n`);
      } else if (settings.format === 'json') {
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
  servingStop.abort();
  await servingRuns;
  screen?.release();
  await server?.close();
  let code = 0;
  if (recorder && values.html !== undefined) {
    try {
      writeFileSync(values.html, watchPage(recorder.all(), result, { intervalMs: settings.intervalMs }));
      say(`wrote ${values.html}`);
    } catch (error) {
      say(`--html ${values.html} could not be written: ${(error as Error).message}`);
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
  const unread = serving?.failures() ?? [];
  if (serving && unread.length > 0) {
    say(
      `--endpoints: ${unread.length} of ${serving.clusters} cluster${serving.clusters === 1 ? '' : 's'} could not be read at the end (${unread[0].key}: ${unread[0].why}); ` +
        'a Pod or node gone there showed only once the replies made it certain',
    );
  }
  const behind = pacingNote(result);
  if (behind) say(behind);
  return code;
}

/** Share of requests that must go out within 50 ms of their time for the pacing to count as kept. */
export const PACING_KEPT = 0.95;

/** Requests a run must have sent before its pacing is judged: a few late ones of a short run say little. */
export const PACING_JUDGED_FROM = 200;

/** When this machine did not keep the pace (fewer than 95% of at least 200 requests sent within 50 ms of their time): what to do. */
export function pacingNote(result: WatchResult): string | undefined {
  const { sent, within_50ms } = result.pacing;
  if (sent < PACING_JUDGED_FROM || within_50ms / sent >= PACING_KEPT) return undefined;
  return (
    `this machine fell behind: ${Math.round((within_50ms / sent) * 1000) / 10}% of ${sent} requests went out within 50 ms of their time ` +
    `(p99 ${result.pacing.late_p99_ms} ms late); changes show later. Lower --rate or --max-rate, or watch fewer exposures (--env, --exposure)`
  );
}
