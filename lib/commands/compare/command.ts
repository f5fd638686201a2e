/** `npm run compare`'s command line. */
import { booleanFlag, choiceFlag, defineCommand, FLAGS_FORM } from '../../kit/cli/command';
import { outputsFlag, synthDirFlag } from '../../lab/files/flags';
import { concurrencyFlag, countFlag, maxInFlightFlag, myIpFlag, timeoutFlag } from '../../lab/probe/flags';
import { envsFlag, shardFlag } from '../../lab/selection/flags';
import { COMPARE_FORMATS } from './render-compare';

export const COMPARE_COMMAND = defineCommand({
  name: 'compare',
  summary: 'deployed environments side by side; --probe measures them, all exposures at once',
  usage: [FLAGS_FORM, '--watch [watch options]'],
  description: `Shows the deployed environments side by side: per environment a table with the clouds as
columns and the exposures as rows (URL, load-balancer kind, targets, expected hops, client-IP
preservation), from the stacks' outputs.

With --probe it also sends a bounded number of HTTP GETs to each exposure's URL and adds what it
measured: latency p50/p95/p99, errors, how requests spread over Pods and nodes, and the client
address the Pod saw compared with the prober's own address (SNAT shows as a node address). All
exposures of all environments are probed at the same time, each with its own --concurrency, all
together within --max-in-flight. One exposure failing does not stop the others; a dead endpoint is
given up after 5 failures in a row.

--room shows the room at a glance instead of the tables: one row per attendee (environment), each
exposure one cell: o as claimed, E errors, M client-IP MISMATCH, ~ answers but the client IP is not
measured, ? nothing measured (without --probe: it has a URL), - no URL. 30 attendees fit an 80 x 40
terminal. npm run watch -- --room redraws it live.`,
  flags: {
    outputs: outputsFlag('the outputs to compare (default: run `npx cdktf output --outputs-file <tmp> --skip-synth` for every stack in DIR/manifest.json)'),
    dir: synthDirFlag('synthesized app for that run'),
    probe: booleanFlag({ description: 'send requests and measure' }),
    count: countFlag(),
    concurrency: concurrencyFlag(),
    'max-in-flight': maxInFlightFlag(),
    timeout: timeoutFlag(),
    'my-ip': myIpFlag(
      "the prober's public address as the load balancer sees it (e.g. from `curl -s https://checkip.amazonaws.com`); without it the client address comparison says unknown, except for loopback URLs",
    ),
    format: choiceFlag(COMPARE_FORMATS, { default: 'table', description: 'the report' }),
    env: envsFlag(),
    room: booleanFlag({ description: 'one row per attendee, each exposure one cell (above); with --format table only' }),
    shard: shardFlag("only the environments of shard K of N, as deploy --shard puts them (from the config's attendees, read as deploy reads them)"),
    watch: booleanFlag({ description: "probe continuously with a live view instead: npm run watch (the other arguments are watch's; see npm run watch -- --help)" }),
  },
  epilogue: `Progress goes to stderr (a bar on a terminal, plain lines otherwise); the report to stdout. The
table fits $COLUMNS, else the terminal's width, else 80 columns; on a terminal MISMATCH, NOT as
expected, LOST and SNAT are coloured (never with NO_COLOR set).

json: {"schema":"hoplab.compare/v1",source,probe:{count,concurrency,
  max_in_flight,timeout_ms,my_ip}|null,environments:[{env,clouds:["aws","gcp"],
  lb_stacks:["aws","gcp"],clusters:{aws:{cluster_name,region,node_count,
  max_pods_per_node,pod_address_range,node_address_range,dataplane}},
  rows:[{mode,clouds:{aws:{exposure:{mode,cloud,url,lb_kind,target_type,
  expected_hops,source_nat,client_ip_via,client_ip_preserved,client_ip_seen_as,
  health_check,external_traffic_policy},not_probed_because,probe:{url,planned,
  sent,ok,errors:{kind:n},gave_up,latency_ms:{min,p50,p95,p99,max}|null,
  pods:{name:n},nodes:{name:n},client_ip:{prober_address,
  seen_by_pod:{address:n},
  peer_kinds:{prober|node|google-front-end|other:n},forwarded_for_names_prober,
  tcp_peer:client|node|load-balancer|mixed,
  x_forwarded_for:names-prober|absent|other,client_ip_via,source_nat,preserved,
  expected_preserved,claims:{client_ip_via|source_nat|client_ip_preserved:
  {claimed,measured,matches}},as_expected,summary},source_node:{replies,
  from_a_node,own_node,other_node,not_from_a_node,unknown,summary}}|null}}}],
  notes}],ignored_stacks}. null means unknown. Latency is of successful
  (2xx/3xx) replies, nearest-rank percentiles, rounded to 0.1 ms. The file is
  an outputs file too: every --outputs FILE takes it.

exit codes: 0 shown (with --probe: every exposure measured, at least one reply each); 1 outputs
missing or unreadable, --env or --shard selecting none of their environments, or under --probe an
exposure had no URL or no successful reply (named on stderr: "nothing measured" is never
success); 2 bad arguments.`,
});
