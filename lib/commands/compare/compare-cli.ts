/**
 * The `compare` command: argument parsing, bounds and exit codes, separate
 * from bin/compare.ts so tests can run it in-process.
 */
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { compareOutputs, probeModel } from '../../lab/probe/compare-model';
import { CommandRunner, CompareInputError, LabOutputs, readLabOutputs } from '../../lab/files/outputs';
import { ProgressStream, progressReporter } from '../../lab/probe/progress';
import { SHARD_OPTION } from '../../lab/selection/shard';
import { shardEnvironments } from '../../lab/selection/selection';
import { COMPARE_FORMATS, CompareFormat, renderCompare } from './render-compare';
import { PROBE_LIMITS } from '../../lab/probe/probe';
import { highlight } from '../../kit/terminal/terminal';

export interface CompareIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Where progress goes (stderr); a TTY gets a bar. */
  readonly progress: ProgressStream;
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

export const COMPARE_USAGE = `usage: npm run compare -- [--outputs FILE] [--dir DIR] [--probe] [--count N] [--concurrency N]
                             [--max-in-flight N] [--timeout MS] [--my-ip ADDRESS]
                             [--format table|markdown|json] [--shard K/N]
       npm run compare -- --watch [watch options]    (the same as npm run watch; see its --help)

Shows the deployed environments side by side: per environment a table with the
clouds as columns and the exposures as rows (URL, load-balancer kind, targets,
expected hops, client-IP preservation), from the stacks' outputs.

With --probe it also sends a bounded number of HTTP GETs to each exposure's URL
and adds what it measured: latency p50/p95/p99, errors, how requests spread over
Pods and nodes, and the client address the Pod saw compared with the prober's own
address (SNAT shows as a node address). All exposures of all environments are
probed at the same time, each with its own --concurrency, all together within
--max-in-flight. One exposure failing does not stop the others; a dead endpoint
is given up after 5 failures in a row.

options:
  --outputs FILE     outputs as \`npx cdktf output --outputs-file FILE\` writes them
                     (default: run \`npx cdktf output --outputs-file <tmp> --skip-synth\`
                     for every stack in DIR/manifest.json)
  --dir DIR          synthesized app for that run (default: cdktf.out)
  --probe            send requests and measure
  --count N          requests per exposure (default ${PROBE_LIMITS.count.default}, ${PROBE_LIMITS.count.min}-${PROBE_LIMITS.count.max})
  --concurrency N    requests in flight per exposure (default ${PROBE_LIMITS.concurrency.default}, ${PROBE_LIMITS.concurrency.min}-${PROBE_LIMITS.concurrency.max})
  --max-in-flight N  requests in flight over all exposures together (default
                     ${PROBE_LIMITS.maxInFlight.default}, ${PROBE_LIMITS.maxInFlight.min}-${PROBE_LIMITS.maxInFlight.max})
  --timeout MS       deadline of one request in ms (default ${PROBE_LIMITS.timeout.default}, ${PROBE_LIMITS.timeout.min}-${PROBE_LIMITS.timeout.max})
  --my-ip ADDRESS    the prober's public address as the load balancer sees it (e.g. from
                     \`curl -s https://checkip.amazonaws.com\`); without it the client
                     address comparison says unknown, except for loopback URLs
  --format FORMAT    table (default), markdown or json
  --shard K/N        only the environments of shard K of N, as deploy --shard puts them
                     (from the config's attendees, read as deploy reads them)
  --watch            probe continuously with a live view instead: npm run watch (the
                     other arguments are watch's; see npm run watch -- --help)
  -h, --help         this help

Progress goes to stderr (a bar on a terminal, plain lines otherwise); the report to stdout.
The table fits \$COLUMNS, else the terminal's width, else 80 columns; on a terminal
MISMATCH, NOT as expected, LOST and SNAT are coloured (never with NO_COLOR set).

json: {"schema":"hoplab.compare/v1",source,probe:{count,concurrency,max_in_flight,timeout_ms,my_ip}|null,
  environments:[{env,clouds:["aws","gcp"],clusters:{aws:{cluster_name,region,node_count,
  max_pods_per_node,pod_address_range,node_address_range,dataplane}},rows:[{mode,clouds:{aws:{exposure:{mode,cloud,url,
  lb_kind,target_type,expected_hops,source_nat,client_ip_via,client_ip_preserved,
  client_ip_seen_as,health_check,
  external_traffic_policy},not_probed_because,probe:{url,planned,sent,ok,errors:{kind:n},
  gave_up,latency_ms:{min,p50,p95,p99,max}|null,pods:{name:n},nodes:{name:n},
  client_ip:{prober_address,seen_by_pod:{address:n},peer_kinds:{prober|node|google-front-end|other:n},
  forwarded_for_names_prober,tcp_peer:client|node|load-balancer|mixed,
  x_forwarded_for:names-prober|absent|other,client_ip_via,source_nat,preserved,
  expected_preserved,claims:{client_ip_via|source_nat|client_ip_preserved:
  {claimed,measured,matches}},as_expected,summary},
  source_node:{replies,from_a_node,own_node,other_node,not_from_a_node,unknown,summary}}|null}}}],
  notes}],ignored_stacks}. null means unknown. Latency is of successful (2xx/3xx) replies,
  nearest-rank percentiles, rounded to 0.1 ms.

exit codes: 0 shown (with --probe: every exposure measured, at least one reply each); 1 outputs
missing or unreadable, or under --probe an exposure had no URL or no successful reply (named
on stderr: "nothing measured" is never success); 2 bad arguments.
`;

