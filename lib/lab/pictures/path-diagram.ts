/**
 * Pictures of the paths `explain` derives, as self-contained SVG drawn here
 * (fixed layouts, one per path shape; no layout library, no browser):
 *
 * - {@link exposurePathSvg}: one exposure, client → load balancer → node →
 *   Pod, with the DNAT and SNAT marked on the node where they happen, the
 *   hops from the load balancer to the Pod, the client-IP verdict and the
 *   health check;
 * - {@link overviewSvg}: every exposure of one cloud side by side, the pairs
 *   that differ in exactly one variable joined by an arc named after it.
 *
 * Each `<svg>` has a `viewBox`, its size, `role="img"`, a `<title>` and a
 * `<desc>`, and only inline attributes. The one URL-like string in it is the
 * SVG namespace (`xmlns`), a name that is never fetched; it lets a diagram be
 * saved as its own `.svg` file too.
 */
import { Cloud } from '../../model/contract';
import { CloudExplanation, EnvironmentExplanation, ExposureExplanation, PathStep } from '../anatomy/model';
import { arrow, badge, badgeSize, charsIn, INK, labelledBox, rect, svgDocument, text } from '../../kit/svg/svg';
import { wrapWords } from '../../kit/text/wrap';

/** The namespace every diagram declares (a name, never fetched). */
export const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

export const CLOUD_TITLE: Readonly<Record<Cloud, string>> = { aws: 'AWS (EKS)', gcp: 'GCP (GKE)' };

/** The shape of a path, from what explain derived. */
export type PathShape = 'pods' | 'nodes-cluster' | 'nodes-local' | 'unknown';

export function pathShape(e: Pick<ExposureExplanation, 'targets' | 'external_traffic_policy' | 'path'>): PathShape {
  if (e.path.length === 0) return 'unknown';
  if (e.targets === 'pods') return 'pods';
  if (e.targets === 'nodes' && e.external_traffic_policy === 'Cluster') return 'nodes-cluster';
  if (e.targets === 'nodes' && e.external_traffic_policy === 'Local') return 'nodes-local';
  return 'unknown';
}

/** `node (NodePort 30080)` -> `NodePort 30080`; `node` alone -> `NodePort`. */
function nodeEntry(step: PathStep | undefined): string {
  const inner = step ? /\((.*)\)$/.exec(step.at)?.[1] : undefined;
  return inner ?? 'NodePort';
}

/** The load balancer's name on the path (`ALB`, `Google passthrough NLB`), else its kind. */
function lbName(e: ExposureExplanation): string {
  return e.path[1]?.at ?? e.lb_kind ?? 'load balancer';
}

const VIA_WORDS = { 'tcp-source': 'the TCP source address', 'x-forwarded-for': 'X-Forwarded-For', none: 'nothing' } as const;

/** The client-IP verdict in a few words, and whether it is the lesson's bad case. */
export function clientVerdict(e: Pick<ExposureExplanation, 'client_ip_via'>): { readonly short: string; readonly lost: boolean | null } {
  switch (e.client_ip_via) {
    case null:
      return { short: 'client IP: unknown', lost: null };
    case 'none':
      return { short: 'client IP LOST', lost: true };
    case 'x-forwarded-for':
      return { short: 'client IP via X-Forwarded-For', lost: false };
    default:
      return { short: 'client IP kept (TCP source)', lost: false };
  }
}

/** `1 hop`, `2 hops`, `? hops`. */
export function hopsWords(hops: number | null): string {
  return hops === null ? 'hops unknown' : `${hops} hop${hops === 1 ? '' : 's'}`;
}

const WIDTH = 960;

