/**
 * `explain --format html`: one self-contained page (lib/lab/pictures, drawn with lib/kit/svg):
 * for each environment (identical labs once, with their names, a long list
 * of them collapsed behind a count) and cloud, the overview of every
 * exposure side by side with the one-variable pairs, a summary table, then
 * one picture per exposure with its facts, the packet's journey step by step
 * and, when outputs were given, its URL (as text to copy, not a link: the
 * page names nothing outside itself). The datapath, Pod capacity and notes
 * are in a closed `<details>` per cloud. It fits a 1024-pixel-wide projector
 * without a horizontal scrollbar.
 */
import { escapeHtml, htmlPage } from '../../kit/svg/html-page';
import { clientVerdict, exposurePathSvg, overviewSvg } from '../../lab/pictures/path-diagram';
import { exposureJourneyHtml, JOURNEY_CSS, JOURNEY_SCRIPT } from '../../lab/pictures/journey-html';
import { MeasuredByExposure, measuredOfExposure } from '../../lab/probe/measured';
import { EnvironmentGroup, groupIdentical, groupStackName, namesShort } from './identical';
import { CloudExplanation, ExplainModel, ExposureExplanation, shown } from '../../lab/anatomy/model';
import { capacityLines, capacityShort, CLOUD_TITLE, cloudNotes, datapathLines, ExposureUrls, hopsReasons, neighboursText, pairsText, shortPath, urlOf } from './words';

export interface HtmlOptions {
  /** URLs from deployed outputs. @default - none */
  readonly urls?: ExposureUrls;
  /** What a probe measured (`--measured`, a compare --probe report), for the journeys. @default - none */
  readonly measured?: MeasuredByExposure;
  /** Only this exposure mode (no overview). @default - every exposure */
  readonly exposure?: string;
}

/** Names shown in a heading before the rest collapse behind a count. */
const NAMES_SHOWN = 3;

const CSS = `
.summary { font-size: 0.85rem; }
.summary td { overflow-wrap: anywhere; }
.summary td.bad, .summary td.good, .summary th code { white-space: nowrap; }
.summary tfoot td { font-size: 0.9rem; }
.names summary { cursor: pointer; }
.facts { margin: 0.3rem 0 0; }
.facts th { width: 13rem; }
.url { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; overflow-wrap: anywhere; }
details { margin: 0.5rem 0 1rem; }
details pre { white-space: pre-wrap; }
`;

const e = escapeHtml;

function anchor(...parts: string[]): string {
  return parts.join('-').replace(/[^A-Za-z0-9_-]/g, '_');
}

function verdictCell(text: string, bad: boolean | null): string {
  return `<td class="${bad === null ? 'muted' : bad ? 'bad' : 'good'}">${e(text)}</td>`;
}

function summaryTable(cloud: CloudExplanation): string {
  const rows = cloud.exposures.map((x) => {
    const verdict = clientVerdict(x);
    return (
      `<tr><th scope="row"><code>${e(x.mode)}</code></th><td>${e(shortPath(x).replace(/ -> /g, ' → '))}</td>` +
      verdictCell(shown(x.expected_hops), x.expected_hops === null ? null : x.expected_hops > 1) +
      verdictCell(x.snat === null ? 'unknown' : x.snat ? 'SNAT' : 'no SNAT', x.snat) +
      verdictCell(x.client_ip_via === null ? 'unknown' : x.client_ip_via === 'none' ? 'LOST' : x.client_ip_via === 'x-forwarded-for' ? 'X-Forwarded-For' : 'TCP source', verdict.lost) +
      `<td>${e(x.health_check)}</td></tr>`
    );
  });
  const why = hopsReasons(cloud);
  return (
    '<table class="summary"><thead><tr><th>exposure</th><th>path</th><th>hops LB → Pod</th><th>source NAT</th><th>client IP at the Pod</th><th>health check</th></tr></thead>' +
    `<tbody>${rows.join('')}</tbody>${why.length ? `<tfoot>${why.map((w) => `<tr><td colspan="6">Why: ${e(w)}</td></tr>`).join('')}</tfoot>` : ''}</table>`
  );
}

