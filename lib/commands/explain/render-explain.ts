/**
 * Renders an `ExplainModel`: a terminal table (`table`), Markdown for reports
 * (`markdown`) or the model itself (`json`, stable field names, see model.ts).
 */
import type { DatapathExplanation } from '../../plumbing/plan/model';
import { neighbourText } from '../../plumbing/plan/matrix';
import { pairTableMarkdown } from '../../plumbing/plan/pair-table';
import { CloudExplanation, EnvironmentExplanation, ExplainModel, ExposureExplanation, PodCapacity, shown } from '../../plumbing/plan/model';
import { markdownTable, textTable, wrap } from '../../plumbing/cli/text-table';

export const EXPLAIN_FORMATS = ['table', 'markdown', 'json'] as const;
export type ExplainFormat = (typeof EXPLAIN_FORMATS)[number];

const CLOUD_TITLE = { aws: 'AWS (EKS)', gcp: 'GCP (GKE)' } as const;

function hopsText(e: ExposureExplanation): string {
  if (e.expected_hops === null) {
    return 'unknown';
  }
  const snat = e.snat === null ? '' : e.snat ? ', SNAT on the node' : ', no SNAT';
  return `${e.expected_hops} (LB -> ${e.expected_hops === 1 ? 'Pod' : 'node -> Pod'})${snat}`;
}

const VIA_TEXT = { 'tcp-source': 'TCP source', 'x-forwarded-for': 'X-Forwarded-For', none: 'LOST' } as const;

/** `kept (X-Forwarded-For): ...`, `kept (TCP source): ...` or `LOST: ...`: where the Pod finds the client, then the detail. */
function clientText(e: ExposureExplanation): string {
  if (e.client_ip_via === null) return e.client_ip_seen_as;
  return `${e.client_ip_via === 'none' ? 'LOST' : `kept (${VIA_TEXT[e.client_ip_via]})`}: ${e.client_ip_seen_as}`;
}

/** The short form for the summary: `client IP via X-Forwarded-For`, `client IP LOST`. */
function clientShort(e: ExposureExplanation): string {
  if (e.client_ip_via === null) return 'client IP unknown';
  return e.client_ip_via === 'none' ? 'client IP LOST' : `client IP via ${VIA_TEXT[e.client_ip_via]}`;
}

const KIND_OF_TYPE: Readonly<Record<string, string>> = { kubernetes_ingress_v1: 'Ingress', kubernetes_service_v1: 'Service' };

/** `kubernetes_ingress_v1.native-ingress` -> `Ingress native-ingress`. */
function objectText(address: string): string {
  const dot = address.indexOf('.');
  const kind = KIND_OF_TYPE[address.slice(0, dot)];
  return kind ? `${kind} ${address.slice(dot + 1)}` : address;
}

function objectsText(e: ExposureExplanation): string {
  if (e.kubernetes_objects) return e.kubernetes_objects;
  const addresses = [e.entry, e.service].filter((a, i, all): a is string => a !== null && all.indexOf(a) === i);
  return addresses.length ? addresses.map(objectText).join(' -> ') : 'unknown';
}

/** Rows of facts per exposure: [label, value(e)]. */
const FACT_ROWS: readonly (readonly [string, (e: ExposureExplanation) => string])[] = [
  ['path', (e) => e.path_summary],
  ['hops LB -> Pod', hopsText],
  ['client IP at the Pod', clientText],
  ['health check', (e) => e.health_check],
  ['LB / target type', (e) => `${shown(e.lb_kind)} / ${shown(e.target_type)}${e.targets ? ` (${e.targets})` : ''}`],
  ['externalTrafficPolicy', (e) => shown(e.external_traffic_policy)],
  ['datapath', (e) => e.datapath_effect],
  ['layer / API', (e) => `${shown(e.layer)} / ${shown(e.api)}`],
  ['differs in one variable from', (e) => (e.differs_in_one.length ? e.differs_in_one.map(neighbourText).join('; ') : e.variables ? 'none' : 'unknown')],
  ['objects', objectsText],
];