/** The facts under the picture, each a label and a value, wrapped. */
function factLines(e: ExposureExplanation, top: number): { svg: string[]; bottom: number } {
  const verdict = clientVerdict(e);
  const rows: { label: string; value: string; color: string }[] = [
    { label: 'hops LB → Pod', value: e.expected_hops === null ? 'unknown' : `${e.expected_hops} (${e.expected_hops === 1 ? 'LB → Pod' : 'LB → node → Pod'})`, color: INK.text },
    {
      label: 'source NAT',
      value: e.snat === null ? 'unknown' : e.snat ? 'SNAT on the node: the Pod sees a node address as the TCP peer' : 'no SNAT on the way',
      color: e.snat ? INK.snat : e.snat === false ? INK.good : INK.text,
    },
    {
      label: 'client IP at the Pod',
      value: `${e.client_ip_via === null ? 'unknown' : e.client_ip_via === 'none' ? 'LOST' : `kept, via ${VIA_WORDS[e.client_ip_via]}`} (the Pod sees: ${e.client_ip_seen_as})`,
      color: verdict.lost ? INK.snat : verdict.lost === false ? INK.good : INK.text,
    },
    { label: 'health check', value: e.health_check, color: INK.text },
  ];
  const size = 15;
  const labelWidth = 190;
  const chars = charsIn(WIDTH - 24 - labelWidth, size);
  const svg: string[] = [];
  let y = top;
  for (const row of rows) {
    const lines = wrapWords(row.value, chars, 'punctuation');
    svg.push(text(16, y, `${row.label}:`, { size, weight: 'bold' }), text(16 + labelWidth, y, lines, { size, fill: row.color, leading: 1.3 }));
    y += Math.round(lines.length * size * 1.3) + 8;
  }
  return { svg, bottom: y };
}

/**
 * One exposure's path as an `<svg>`: client → load balancer → (node →) Pod,
 * the DNAT and SNAT where they happen, the hops, the client-IP verdict and the
 * health check. `options.title` replaces the exposure's mode as the heading.
 */