function urlList(group: EnvironmentGroup, cloud: CloudExplanation, mode: string, urls: ExposureUrls | undefined): string {
  const found = group.names.map((name) => [name, urlOf(urls, name, cloud.cloud, mode)] as const).filter((x): x is readonly [string, string] => x[1] !== undefined);
  if (found.length === 0) return '';
  if (group.names.length === 1) {
    return `<p>URL: <code class="url">${e(found[0][1])}</code></p>`;
  }
  return `<p>URLs:</p><ul>${found.map(([name, url]) => `<li>${e(name)}: <code class="url">${e(url)}</code></li>`).join('')}</ul>`;
}

/**
 * The packet's journey through `x`: with the outputs' URL and the probe's
 * measurements of a single lab; a group of identical labs keeps the examples
 * (each attendee's lab has addresses of its own).
 */
function journeySection(group: EnvironmentGroup, cloud: CloudExplanation, x: ExposureExplanation, options: HtmlOptions): string {
  const one = group.names.length === 1 ? group.names[0] : undefined;
  const url = one === undefined ? undefined : urlOf(options.urls, one, cloud.cloud, x.mode);
  const measured = one === undefined ? undefined : measuredOfExposure(options.measured, one, cloud.cloud, x.mode);
  return exposureJourneyHtml(
    x,
    { ...(url ? { url } : {}), ...(measured ? { measured } : {}) },
    { id: `journey-${anchor(group.environment.env, cloud.cloud, x.mode)}`, title: `The packet's journey through ${x.mode} on ${CLOUD_TITLE[cloud.cloud]}, step by step` },
  );
}

function exposureFigure(group: EnvironmentGroup, cloud: CloudExplanation, x: ExposureExplanation, options: HtmlOptions): string {
  const urls = options.urls;
  const id = anchor(group.environment.env, cloud.cloud, x.mode);
  const facts: [string, string][] = [
    ['path', x.path_summary],
    ['target type', `${shown(x.lb_kind)} / ${shown(x.target_type)}${x.targets ? ` (${x.targets})` : ''}`],
    ['externalTrafficPolicy', shown(x.external_traffic_policy)],
    ['datapath', x.datapath_effect],
    ['one variable away', neighboursText(x)],
    ['Kubernetes objects', x.kubernetes_objects ?? 'unknown'],
    ...x.notes.map((n): [string, string] => ['note', n]),
  ];
  return [
    `<section class="exposure" id="${id}">`,
    `<h4><code>${e(x.mode)}</code> on ${e(CLOUD_TITLE[cloud.cloud])}</h4>`,
    `<figure>${exposurePathSvg(x, { title: `${x.mode} on ${CLOUD_TITLE[cloud.cloud]}` })}</figure>`,
    urlList(group, cloud, x.mode, urls),
    `<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th scope="row">${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</tbody></table>`,
    journeySection(group, cloud, x, options),
    '</section>',
  ].join('\n');
}

