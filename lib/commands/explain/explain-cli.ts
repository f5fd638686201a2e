/**
 * The `explain` command: argument parsing and exit codes, separate from
 * bin/explain.ts so tests can run it in-process.
 */
import { parseArgs } from 'node:util';
import { explainDir } from '../../plumbing/plan/explain-dir';
import { writeDiagrams } from './mermaid';
import { EXPLAIN_FORMATS, ExplainFormat, renderExplain } from './render-explain';
import { ExplainInputError } from '../../plumbing/terraform/synth-dir';

/** Where a command writes. */
export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Terminal width, when stdout is a terminal. */
  readonly columns?: number;
}

export const EXPLAIN_USAGE = `usage: npm run explain -- [--dir DIR] [--env NAME] [--format table|markdown|json] [--diagram OUTDIR]

Explains, from the synthesized stacks (not the config), how a request reaches the
demo app's Pods through each exposure of each environment and cloud: the path, the
hops from the load balancer to the Pod, whether a node SNATs the request, what
client address the Pod sees, what the health check probes, the target type, and
the Pod capacity limits of the cluster (VPC CNI per-node limit; GKE per-node
alias range and how many nodes the Pod range serves). Offline: no cloud access.

options:
  --dir DIR         cdktf output directory to read (default: cdktf.out)
  --env NAME        only this environment (default: all found)
  --format FORMAT   table (default; terminal), markdown (reports) or json (scripts)
  --diagram OUTDIR  also write one Mermaid flowchart per environment, cloud and
                    exposure to OUTDIR/<env>-<cloud>-<mode>.mmd (SNAT hop in red), and
                    the one-variable matrix of each cloud to <env>-<cloud>-matrix.mmd
  -h, --help        this help

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
  null means not known from the synthesized JSON.

exit codes: 0 explained; 1 nothing to read (run \`npm run synth\` first); 2 bad arguments.
`;

export function runExplain(argv: readonly string[], io: CommandIo): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        dir: { type: 'string', default: 'cdktf.out' },
        env: { type: 'string' },
        format: { type: 'string', default: 'table' },
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
  try {
    const model = explainDir(values.dir!, values.env !== undefined ? { env: values.env } : {});
    io.out(renderExplain(model, format, io.columns ? { width: io.columns } : {}));
    if (values.diagram !== undefined) {
      const written = writeDiagrams(model, values.diagram);
      io.err(`explain: wrote ${written.length} Mermaid diagram${written.length === 1 ? '' : 's'} to ${values.diagram}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof ExplainInputError) {
      io.err(`explain: ${error.message}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (values.diagram !== undefined && code !== undefined) {
      io.err(`explain: cannot write diagrams to ${values.diagram}: ${code}\n`);
      return 1;
    }
    throw error;
  }
}