export function exposurePathSvg(exposure: ExposureExplanation, options: { readonly title?: string } = {}): string {
  const e = exposure;
  const shape = pathShape(e);
  const title = options.title ?? e.mode;
  const parts: string[] = [];
  parts.push(text(16, 32, title, { size: 22, weight: 'bold' }));
  const subtitle = [
    e.layer === null ? null : e.layer === 'L7' ? 'L7 (the load balancer proxies)' : 'L4 (passthrough)',
    e.api,
    e.lb_kind && `${e.lb_kind}, target type ${e.target_type ?? 'unknown'}`,
    e.targets === 'nodes' ? `externalTrafficPolicy: ${e.external_traffic_policy ?? 'unknown'}` : null,
  ]
    .filter((s): s is string => s !== null)
    .join(' · ');
  parts.push(text(16, 56, subtitle, { size: 14, fill: INK.muted }));

  // Client and load balancer, outside the cluster.
  const mid = 196;
  parts.push(labelledBox(16, mid - 30, 110, 60, 'client', { fill: INK.client, weight: 'bold' }));
  parts.push(labelledBox(190, mid - 40, 170, 80, lbName(e), { fill: INK.lb, weight: 'bold' }));
  parts.push(arrow(126, mid, 188, mid));
  parts.push(
    text(275, mid + 58, e.layer === 'L7' ? ['new connection,', 'adds X-Forwarded-For'] : e.layer === 'L4' ? ['forwards the packet', 'as it is'] : [], {
      size: 12,
      anchor: 'middle',
      fill: INK.muted,
    }),
  );

  // The cluster: a dashed frame with one or two nodes.
  parts.push(rect(410, 78, 534, 230, { dashed: true, stroke: INK.cluster, fill: '#fbfbfb' }));
  parts.push(text(424, 98, 'cluster', { size: 14, weight: 'bold', fill: INK.cluster }));
  const hop = (x: number, y: number, label: string, color: string = INK.text) => badge(x, y, label, { size: 13, color });
  switch (shape) {
    case 'pods': {
      parts.push(rect(440, 108, 240, 180, { fill: INK.node }), text(452, 128, 'a node (no NodePort used)', { size: 13, fill: INK.muted }));
      parts.push(labelledBox(520, mid - 28, 130, 56, 'Pod', { fill: INK.pod, weight: 'bold' }));
      parts.push(arrow(360, mid, 518, mid, { width: 3 }));
      parts.push(hop(430, mid - 18, 'hop 1'));
      parts.push(text(700, 140, wrapWords('The load balancer sends to the Pod IP itself: no DNAT, no SNAT on a node.', 30, 'punctuation'), { size: 13, fill: INK.good }));
      break;
    }
    case 'nodes-cluster': {
      parts.push(rect(430, 108, 240, 180, { fill: INK.node }), text(442, 128, 'the node the LB picked', { size: 13, fill: INK.muted }));
      parts.push(labelledBox(446, mid - 28, 120, 56, nodeEntry(e.path[2]), { fill: '#ffffff', size: 13 }));
      parts.push(badge(552, mid + 58, 'DNAT + SNAT here', { size: 13, color: '#ffffff', fill: INK.snat, stroke: INK.snat }));
      parts.push(rect(690, 108, 240, 180, { fill: INK.node }), text(702, 128, 'any node with a ready Pod', { size: 13, fill: INK.muted }));
      parts.push(labelledBox(750, mid - 28, 130, 56, 'Pod', { fill: INK.pod, weight: 'bold' }));
      parts.push(arrow(360, mid, 444, mid, { width: 3 }));
      parts.push(hop(402, mid - 18, 'hop 1'));
      parts.push(arrow(566, mid, 748, mid, { width: 4, color: INK.snat }));
      parts.push(hop(657, mid - 18, 'hop 2', INK.snat));
      parts.push(text(702, 266, ['source: the node, not the client', '(maybe the same node: then 1 hop)'], { size: 12, fill: INK.snat }));
      break;
    }
    case 'nodes-local': {
      parts.push(rect(440, 108, 480, 180, { fill: INK.node }), text(452, 128, 'a node with a ready Pod (the health check skips the others)', { size: 13, fill: INK.muted }));
      parts.push(labelledBox(456, mid - 28, 140, 56, nodeEntry(e.path[2]), { fill: '#ffffff', size: 13 }));
      parts.push(badge(526, mid + 58, 'DNAT only, no SNAT', { size: 13, color: INK.dnat }));
      parts.push(labelledBox(740, mid - 28, 130, 56, 'Pod', { fill: INK.pod, weight: 'bold' }));
      parts.push(arrow(360, mid, 454, mid, { width: 3 }));
      parts.push(hop(407, mid - 18, 'hop 1'));
      parts.push(arrow(596, mid, 738, mid, { width: 2, dashed: true }));
      parts.push(text(667, mid - 12, 'same node', { size: 12, anchor: 'middle', fill: INK.muted }));
      break;
    }
    default: {
      parts.push(labelledBox(470, mid - 30, 400, 60, 'path unknown: explain could not derive it from the synthesized stacks', { fill: '#ffffff', size: 14 }));
      parts.push(arrow(360, mid, 468, mid, { dashed: true }));
    }
  }
  // The hop count, large, where a projector shows it.
  parts.push(text(944, 56, hopsWords(e.expected_hops), { size: 20, weight: 'bold', anchor: 'end', fill: e.expected_hops !== null && e.expected_hops > 1 ? INK.snat : INK.text }));

  const facts = factLines(e, 340);
  parts.push(...facts.svg);
  const height = facts.bottom + 6;
  const description = `${e.path_summary}. ${hopsWords(e.expected_hops)} from the load balancer to the Pod; ${e.snat === null ? 'SNAT unknown' : e.snat ? 'SNAT on the node' : 'no SNAT'}; ${
    clientVerdict(e).short
  }; health check: ${e.health_check}`;
  return svgDocument(WIDTH, height, `${title}: ${e.path_summary}`, description, parts);
}

