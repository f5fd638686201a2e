/** `npm run watch`'s command line (also `npm run compare -- --watch`). */
import { choiceFlag, defineCommand, integerFlag, listFlag, stringFlag } from '../../kit/cli/command';
import { outputsFlag, synthDirFlag } from '../../lab/files/flags';
import { myIpFlag, timeoutFlag } from '../../lab/probe/flags';
import { envsFlag, shardFlag } from '../../lab/selection/flags';
import { EXPOSURE_MODES } from '../../model/modes';
import { WATCH_LIMITS } from './watch';

export const WATCH_FORMATS = ['table', 'json'] as const;

const L = WATCH_LIMITS;

export const WATCH_COMMAND = defineCommand({
  name: 'watch',
  summary: 'live view of the traffic per exposure while attendees change things',
  description: `Probes the selected exposures continuously, all at the same time, at a bounded rate, and
shows per exposure: requests per second, errors, latency p50/p99 over the last --window seconds,
how many Pods and nodes answered (and which), and the client-IP verdict (client_ip_via, SNAT)
measured as compare --probe measures it. A change is highlighted when it happens (errors start or
stop, the verdict flips, a Pod or node appears or is gone) and logged under the table. Run it while
attendees scale the Deployment, drain a node or flip externalTrafficPolicy. Ends after --duration,
or on Ctrl-C, with a summary.

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
  },
  epilogue: `json: one object per exposure per interval
  ({"schema":"hoplab.watch/v1","type":"interval",t_ms,env,cloud,mode,rps,errors,
  p50_ms,p99_ms,pods,nodes,client_ip_via,source_nat,changes,...}), one per
  change ({"type":"event",t_ms,label,kind,text}) and a last
  {"type":"summary",...}

Requests never exceed rate x duration per exposure (plus one); an exposure that still has
--timeout's worth of requests in flight skips its turn.`,
});
