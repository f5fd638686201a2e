/**
 * The `explain` command: argument parsing and exit codes, separate from
 * bin/explain.ts so tests can run it in-process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { EXPOSURE_MODES } from '../../model/modes';
import { explainDir } from '../../lab/anatomy/explain-dir';
import { ExplainModel } from '../../lab/anatomy/model';
import { CompareInputError, readOutputsFile } from '../../lab/files/outputs';
import { writeDiagrams } from './mermaid';
import { EXPLAIN_FORMATS, ExplainFormat, renderExplain } from './render-explain';
import { ExposureUrls, urlsFromOutputs } from './words';
import { ExplainInputError } from '../../lab/files/synth-dir';

/** Where a command writes. */
export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Width to fit (bin/explain.ts: \$COLUMNS, the TTY's, 80). @default 80 */
  readonly columns?: number;
  /** Colour the terminal view (bin/explain.ts: stdout is a TTY and NO_COLOR is not set). @default false */
  readonly color?: boolean;
}

export const EXPLAIN_USAGE = `usage: npm run explain -- [--dir DIR] [--env NAME] [--format table|markdown|json|html]
                             [--out FILE] [--details] [--exposure MODE] [--outputs FILE]
                             [--diagram OUTDIR]

Explains, from the synthesized stacks (not the config), how a request reaches the
demo app's Pods through each exposure of each environment and cloud: the path, the
hops from the load balancer to the Pod, whether a node SNATs the request, what
client address the Pod sees, what the health check probes, the target type, and
the Pod capacity limits of the cluster (VPC CNI per-node limit; GKE per-node
alias range and how many nodes the Pod range serves). Offline: no cloud access.
Labs that differ only in their names (a workshop's attendees) are shown once,
with every name.

options:
  --dir DIR         cdktf output directory to read (default: cdktf.out)
  --env NAME        only this environment (default: all found)
  --format FORMAT   table (default; the terminal, fitted to its width), markdown
                    (reports), json (scripts) or html (one self-contained page with a
                    picture of every path: client -> load balancer -> node -> Pod, DNAT
                    and SNAT where they happen, hops, client IP, health check; and
                    per cloud every exposure side by side with the one-variable pairs)
  --out FILE        write to FILE instead of stdout (e.g. --format html --out explain.html)
  --details         table: every fact per exposure, the datapath, Pod capacity, notes
                    (default: a summary, one row per exposure)
  --exposure MODE   only this exposure (${EXPOSURE_MODES.join(', ')}); on the
                    terminal one tall block per cloud, for a projector
  --outputs FILE    add each exposure's URL, from \`npx cdktf output --outputs-file FILE\`
                    (table, markdown and html)
  --diagram OUTDIR  also write one Mermaid flowchart per environment, cloud and
                    exposure to OUTDIR/<env>-<cloud>-<mode>.mmd (SNAT hop in red), and
                    the one-variable matrix of each cloud to <env>-<cloud>-matrix.mmd
                    (Mermaid source; --format html draws the pictures itself)
  -h, --help        this help

The terminal view fits \$COLUMNS, else the terminal's width, else 80 columns, and
never splits a word. SNAT, LOST and MISMATCH are coloured on a terminal, never
when NO_COLOR is set or the output is not a terminal.

json: {"schema":"hoplab.explain/v1","dir",environments:[{env,clouds:[{cloud,
  cluster_stack,lb_stack,cluster_synthesized,lb_synthesized,dataplane,
  datapath:{dataplane,implementation,evidence,backend_selection,
  cluster_policy_snat,unchanged,probe_limits,notes},capacity:{max_pods_per_node,max_pods_per_node_reason,node_count,machine_type,
  pod_address_range,per_node_range,max_nodes_for_pod_range,notes},
  exposures:[{mode,entry,service,kubernetes_objects,lb_kind,target_type,targets,
  external_traffic_policy,expected_hops,snat,source_nat,client_ip_via
  (tcp-source|x-forwarded-for|none),client_ip_preserved (= client_ip_via != none),
  client_ip_seen_as,health_check,datapath_effect,path:[{at,then,snat}],path_summary,layer,api,
  variables:{layer,api,targets,traffic_policy},
  differs_in_one:[{mode,variable,this,other}],notes}],
  not_offered:[{mode,reason}],notes}]}],ignored_stacks}.
  null means not known from the synthesized JSON. Every environment is listed in
  json, identical or not.

exit codes: 0 explained; 1 nothing to read (run \`npm run synth\` first), the
  exposure is in no selected environment, or a file cannot be read or written;
  2 bad arguments.
`;

/** Whether any cloud of the model has `mode`, or says why it does not offer it. */
function mentions(model: ExplainModel, mode: string): boolean {
  return model.environments.some((env) => env.clouds.some((c) => c.exposures.some((e) => e.mode === mode) || c.not_offered.some((n) => n.mode === mode)));
}

export function runExplain(argv: readonly string[], io: CommandIo): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        dir: { type: 'string', default: 'cdktf.out' },
        env: { type: 'string' },
        format: { type: 'string', default: 'table' },
        out: { type: 'string' },
        details: { type: 'boolean', default: false },
        exposure: { type: 'string' },
        outputs: { type: 'string' },
        diagram: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`explain: ${(error as Error).message}\n${EXPLAIN_USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(EXPLAIN_USAGE);
    return 0;
  }
  const format = values.format as ExplainFormat;
  if (!EXPLAIN_FORMATS.includes(format)) {
    io.err(`explain: --format ${values.format} is not supported; use one of ${EXPLAIN_FORMATS.join(', ')}\n`);
    return 2;
  }
  if (values.exposure !== undefined && !(EXPOSURE_MODES as readonly string[]).includes(values.exposure)) {
    io.err(`explain: --exposure ${values.exposure} is not an exposure mode; use one of ${EXPOSURE_MODES.join(', ')}\n`);
    return 2;
  }
  if (values.details && format !== 'table') {
    io.err(`explain: --details is for --format table (markdown, json and html always have every detail)\n`);
    return 2;
  }
  let model: ExplainModel;
  let urls: ExposureUrls | undefined;
  try {
    model = explainDir(values.dir!, values.env !== undefined ? { env: values.env } : {});
    urls = values.outputs !== undefined ? urlsFromOutputs(readOutputsFile(values.outputs)) : undefined;
  } catch (error) {
    if (error instanceof ExplainInputError || error instanceof CompareInputError) {
      io.err(`explain: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (values.exposure !== undefined && !mentions(model, values.exposure)) {
    const found = [...new Set(model.environments.flatMap((env) => env.clouds.flatMap((c) => c.exposures.map((e) => e.mode))))];
    io.err(`explain: no environment in ${values.dir} has exposure ${values.exposure}; found: ${found.length ? found.join(', ') : 'none'}\n`);
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
  });
  if (toFile) {
    try {
      mkdirSync(dirname(values.out!), { recursive: true });
      writeFileSync(values.out!, text);
    } catch (error) {
      io.err(`explain: cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return 1;
    }
    io.err(`explain: wrote ${values.out}\n`);
  } else {
    io.out(text);
  }
  if (values.diagram !== undefined) {
    try {
      const written = writeDiagrams(model, values.diagram);
      io.err(`explain: wrote ${written.length} Mermaid diagram${written.length === 1 ? '' : 's'} to ${values.diagram}\n`);
    } catch (error) {
      io.err(`explain: cannot write diagrams to ${values.diagram}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
      return 1;
    }
  }
  return 0;
}