/** Colours of the one-variable arcs, by variable. */
const VARIABLE_COLOR: Readonly<Record<string, string>> = { layer: '#1f4e9c', api: '#6b2f8f', targets: '#0b6b2b', 'traffic policy': '#8a5300' };

const COL = 176;
/** The size of the one-variable arcs' labels. */
const ARC_LABEL_SIZE = 13;

/** The point at `t` (0 to 1) of an arc from (x1, foot) to (x2, foot) rising `h`: the cubic Bézier the arcs are drawn as, its control points `h` above the feet. */
function arcPoint(x1: number, x2: number, foot: number, h: number, t: number): { x: number; y: number } {
  return { x: x1 + (x2 - x1) * (3 * t * t - 2 * t * t * t), y: foot - h * 3 * t * (1 - t) };
}

/** Where along its own arc a label is tried: the top first, then ever nearer the feet, right before left. */
const LABEL_TRIES = [0.5, 0.6, 0.4, 0.7, 0.3, 0.75, 0.25, 0.8, 0.2];

/**
 * The centre of each arc's label: the arc's top, unless another arc runs
 * through the label there or an earlier label is in the way (nested arcs
 * share a foot: the inner one's label would sit on the outer arc); then the
 * first point along its own arc where the label is clear. When none is, the
 * top.
 */
function labelPlaces(arcs: readonly { x1: number; x2: number; h: number; label: string }[], foot: number, size: number): { x: number; y: number }[] {
  const samples = arcs.map((a) => Array.from({ length: 161 }, (_, k) => arcPoint(a.x1, a.x2, foot, a.h, k / 160)));
  const placed: { left: number; top: number; right: number; bottom: number }[] = [];
  return arcs.map((a, i) => {
    const { width, height } = badgeSize(a.label, { size });
    const boxAt = (t: number) => {
      const c = arcPoint(a.x1, a.x2, foot, a.h, t);
      return { c, left: c.x - width / 2 - 3, right: c.x + width / 2 + 3, top: c.y - height / 2 - 3, bottom: c.y + height / 2 + 3 };
    };
    const clear = (b: ReturnType<typeof boxAt>) =>
      samples.every((points, j) => j === i || points.every((p) => p.x < b.left || p.x > b.right || p.y < b.top || p.y > b.bottom)) &&
      placed.every((o) => o.right < b.left || b.right < o.left || o.bottom < b.top || b.bottom < o.top);
    const chosen = LABEL_TRIES.map(boxAt).find(clear) ?? boxAt(0.5);
    placed.push(chosen);
    return { x: Math.round(chosen.c.x), y: Math.round(chosen.c.y) };
  });
}
const GAP = 18;
const LEFT = 16;

/** The short name of a node entry for a narrow column. */
function shortEntry(step: PathStep | undefined): string {
  return nodeEntry(step).replace(/^LB IP:port, passthrough$/, 'LB IP:port');
}

