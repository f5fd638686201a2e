/** `npm run watch`'s command line (also `npm run compare -- --watch`). */
import { booleanFlag, choiceFlag, defineCommand, integerFlag, listFlag, stringFlag } from '../../kit/cli/command';
import { parseHostPort } from '../../kit/http/live-server';
import { outputsFlag, synthDirFlag } from '../../lab/files/flags';
import { myIpFlag, timeoutFlag } from '../../lab/probe/flags';
import { envsFlag, shardFlag } from '../../lab/selection/flags';
import { EXPOSURE_MODES } from '../../model/modes';
import { WATCH_LIMITS } from './watch';

export const WATCH_FORMATS = ['table', 'json'] as const;

/** Where `--serve` serves the room when no --serve-address is given. */
export const DEFAULT_SERVE_ADDRESS = '127.0.0.1:8642';

const L = WATCH_LIMITS;

export const WATCH_COMMAND = defineCommand({
  name: 'watch',
  summary: 'live view of the traffic per exposure while attendees change things',
  description: `Probes the selected exposures continuously, all at the same time, at a bounded rate, and
shows per exposure: requests per second, errors, latency p50/p99 over the last --window seconds,
how many Pods and nodes answered (and which), and the client-IP verdict (client_ip_via, SNAT)
measured as compare --probe measures it. A change is highlighted when the newest replies show it,
whatever --window is: at the default rate errors starting or stopping, a Pod or node appearing and
the verdict flipping within 2 s (errors that are timeouts once --timeout has passed; a mixed
verdict, Cilium's, in about 3-4 s); a Pod or node gone once the replies without it are too many to
be chance (about 6-9 s for one of two Pods), or with --endpoints within 2 s. It is logged under the
table. Run it while attendees
scale the Deployment, drain a node or flip externalTrafficPolicy. Ends after --duration, or on
Ctrl-C, with a summary.

--room shows the whole room instead: one row per attendee (environment), each exposure one cell
(o as claimed, E errors, M client-IP MISMATCH, ~ answers but the client IP is not measured,
? nothing measured yet, - no URL), and the latest changes, each naming the attendee; 30 attendees
fit an 80 x 40 terminal. --serve also serves it as a live page for a browser on the projector
(http://127.0.0.1:8642/ unless --serve-address says otherwise): it updates every interval without
a reload, and a click on an attendee shows their exposures' figures.

--progress (with --serve) also shows, beside each attendee's row and in their detail, their
handout's exercises as npx hoplab progress checks them: done, not yet, could not check (why), or
not checkable. Unlike the rest of watch it reads each attendee's clusters, with this machine's
credentials (the Google and AWS credentials that deployed), and the config (the attendees,
app.replicas): each cluster at most every --progress-interval seconds and never twice at once,
each request bounded at 20 s. A cluster that does not answer, or credentials that are missing,
show as could not check, saying why, and the watch goes on.

--endpoints also reads, twice a second, which of the app's Pods serve in each watched cluster (one
list of the app's Pods per cluster, with this machine's credentials and the config, as --progress):
a Pod that leaves the endpoints (deleted, terminating, not ready) and a node left without a serving
Pod are reported within 2 s of the cluster's API saying so, marked (cluster API): at once for a
scale, a delete or a drain; for a node that fails, once the API marks it (40-50 s). Its late
replies (a load balancer still sends to a Pod while it deregisters it) do not bring it back. A
cluster that cannot be read leaves its Pods gone to the replies: the header counts such clusters,
and the watch names them at its end.

npm run compare -- --watch takes the same options.

On a terminal the screen is redrawn in place (colour unless NO_COLOR is set); otherwise it prints
one line per exposure per interval, and one per change.`,
  flags: {
    outputs: outputsFlag('the outputs to watch (default: run npx cdktf output for the stacks in --dir)'),
    dir: synthDirFlag('synthesized stacks'),
    env: envsFlag(),
    shard: shardFlag(),
    exposure: listFlag({ value: 'MODE[,MODE]', choices: EXPOSURE_MODES, description: 'only these exposures' }),
    rate: integerFlag({ ...L.rate, value: 'N', description: 'requests per second per exposure' }),
    'max-rate': integerFlag({ ...L.maxRate, value: 'N', description: "requests per second over all exposures together; each exposure's rate is lowered to fit" }),
    duration: integerFlag({ ...L.duration, value: 'S', description: 'seconds to run; 0 runs until Ctrl-C' }),
    interval: integerFlag({ ...L.interval, value: 'S', description: 'seconds between updates' }),
    window: integerFlag({ ...L.window, value: 'S', description: 'seconds the figures cover' }),
    timeout: timeoutFlag(L.timeout),
    'my-ip': myIpFlag('your public address as the load balancer sees it (see compare --help)'),
    format: choiceFlag(WATCH_FORMATS, { default: 'table', description: 'table, or json: JSON lines (below)' }),
    html: stringFlag({
      value: 'FILE',
      description:
        'when the watch ends, also write the timeline as a chart in one self-contained page: per exposure latency p50/p99 and failed requests per interval, the changes marked, and a summary table',
    }),
    room: booleanFlag({ description: 'one row per attendee, each exposure one cell (above)' }),
    serve: booleanFlag({ description: `also serve the room as a live page on ${DEFAULT_SERVE_ADDRESS} (or --serve-address)` }),
    'serve-address': stringFlag({
      value: 'HOST:PORT',
      parse: parseHostPort,
      description: `where --serve listens (implies --serve); loopback (127.0.0.1, ::1, localhost) unless --serve-public`,
    }),
    'serve-public': booleanFlag({
      description: "let --serve-address be an address other machines reach: anyone who can reach it sees every attendee's URLs and results",
    }),
    endpoints: booleanFlag({ description: "also read each watched cluster's serving Pods twice a second: a Pod or node gone shows within 2 s (above)" }),
    progress: booleanFlag({ description: "also show each attendee's handout exercises on the --serve page, read from their clusters (above)" }),
    'progress-interval': integerFlag({
      min: L.progressInterval.min,
      max: L.progressInterval.max,
      value: 'S',
      defaultText: String(L.progressInterval.default),
      description: 'seconds between two reads of one cluster with --progress',
    }),
  },
  epilogue: `json: one object per exposure per interval
  ({"schema":"hoplab.watch/v1","type":"interval",t_ms,env,cloud,mode,rps,errors,
  p50_ms,p99_ms,pods,nodes,failing,client_ip_via,source_nat,changes,...}), one
  per change ({"type":"event",t_ms,label,kind,text}) and a last
  {"type":"summary",...,pacing:{due,sent,within_50ms,late_p50_ms,late_p99_ms,
  late_max_ms},cpu_s}

Requests never exceed rate x duration per exposure (plus one); an exposure that still has
--timeout's worth of requests in flight skips its turn.`,
});