function bounded(name: keyof typeof PROBE_LIMITS, flag: string, text: string | undefined): number {
  const limits = PROBE_LIMITS[name];
  if (text === undefined) {
    return limits.default;
  }
  if (!/^\d+$/.test(text) || Number(text) < limits.min || Number(text) > limits.max) {
    throw new CompareInputError(`${flag} ${text} is not allowed: use a whole number from ${limits.min} to ${limits.max}`);
  }
  return Number(text);
}

export async function runCompare(argv: readonly string[], io: CompareIo): Promise<number> {
  if (argv.includes('--watch')) {
    const rest = argv.filter((a) => a !== '--watch');
    if (!io.watch) {
      io.err(`compare: --watch is not available here; run npm run watch\n`);
      return 2;
    }
    return io.watch(rest);
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        outputs: { type: 'string' },
        dir: { type: 'string', default: 'cdktf.out' },
        probe: { type: 'boolean', default: false },
        count: { type: 'string' },
        concurrency: { type: 'string' },
        'max-in-flight': { type: 'string' },
        timeout: { type: 'string' },
        'my-ip': { type: 'string' },
        format: { type: 'string', default: 'table' },
        ...SHARD_OPTION,
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`compare: ${(error as Error).message}\n${COMPARE_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(COMPARE_USAGE);
    return 0;
  }
  let settings;
  let inShard: Set<string> | undefined;
  try {
    const format = values.format as CompareFormat;
    if (!COMPARE_FORMATS.includes(format)) {
      throw new CompareInputError(`--format ${values.format} is not supported; use one of ${COMPARE_FORMATS.join(', ')}`);
    }
    const myIp = values['my-ip'];
    if (myIp !== undefined && isIP(myIp) === 0) {
      throw new CompareInputError(`--my-ip ${myIp} is not an IP address (e.g. 203.0.113.7)`);
    }
    if (values.shard !== undefined) inShard = shardEnvironments(values.shard, io.environments);
    settings = {
      format,
      count: bounded('count', '--count', values.count),
      concurrency: bounded('concurrency', '--concurrency', values.concurrency),
      maxInFlight: bounded('maxInFlight', '--max-in-flight', values['max-in-flight']),
      timeoutMs: bounded('timeout', '--timeout', values.timeout),
      ...(myIp !== undefined ? { myIp } : {}),
    };
  } catch (error) {
    io.err(`compare: ${(error as Error).message}\n`);
    return 2;
  }

  let outputs: LabOutputs;
  let source: string;
  try {
    ({ outputs, source } = await readLabOutputs({
      outputsFile: values.outputs,
      synthDir: values.dir!,
      run: io.run,
      keepEnv: (env) => !inShard || inShard.has(env),
      say: (line) => io.err(`compare: ${line}\n`),
    }));
    if (inShard) {
      const keep = inShard;
      outputs = { ...outputs, environments: outputs.environments.filter((e) => keep.has(e.env)) };
    }
  } catch (error) {
    if (error instanceof CompareInputError) {
      io.err(`compare: ${error.message}\n`);
      return 1;
    }
    throw error;
  }

  let model = compareOutputs(outputs, source);
  if (values.probe) {
    model = await probeModel(model, { ...settings, progress: progressReporter(io.progress) });
  }
  io.out(highlight(renderCompare(model, settings.format, io.columns), io.color === true && settings.format === 'table'));
  if (values.probe) {
    const unmeasured = unmeasuredExposures(model);
    for (const line of unmeasured) io.err(`compare: nothing measured: ${line}\n`);
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
