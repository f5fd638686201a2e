/**
 * An attendee's access card (`handout --format card`, `<env>.card.html`): one
 * printed page, A4 or Letter, with what gets them started: their URLs, kubectl
 * working in two lines per cluster (taken from the handout's own access steps),
 * and when the workshop ends. The handout itself holds everything else.
 */
import { escapeHtml, htmlPage } from '../../kit/svg/html-page';
import { CLOUD_NAMES, Handout, HandoutCluster, Step } from './handout-model';
import { inline, PRE_CSS, preHtml } from './render-handout';

/** How many lines of a cluster's access steps the card shows. */
export const CARD_ACCESS_LINES = 2;

/**
 * The lines of a cluster's access that get kubectl working: its first
 * {@link CARD_ACCESS_LINES} steps with a command, in the handout's order (the
 * handout has the alternatives and the check); when none has a command, the
 * first step, which says who runs kubectl instead.
 */
export function cardAccess(cluster: HandoutCluster): Step[] {
  const commands = cluster.access.filter((s) => s.command !== undefined);
  return commands.length > 0 ? commands.slice(0, CARD_ACCESS_LINES) : cluster.access.slice(0, 1);
}

/** `2026-12-01T18:00:00Z` as `2026-12-01 18:00 UTC`. */
export function workshopEnd(expiresAt: string): string {
  return `${expiresAt.slice(0, 10)} ${expiresAt.slice(11, 16)} UTC`;
}

const who = (h: Handout) => (h.attendee ? h.attendee.name : h.env);

/** The card's printed margins, on every side. */
export const CARD_PRINT_MARGIN_MM = 12;

const CARD_CSS = `${PRE_CSS}
@page { margin: ${CARD_PRINT_MARGIN_MM}mm; }
html { font-size: 14px; }
body { padding: 0.5rem 1rem; max-width: 60rem; line-height: 1.3; }
h1 { font-size: 1.4rem; margin: 0 0 0.3rem; }
h2 { font-size: 1.1rem; margin: 0.7rem 0 0.3rem; border-bottom-width: 2px; }
h3 { font-size: 1rem; margin: 0.5rem 0 0.2rem; }
p, li { margin: 0.15rem 0; }
ol { margin: 0.1rem 0; padding-left: 1.4rem; }
pre { margin: 0.15rem 0 0.3rem; padding: 0.2rem 0.4rem; }
table { width: 100%; margin: 0.2rem 0; }
th, td { padding: 0.1rem 0.3rem; }
td { white-space: nowrap; }
td.url { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.75em; width: 100%; }
.end { border: 2px solid #000; padding: 0.2rem 0.5rem; display: inline-block; }
@media print { html { font-size: 9.5pt; } body { padding: 0; } pre { font-size: 8.5pt; } }
`;

/** The attendee's access card, one self-contained page. */
export function cardHtml(h: Handout, handoutFile: string): string {
  const urls = h.exposures.map(
    (e) => `<tr><td>${escapeHtml(e.cloud === 'aws' ? 'EKS' : 'GKE')}</td><td>${escapeHtml(e.mode)}</td><td class="url">${escapeHtml(e.url ?? 'none yet (ask the host)')}</td></tr>`,
  );
  const clusters = h.clusters.map((c) => {
    const lines = cardAccess(c)
      .map((s) => `<li>${inline(s.say)}${s.command ? preHtml(s.command) : ''}</li>`)
      .join('');
    return `<h3>${escapeHtml(CLOUD_NAMES[c.cloud])}: <code>${escapeHtml(c.clusterName ?? 'unknown')}</code></h3><ol>${lines}</ol>`;
  });
  const body = [
    `<h1>hoplab: ${escapeHtml(who(h))}'s access card</h1>`,
    `<p>Environment <code>${escapeHtml(h.env)}</code>. ${
      h.expiresAt ? `<span class="end">The workshop ends <strong>${escapeHtml(workshopEnd(h.expiresAt))}</strong>: your lab may be deleted after that.</span>` : 'The host says when the workshop ends.'
    }</p>`,
    '<h2>Your URLs</h2>',
    urls.length > 0 ? `<table><thead><tr><th>cluster</th><th>exposure</th><th>URL</th></tr></thead><tbody>${urls.join('')}</tbody></table>` : '<p>No exposures yet: ask the host.</p>',
    '<h2>Get kubectl working</h2>',
    ...clusters,
    `<p>What each reply shows, and the exercises: your handout, <code>${escapeHtml(handoutFile)}</code>.</p>`,
  ].join('\n');
  return htmlPage({ title: `hoplab access card: ${who(h)}`, body, css: CARD_CSS });
}