export function datapathLines(datapath: DatapathExplanation | null): string[] {
  if (!datapath) {
    return ['datapath: unknown (cluster stack not synthesized)'];
  }
  return [
    `datapath: ${shown(datapath.dataplane)} (${datapath.implementation})`,
    ...datapath.evidence.map((e) => `  from ${e}`),
    `  backend selection: ${datapath.backend_selection}`,
    `  SNAT: ${datapath.cluster_policy_snat}`,
    ...datapath.unchanged.map((u) => `  unchanged: ${u}`),
    ...datapath.probe_limits.map((p) => `  a small probe ${p}`),
    ...datapath.notes.map((n) => `  note: ${n}`),
  ];
}

/** The matrix of one cloud: a row and a column per exposure, the one variable where two differ only in it. */
export function matrixRows(cloud: CloudExplanation): string[][] {
  return cloud.exposures.map((row) => [row.mode, ...cloud.exposures.map((column) => (column === row ? '-' : row.differs_in_one.find((n) => n.mode === column.mode)?.variable ?? ''))]);
}

export function capacityLines(capacity: PodCapacity | null): string[] {
  if (!capacity) {
    return ['Pod capacity: unknown (cluster stack not synthesized)'];
  }
  const lines = [
    `Pod capacity: ${shown(capacity.max_pods_per_node)} Pods per node` + (capacity.max_pods_per_node_reason ? ` (${capacity.max_pods_per_node_reason})` : ''),
    `  nodes: ${shown(capacity.node_count)}${capacity.machine_type ? ` x ${capacity.machine_type}` : ''}; ` +
      `Pod addresses: ${capacity.pod_address_range.length ? capacity.pod_address_range.join(', ') : 'unknown'}` +
      (capacity.per_node_range ? `; per-node alias range ${capacity.per_node_range}` : '') +
      (capacity.max_nodes_for_pod_range !== null ? `; addresses for at most ${capacity.max_nodes_for_pod_range} nodes` : ''),
  ];
  return [...lines, ...capacity.notes.map((n) => `  - ${n}`)];
}

function cloudNotes(cloud: CloudExplanation): string[] {
  const lines = [...cloud.not_offered.map((n) => `not offered: ${n.mode}: ${n.reason}`), ...cloud.notes.map((n) => `note: ${n}`)];
  for (const e of cloud.exposures) {
    lines.push(...e.notes.map((n) => `note (${e.mode}): ${n}`));
  }
  return lines;
}

function summaryRows(env: EnvironmentExplanation): string[][] {
  const modes = [...new Set(env.clouds.flatMap((c) => c.exposures.map((e) => e.mode)))];
  return modes.map((mode) => [
    mode,
    ...env.clouds.map((c) => {
      const e = c.exposures.find((x) => x.mode === mode);
      if (!e) {
        return c.lb_synthesized ? '(not exposed)' : '(-lb stack not synthesized)';
      }
      return `${e.path_summary}. ${hopsText(e)}; ${clientShort(e)}`;
    }),
  ]);
}

export interface RenderOptions {
  /** Terminal width for `table`. @default 120 */
  readonly width?: number;
}

