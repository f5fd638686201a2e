/**
 * Renders a `CompareModel`: a terminal table per environment (clouds as
 * columns, exposures as rows), Markdown, or JSON (the model itself).
 */
import { ExposureMode } from '../../model/modes';
import { EXPOSURE_UNAVAILABLE } from '../../model/exposure-facts';
import { Cloud } from '../../model/contract';
import { markdownTable, textTable } from '../../kit/terminal/text-table';
import { CompareCell, CompareEnvironment, CompareModel } from '../../lab/probe/compare-model';
import { ClusterInfo } from '../../lab/files/outputs';
import { plural } from '../../kit/terminal/terminal';

export const COMPARE_FORMATS = ['table', 'markdown', 'json'] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

const CLOUD_TITLE: Readonly<Record<Cloud, string>> = { aws: 'AWS (EKS)', gcp: 'GCP (GKE)' };

const u = (v: string | number | boolean | null | undefined) => (v === null || v === undefined ? 'unknown' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));

function spread(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts);
  const shown = entries
    .slice(0, 4)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `${entries.length} (${shown}${entries.length > 4 ? ', ...' : ''})`;
}

/** The lines of one cell. */
export function cellLines(cell: CompareCell | undefined, withUrl = true, notOffered?: string): string[] {
  if (!cell) {
    return [notOffered ? `(not offered: ${notOffered})` : '(not exposed)'];
  }
  const e = cell.exposure;
  const lines = [
    ...(withUrl ? [`URL: ${u(e.url)}`] : []),
    `LB: ${u(e.lb_kind)}; targets: ${u(e.target_type)}; ETP ${u(e.external_traffic_policy)}`,
    `expected: ${u(e.expected_hops)} hop${e.expected_hops === 1 ? '' : 's'} LB -> Pod; source NAT: ${u(e.source_nat)}; client IP via: ${u(e.client_ip_via)} (preserved: ${u(e.client_ip_preserved)})` +
      (e.client_ip_seen_as ? ` (${e.client_ip_seen_as})` : ''),
  ];
  if (cell.not_probed_because) {
    lines.push(`not probed: ${cell.not_probed_because}`);
  }
  const p = cell.probe;
  if (p) {
    const l = p.latency_ms;
    lines.push(
      `measured: ${p.ok}/${p.sent} ok` + (p.sent < p.planned ? ` of ${p.planned} planned (gave up: endpoint looks dead)` : '') + (l ? `; latency p50 ${l.p50} / p95 ${l.p95} / p99 ${l.p99} ms` : ''),
    );
    const errors = Object.entries(p.errors);
    if (errors.length > 0) {
      lines.push(`errors: ${errors.map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
    }
    if (p.ok > 0) {
      lines.push(`Pods: ${spread(p.pods)}; nodes: ${spread(p.nodes)}`);
    }
    const verdict = p.client_ip.as_expected === null ? '' : p.client_ip.as_expected ? ' [as expected]' : ' [NOT as expected]';
    lines.push(`client IP: ${p.client_ip.summary}${verdict}`);
    const c = p.client_ip;
    if (c.tcp_peer !== null || c.x_forwarded_for !== null) {
      const mismatches = Object.entries(c.claims)
        .filter(([, check]) => check.matches === false)
        .map(([name, check]) => `${name} claimed ${String(check.claimed)}, measured ${String(check.measured)}`);
      lines.push(
        `measured: TCP peer ${u(c.tcp_peer)}; X-Forwarded-For ${u(c.x_forwarded_for)}; source NAT ${u(c.source_nat)}; client IP via ${u(c.client_ip_via)}` +
          (mismatches.length ? ` -- MISMATCH: ${mismatches.join('; ')}` : ''),
      );
    }
    if (p.source_node && p.source_node.from_a_node + p.source_node.unknown > 0) {
      lines.push(`SNAT source: ${p.source_node.summary}`);
    }
  }
  return lines;
}

function clusterText(info: ClusterInfo | undefined): string {
  if (!info) {
    return '(cluster stack not deployed)';
  }
  return (
    `${u(info.cluster_name)} in ${u(info.region)}: ${u(info.node_count)} nodes, max ${u(info.max_pods_per_node)} Pods per node` +
    (info.pod_address_range.length ? `; Pod addresses ${info.pod_address_range.join(', ')}` : '') +
    (info.dataplane ? `; dataplane ${info.dataplane}` : '')
  );
}

/** Full URLs under the terminal table, where they are not wrapped (copy and paste them). */
function urlLines(env: CompareEnvironment): string[] {
  const lines: string[] = [];
  for (const row of env.rows) {
    for (const cloud of env.clouds) {
      const cell = row.clouds[cloud];
      if (cell) {
        lines.push(`  ${`${cloud} ${row.mode}`.padEnd(19)} ${u(cell.exposure.url)}`);
      }
    }
  }
  return lines.length ? ['URLs:', ...lines] : [];
}

function tableOf(env: CompareEnvironment, withUrl = true): { header: string[]; rows: string[][] } {
  return {
    header: ['exposure', ...env.clouds.map((c) => CLOUD_TITLE[c])],
    rows: [
      ['cluster', ...env.clouds.map((c) => clusterText(env.clusters[c]))],
      ...env.rows.map((row) => [row.mode, ...env.clouds.map((c) => cellLines(row.clouds[c], withUrl, EXPOSURE_UNAVAILABLE[c][row.mode as ExposureMode]).join('\n'))]),
    ],
  };
}

export function renderCompareTable(model: CompareModel, width = 120): string {
  const out: string[] = [];
  for (const env of model.environments) {
    out.push(`== environment "${env.env}" (outputs from ${model.source}) ==`);
    const { header, rows } = tableOf(env, false);
    out.push(textTable(header, rows, { width, firstColumnWidth: 14 }), ...urlLines(env), ...env.notes.map((n) => `note: ${n}`), '');
  }
  if (model.ignored_stacks.length) {
    out.push(`ignored stacks: ${model.ignored_stacks.join(', ')}`);
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function renderCompareMarkdown(model: CompareModel): string {
  const out = ['# hoplab compare', '', `Outputs from \`${model.source}\`.`, ''];
  if (model.probe) {
    out.push(`Probe: ${plural(model.probe.count, 'request')} per exposure, ${model.probe.concurrency} at a time, ${model.probe.timeout_ms} ms timeout.`, '');
  }
  for (const env of model.environments) {
    const { header, rows } = tableOf(env);
    out.push(`## Environment \`${env.env}\``, '', markdownTable(header, rows), '', ...env.notes.map((n) => `- ${n}`), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function renderCompare(model: CompareModel, format: CompareFormat, width?: number): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(model, null, 2)}\n`;
    case 'markdown':
      return renderCompareMarkdown(model);
    default:
      return renderCompareTable(model, width);
  }
}