function column(e: ExposureExplanation, x: number, top: number): { parts: string[]; bottom: number } {
  const parts: string[] = [];
  const shape = pathShape(e);
  const w = COL - 20;
  const bx = x + 10;
  const cx = x + COL / 2;
  const rows = { client: top + 62, lb: top + 122, node: top + 192, pod: top + 262 };
  parts.push(labelledBox(bx, rows.client, w, 38, 'client', { fill: INK.client, size: 13 }));
  parts.push(labelledBox(bx, rows.lb, w, 44, lbName(e), { fill: INK.lb, size: 13, weight: 'bold' }));
  parts.push(arrow(cx, rows.client + 38, cx, rows.lb));
  if (shape === 'nodes-cluster' || shape === 'nodes-local') {
    parts.push(labelledBox(bx, rows.node, w, 44, `node (${shortEntry(e.path[2])})`, { fill: INK.node, size: 12 }));
    parts.push(arrow(cx, rows.lb + 44, cx, rows.node, { width: 2 }));
    const snat = shape === 'nodes-cluster';
    parts.push(arrow(cx, rows.node + 44, cx, rows.pod, { width: snat ? 4 : 2, color: snat ? INK.snat : INK.line }));
    parts.push(badge(cx, rows.node + 58, snat ? 'DNAT + SNAT' : 'DNAT', { size: 12, color: snat ? '#ffffff' : INK.dnat, fill: snat ? INK.snat : '#ffffff', stroke: snat ? INK.snat : INK.dnat }));
  } else if (shape === 'pods') {
    parts.push(arrow(cx, rows.lb + 44, cx, rows.pod, { width: 3 }));
    parts.push(text(cx + 10, rows.node + 18, ['straight to', 'the Pod IP:', 'no node hop'], { size: 12, fill: INK.muted, italic: true }));
  } else {
    parts.push(text(cx, rows.node + 26, 'path unknown', { size: 12, anchor: 'middle', fill: INK.muted }));
  }
  const podLabel = shape === 'nodes-cluster' ? 'Pod (any node)' : shape === 'nodes-local' ? 'Pod (same node)' : 'Pod';
  parts.push(labelledBox(bx, rows.pod, w, 40, podLabel, { fill: INK.pod, size: 13, weight: 'bold' }));
  const verdict = clientVerdict(e);
  const facts: [string, string][] = [
    [hopsWords(e.expected_hops), e.expected_hops !== null && e.expected_hops > 1 ? INK.snat : INK.text],
    [e.snat === null ? 'SNAT unknown' : e.snat ? 'SNAT' : 'no SNAT', e.snat ? INK.snat : e.snat === false ? INK.good : INK.text],
    [verdict.short, verdict.lost ? INK.snat : verdict.lost === false ? INK.good : INK.text],
  ];
  let y = rows.pod + 64;
  for (const [line, color] of facts) {
    const lines = wrapWords(line, charsIn(w, 14), 'punctuation');
    parts.push(text(cx, y, lines, { size: 14, weight: 'bold', anchor: 'middle', fill: color }));
    y += lines.length * 18 + 4;
  }
  return { parts, bottom: y };
}

function absentColumn(mode: string, reason: string, cloud: Cloud, x: number, top: number): string[] {
  const w = COL - 20;
  const lines = wrapWords(`not offered on ${cloud === 'gcp' ? 'GKE' : 'EKS'}: ${reason}`, charsIn(w - 8, 12), 'punctuation');
  return [
    labelledBox(x + 10, top, w, 44, mode, { dashed: true, fill: '#ffffff', size: 15, weight: 'bold', textFill: INK.muted }),
    rect(x + 10, top + 62, w, 240, { dashed: true, fill: '#ffffff', stroke: INK.muted }),
    text(x + 16, top + 84, lines, { size: 12, fill: INK.muted }),
  ];
}

/** The cloud of `environment`, or undefined. */
function cloudOf(environment: EnvironmentExplanation, cloud: Cloud): CloudExplanation | undefined {
  return environment.clouds.find((c) => c.cloud === cloud);
}

/**
 * Every exposure of one cloud of `environment` side by side, each a small
 * client → LB → node → Pod column with its hops, SNAT and client-IP verdict,
 * and above them an arc between each pair that differs in exactly one
 * variable, named after it. Modes the cloud does not offer are dashed columns
 * that say why.
 */