function cloudSection(group: EnvironmentGroup, cloud: CloudExplanation, options: HtmlOptions): string {
  const exposures = options.exposure === undefined ? cloud.exposures : cloud.exposures.filter((x) => x.mode === options.exposure);
  const parts = [
    `<section class="cloud" id="${anchor(group.environment.env, cloud.cloud)}">`,
    `<h3>${e(CLOUD_TITLE[cloud.cloud])}</h3>`,
    `<p>Dataplane <code>${e(shown(cloud.dataplane))}</code>; ${e(capacityShort(cloud.capacity))}; stacks <code>${e(groupStackName(group, cloud.cluster_stack))}</code>${
      cloud.cluster_synthesized ? '' : ' (not synthesized)'
    }, <code>${e(groupStackName(group, cloud.lb_stack))}</code>${cloud.lb_synthesized ? '' : ' (not synthesized)'}.</p>`,
  ];
  if (cloud.exposures.length === 0) {
    parts.push(`<p class="warn">No exposures: ${e(cloud.lb_synthesized ? `${groupStackName(group, cloud.lb_stack)} has none` : `${groupStackName(group, cloud.lb_stack)} was not synthesized`)}.</p>`);
  } else if (options.exposure === undefined) {
    const title = group.names.length === 1 ? group.names[0] : `${group.names.length} identical labs`;
    parts.push(`<figure>${overviewSvg({ ...group.environment, env: title }, cloud.cloud)}<figcaption>Every exposure of ${e(CLOUD_TITLE[cloud.cloud])} side by side.</figcaption></figure>`);
    parts.push(summaryTable(cloud));
    const pairs = pairsText(cloud);
    if (pairs.length) {
      parts.push(`<p>Pairs that differ in exactly one variable:</p><ul>${pairs.map((p) => `<li>${e(p.replace(/<->/g, ' ↔ '))}</li>`).join('')}</ul>`);
    }
  }
  for (const n of cloud.not_offered) {
    if (options.exposure === undefined || n.mode === options.exposure) {
      parts.push(`<p class="muted">Not offered: <code>${e(n.mode)}</code>: ${e(n.reason)}</p>`);
    }
  }
  parts.push(...exposures.map((x) => exposureFigure(group, cloud, x, options)));
  const more = [...capacityLines(cloud.capacity), ...datapathLines(cloud.datapath ?? null), ...cloudNotes(cloud).filter((n) => !n.startsWith('not offered:'))];
  parts.push(`<details><summary>Datapath, Pod capacity and notes</summary><pre>${e(more.join('\n'))}</pre></details>`, '</section>');
  return parts.join('\n');
}

/** The whole page. */
export function renderExplainHtml(model: ExplainModel, options: HtmlOptions = {}): string {
  const groups = groupIdentical(model.environments);
  const body: string[] = [
    '<h1>hoplab explain</h1>',
    `<p class="muted">From the synthesized stacks in <code>${e(model.dir)}</code>${options.exposure ? `; exposure <code>${e(options.exposure)}</code> only` : ''}. ` +
      'Hops count from the load balancer to the Pod. <span class="bad">Red</span>: a node rewrites the source address (SNAT), or the client address is lost; ' +
      '<span class="good">green</span>: it reaches the Pod.</p>',
  ];
  if (groups.length > 1 || groups[0]?.environment.clouds.length > 1) {
    body.push(
      `<nav><ul>${groups
        .flatMap((g) => g.environment.clouds.map((c) => `<li><a href="#${anchor(g.environment.env, c.cloud)}">${e(namesShort(g.names, NAMES_SHOWN))}: ${e(CLOUD_TITLE[c.cloud])}</a></li>`))
        .join('')}</ul></nav>`,
    );
  }
  for (const group of groups) {
    const code = (names: readonly string[]) => names.map((n) => `<code>${e(n)}</code>`).join(', ');
    const heading =
      group.names.length === 1
        ? `Environment <code>${e(group.names[0])}</code>`
        : group.names.length <= NAMES_SHOWN
        ? `Environments ${code(group.names)}`
        : `Environments ${code(group.names.slice(0, NAMES_SHOWN))} and ${group.names.length - NAMES_SHOWN} more`;
    body.push(`<section class="page" id="${anchor(group.environment.env)}">`, `<h2>${heading}</h2>`);
    if (group.names.length > 1) {
      body.push(`<p>${group.names.length} identical labs (they differ only in their names), shown once.</p>`);
    }
    if (group.names.length > NAMES_SHOWN) {
      body.push(`<details class="names"><summary>All ${group.names.length} names</summary><p>${code(group.names)}</p></details>`);
    }
    body.push(...group.environment.clouds.map((c) => cloudSection(group, c, options)), '</section>');
  }
  if (model.ignored_stacks.length) {
    body.push(`<p class="muted">Ignored stacks (not &lt;env&gt;-&lt;aws|gcp&gt;-&lt;cluster|lb&gt;): ${model.ignored_stacks.map((s) => `<code>${e(s)}</code>`).join(', ')}</p>`);
  }
  body.push(JOURNEY_SCRIPT);
  const title = groups.length === 1 ? `hoplab explain: ${namesShort(groups[0].names, NAMES_SHOWN)}` : 'hoplab explain';
  return htmlPage({ title, body: body.join('\n'), css: CSS + JOURNEY_CSS });
}