export function renderExplainTable(model: ExplainModel, options: RenderOptions = {}): string {
  const width = options.width ?? 120;
  const out: string[] = [];
  for (const env of model.environments) {
    out.push(`== environment "${env.env}" ==`, '');
    const summary = summaryRows(env);
    if (summary.length > 0 && env.clouds.length > 1) {
      out.push(textTable(['exposure', ...env.clouds.map((c) => CLOUD_TITLE[c.cloud])], summary, { width }), '');
    }
    for (const cloud of env.clouds) {
      out.push(
        `-- ${CLOUD_TITLE[cloud.cloud]}: ${cloud.cluster_stack}${cloud.cluster_synthesized ? '' : ' (not synthesized)'}, ` +
          `${cloud.lb_stack}${cloud.lb_synthesized ? '' : ' (not synthesized)'}; NodePort dataplane: ${shown(cloud.dataplane)} --`,
      );
      if (cloud.exposures.length > 0) {
        out.push(
          textTable(
            ['', ...cloud.exposures.map((e) => e.mode)],
            FACT_ROWS.map(([label, value]) => [label, ...cloud.exposures.map(value)]),
            { width },
          ),
        );
        out.push('one variable apart (row vs column):', textTable(['', ...cloud.exposures.map((e) => e.mode)], matrixRows(cloud), { width }));
      }
      const datapath = datapathLines(cloud.datapath ?? null).flatMap((line) => {
        const indent = /^ */.exec(line)![0];
        const rest = wrap(line.trimStart(), width - indent.length - 2);
        return rest.map((part, i) => `${indent}${i === 0 ? '' : '  '}${part}`);
      });
      out.push(...capacityLines(cloud.capacity), ...datapath, ...cloudNotes(cloud), '');
    }
  }
  if (model.ignored_stacks.length > 0) {
    out.push(`ignored stacks (not <env>-<aws|gcp>-<cluster|lb>): ${model.ignored_stacks.join(', ')}`);
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function renderExplainMarkdown(model: ExplainModel): string {
  const out: string[] = ['# hoplab explain', ''];
  for (const env of model.environments) {
    out.push(`## Environment \`${env.env}\``, '');
    const summary = summaryRows(env);
    if (summary.length > 0 && env.clouds.length > 1) {
      out.push(markdownTable(['exposure', ...env.clouds.map((c) => CLOUD_TITLE[c.cloud])], summary), '');
    }
    if (env.clouds.some((c) => c.exposures.length > 0)) {
      out.push('The pairs that differ in exactly one variable, every other one equal:', '', pairTableMarkdown(env), '');
    }
    for (const cloud of env.clouds) {
      out.push(`### ${CLOUD_TITLE[cloud.cloud]}`, '');
      out.push(
        `Stacks: \`${cloud.cluster_stack}\`${cloud.cluster_synthesized ? '' : ' (not synthesized)'}, \`${cloud.lb_stack}\`${cloud.lb_synthesized ? '' : ' (not synthesized)'}. ` +
          `NodePort dataplane: ${shown(cloud.dataplane)}.`,
        '',
      );
      if (cloud.exposures.length > 0) {
        out.push(
          markdownTable(
            ['', ...cloud.exposures.map((e) => `\`${e.mode}\``)],
            FACT_ROWS.map(([label, value]) => [label, ...cloud.exposures.map(value)]),
          ),
          '',
        );
        out.push('Pairs that differ in exactly one variable (row vs column):', '');
        out.push(
          markdownTable(
            ['', ...cloud.exposures.map((e) => `\`${e.mode}\``)],
            matrixRows(cloud).map(([mode, ...cells]) => [`\`${mode}\``, ...cells]),
          ),
          '',
        );
      }
      out.push(...capacityLines(cloud.capacity).map((l) => (l.startsWith('  - ') ? `  ${l.trim()}` : `- ${l.trim()}`)));
      out.push(...datapathLines(cloud.datapath ?? null).map((l) => (l.startsWith('  ') ? `  - ${l.trim()}` : `- ${l.trim()}`)));
      out.push(...cloudNotes(cloud).map((n) => `- ${n}`), '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function renderExplainJson(model: ExplainModel): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}

export function renderExplain(model: ExplainModel, format: ExplainFormat, options: RenderOptions = {}): string {
  switch (format) {
    case 'markdown':
      return renderExplainMarkdown(model);
    case 'json':
      return renderExplainJson(model);
    default:
      return renderExplainTable(model, options);
  }
}
