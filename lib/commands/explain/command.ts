/** `npm run explain`'s command line. */
import { booleanFlag, choiceFlag, defineCommand, stringFlag } from '../../kit/cli/command';
import { outputsFlag, synthDirFlag } from '../../lab/files/flags';
import { envsFlag } from '../../lab/selection/flags';
import { EXPOSURE_MODES } from '../../model/modes';
import { EXPLAIN_FORMATS } from './render-explain';

export const EXPLAIN_COMMAND = defineCommand({
  name: 'explain',
  summary: "each exposure's path, hops, client IP, health check and Pod capacity",
  description: `Explains, from the synthesized stacks (not the config), how a request reaches the demo app's
Pods through each exposure of each environment and cloud: the path, the hops from the load
balancer to the Pod, whether a node SNATs the request, what client address the Pod sees, what the
health check probes, the target type, and the Pod capacity limits of the cluster (VPC CNI per-node
limit; GKE per-node alias range and how many nodes the Pod range serves). Offline: no cloud
access. Labs that differ only in their names (a workshop's attendees) are shown once, with every
name.`,
  flags: {
    dir: synthDirFlag('cdktf output directory to read'),
    env: envsFlag('only these environments (default: all found)'),
    format: choiceFlag(EXPLAIN_FORMATS, {
      default: 'table',
      description:
        "table (the terminal, fitted to its width), markdown (reports), json (scripts) or html (one self-contained page with a picture of every path: client -> load balancer -> node -> Pod, DNAT and SNAT where they happen, hops, client IP, health check; the packet's journey step by step, source and destination at each point and what rewrote them; and per cloud every exposure side by side with the one-variable pairs)",
    }),
    out: stringFlag({ value: 'FILE', description: 'write to FILE instead of stdout (e.g. --format html --out explain.html)' }),
    details: booleanFlag({ description: 'table: every fact per exposure, the datapath, Pod capacity, notes (default: a summary, one row per exposure)' }),
    exposure: choiceFlag(EXPOSURE_MODES, { value: 'MODE', description: 'only this exposure; on the terminal one tall block per cloud, for a projector' }),
    outputs: outputsFlag("add each exposure's URL from these outputs (table, markdown and html; in html the journeys' load balancer addresses too)"),
    measured: stringFlag({
      value: 'FILE',
      description: "html: the addresses a probe saw (the prober's own, the source the Pods saw, the Pod's node) in each exposure's journey, from `npx hoplab compare --probe --format json > FILE`",
    }),
    diagram: stringFlag({
      value: 'OUTDIR',
      description:
        'also write one Mermaid flowchart per environment, cloud and exposure to OUTDIR/<env>-<cloud>-<mode>.mmd (SNAT hop in red), and the one-variable matrix of each cloud to <env>-<cloud>-matrix.mmd (Mermaid source; --format html draws the pictures itself)',
    }),
  },
  epilogue: `The terminal view fits $COLUMNS, else the terminal's width, else 80 columns, and never splits a
word. SNAT, LOST and MISMATCH are coloured on a terminal, never when NO_COLOR is set or the output
is not a terminal.

json: {"schema":"hoplab.explain/v1","dir",environments:[{env,clouds:[{cloud,
  cluster_stack,lb_stack,cluster_synthesized,lb_synthesized,dataplane,
  datapath:{dataplane,implementation,evidence,backend_selection,
  cluster_policy_snat,unchanged,probe_limits,notes},capacity:{max_pods_per_node,
  max_pods_per_node_reason,node_count,machine_type,pod_address_range,
  per_node_range,max_nodes_for_pod_range,notes},exposures:[{mode,entry,service,
  kubernetes_objects,lb_kind,target_type,targets,external_traffic_policy,
  expected_hops,snat,source_nat,client_ip_via (tcp-source|x-forwarded-for|none),
  client_ip_preserved (= client_ip_via != none),client_ip_seen_as,health_check,
  datapath_effect,path:[{at,then,snat}],path_summary,layer,api,variables:{layer,
  api,targets,traffic_policy},differs_in_one:[{mode,variable,this,other}],
  notes}],not_offered:[{mode,reason}],notes}]}],ignored_stacks}. null means not
  known from the synthesized JSON. Every environment is listed in json,
  identical or not.

exit codes: 0 explained; 1 nothing to read (run \`npm run synth\` first), the exposure is in no
selected environment, or a file cannot be read or written (or is no compare report); 2 bad
arguments.`,
});