export function overviewSvg(environment: EnvironmentExplanation, cloud: Cloud): string {
  const found = cloudOf(environment, cloud);
  const title = `${environment.env}, ${CLOUD_TITLE[cloud]}: every exposure side by side`;
  const exposures = found?.exposures ?? [];
  const absent = found?.not_offered ?? [];
  const count = exposures.length + absent.length;
  if (count === 0) {
    const why = found ? `${found.lb_stack} has no exposures${found.lb_synthesized ? '' : ' (not synthesized)'}` : `no ${CLOUD_TITLE[cloud]} stacks in environment ${environment.env}`;
    return svgDocument(640, 90, title, why, [text(16, 32, title, { size: 18, weight: 'bold' }), text(16, 64, why, { size: 15, fill: INK.muted })]);
  }
  const width = Math.max(640, LEFT * 2 + count * COL + (count - 1) * GAP);
  const index = new Map(exposures.map((e, i) => [e.mode, i]));
  const pairs: { a: number; b: number; variable: string; words: string }[] = [];
  exposures.forEach((e, i) => {
    for (const n of e.differs_in_one) {
      const j = index.get(n.mode);
      if (j !== undefined && j > i) {
        pairs.push({ a: i, b: j, variable: n.variable, words: n.variable });
      }
    }
  });
  const maxSpan = Math.max(0, ...pairs.map((p) => p.b - p.a));
  const rise = (span: number) => 32 * span + 12;
  const arcTop = 64;
  const foot = pairs.length ? arcTop + Math.ceil(0.75 * rise(maxSpan)) + 14 : arcTop;
  const centre = (i: number) => LEFT + i * (COL + GAP) + COL / 2;
  const parts: string[] = [text(16, 30, title, { size: 20, weight: 'bold' })];
  parts.push(
    text(16, 52, pairs.length ? 'An arc joins two exposures that differ in exactly one variable, named on the arc.' : 'No two exposures here differ in exactly one variable.', {
      size: 13,
      fill: INK.muted,
    }),
  );
  // Arcs first, so the labels (drawn after) sit on top of every line.
  const arcs = pairs.map((p) => ({ x1: centre(p.a), x2: centre(p.b), h: rise(p.b - p.a), label: p.words }));
  const places = labelPlaces(arcs, foot, ARC_LABEL_SIZE);
  const labels: string[] = [];
  pairs.forEach((p, i) => {
    const { x1, x2, h } = arcs[i];
    const color = VARIABLE_COLOR[p.variable] ?? INK.line;
    const pair = `${exposures[p.a].mode} ${exposures[p.b].mode}`;
    parts.push(`<path d="M ${x1} ${foot} C ${x1} ${foot - h} ${x2} ${foot - h} ${x2} ${foot}" fill="none" stroke="${color}" stroke-width="2.5" data-arc="${p.variable}" data-pair="${pair}"/>`);
    labels.push(`<g data-arc-label="${p.variable}" data-pair="${pair}">${badge(places[i].x, places[i].y, p.words, { size: ARC_LABEL_SIZE, color })}</g>`);
  });
  parts.push(...labels);
  let bottom = foot + 310;
  exposures.forEach((e, i) => {
    const x = LEFT + i * (COL + GAP);
    parts.push(labelledBox(x + 10, foot, COL - 20, 44, e.mode, { fill: '#ffffff', strokeWidth: 2.5, size: 16, weight: 'bold' }));
    const drawn = column(e, x, foot);
    parts.push(...drawn.parts);
    bottom = Math.max(bottom, drawn.bottom + 10);
  });
  absent.forEach((n, k) => parts.push(...absentColumn(n.mode, n.reason, cloud, LEFT + (exposures.length + k) * (COL + GAP), foot)));
  const legend = `Red: a node rewrites the source (SNAT), or the client's address is lost. Hops count from the load balancer to the Pod.`;
  const legendLines = wrapWords(legend, charsIn(width - 32, 13), 'punctuation');
  parts.push(text(16, bottom, legendLines, { size: 13, fill: INK.muted }));
  const height = bottom + legendLines.length * 17 + 8;
  const description =
    exposures.map((e) => `${e.mode}: ${e.path_summary}; ${hopsWords(e.expected_hops)}; ${e.snat ? 'SNAT' : 'no SNAT'}; ${clientVerdict(e).short}`).join('. ') +
    (pairs.length ? `. One variable apart: ${pairs.map((p) => `${exposures[p.a].mode} and ${exposures[p.b].mode} (${p.variable})`).join(', ')}` : '');
  return svgDocument(width, height, title, description, parts);
}
