/**
 * A handout as Markdown and as one self-contained HTML page (htmlPage, with
 * H7's path pictures inline), and the host's index page of every handout.
 */
import { escapeHtml, htmlPage } from '../../kit/svg/html-page';
import { exposurePathSvg } from '../../lab/pictures/path-diagram';
import { exposureJourneyHtml, JOURNEY_CSS, JOURNEY_SCRIPT } from '../../lab/pictures/journey-html';
import { HandoutFormat } from './command';
import { CLOUD_NAMES, Exercise, Handout, HandoutExposure, Step } from './handout-model';

/** The file names of an environment's handout. */
export const handoutFiles = (env: string) => ({ markdown: `${env}.md`, html: `${env}.html`, card: `${env}.card.html` });

const who = (h: Handout) => (h.attendee ? h.attendee.name : h.env);

function identityLines(h: Handout): string[] {
  const a = h.attendee;
  // Without an identity an attendee's kubeconfig holds a token of their own ServiceAccount (handout-access.ts).
  const none = a ? 'none (your kubeconfig holds a token for your cluster instead)' : 'none (this environment is no attendee’s)';
  return [`AWS identity: ${a?.aws ? `\`${a.aws}\`` : none}`, `Google identity: ${a?.gcp ? `\`${a.gcp}\`` : none}`];
}

const verdict = (e: HandoutExposure) =>
  e.info.client_ip_via === 'none'
    ? 'client IP lost (SNAT)'
    : e.info.client_ip_via === 'x-forwarded-for'
    ? 'client IP in X-Forwarded-For'
    : e.info.client_ip_via === 'tcp-source'
    ? 'client IP kept'
    : 'client IP unknown';

const hops = (e: HandoutExposure) => (e.info.expected_hops === null ? 'unknown' : String(e.info.expected_hops));

// ---------- Markdown ----------

/** The mark of a step only the host runs, and of an exercise the host leads. */
export const HOST_ONLY = 'host only';
const HOST_LED = 'The host leads this one on the projector: the steps marked host only are the host’s, the others yours.';

function mdSteps(steps: readonly Step[]): string[] {
  return steps.flatMap((s) => [`- ${s.hostOnly ? `**[${HOST_ONLY}]** ` : ''}${s.say}`, ...(s.command ? ['', '  ```sh', `  ${s.command}`, '  ```', ''] : [])]);
}

function mdExercise(x: Exercise, n: number): string[] {
  return [
    `### ${n}. ${x.title}`,
    '',
    ...(x.hostOnly ? [`**[${HOST_ONLY}]** ${HOST_LED}`, ''] : []),
    x.lesson,
    '',
    ...mdSteps(x.steps),
    `**What confirms it:** ${x.observe}`,
    '',
    ...(x.measure.length > 0 ? ['**Measure it:**', '', ...mdSteps(x.measure)] : []),
  ];
}

/** The attendee's handout in Markdown. */
export function handoutMarkdown(h: Handout): string {
  const lines: string[] = [
    `# hoplab: ${who(h)}'s lab (environment \`${h.env}\`)`,
    '',
    ...identityLines(h).map((l) => `- ${l}`),
    '',
    "Your lab is yours only: you can see and change your own clusters, not anyone else's.",
    '',
  ];
  for (const note of h.notes) lines.push(`> ${note}`, '');
  lines.push('## Your clusters', '');
  for (const c of h.clusters) {
    lines.push(
      `### ${CLOUD_NAMES[c.cloud]}: \`${c.clusterName ?? 'unknown'}\``,
      '',
      `Datapath: ${c.dataplane ?? 'unknown'}. The demo app runs in namespace \`hoplab\` (you may change things there; elsewhere you may look).`,
      '',
    );
    lines.push(...mdSteps(c.access));
  }
  lines.push('## Your exposures', '', '| cloud | exposure | URL | load balancer | hops | client IP |', '|---|---|---|---|---|---|');
  for (const e of h.exposures) lines.push(`| ${e.cloud} | ${e.mode} | ${e.url ?? 'none yet'} | ${e.info.lb_kind ?? 'unknown'} | ${hops(e)} | ${verdict(e)} |`);
  lines.push('');
  for (const e of h.exposures) {
    lines.push(`### ${CLOUD_NAMES[e.cloud]} ${e.mode}`, '');
    if (e.explanation) lines.push(`Path: ${e.explanation.path_summary}`, '');
    lines.push(...(e.curl ? ['```sh', e.curl, '```', ''] : ['No URL yet.', '']), `**The reply shows:** ${e.expect}`, '', `**Why:** ${e.why}`, '');
  }
  lines.push('## Exercises', '');
  h.exercises.forEach((x, i) => lines.push(...mdExercise(x, i + 1)));
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

// ---------- HTML ----------

/** Escapes, then shows `code` spans as code. */
export const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
/**
 * A command as a `pre` block, each word in a span that does not wrap: lines wrap at
 * blanks only, never at a hyphen or a slash inside a word (which browsers allow),
 * so a printed command reads as it is typed; copied, it is the same text.
 */
export const preHtml = (command: string) =>
  `<pre><code>${command
    .split(/(\s+)/)
    .map((part) => (part === '' || /^\s+$/.test(part) ? part : `<span class="word">${escapeHtml(part)}</span>`))
    .join('')}</code></pre>`;
const pre = preHtml;
const hostMark = `<span class="host-only">${HOST_ONLY}</span> `;

function htmlSteps(steps: readonly Step[]): string {
  return `<ol>${steps.map((s) => `<li${s.hostOnly ? ' class="host-step"' : ''}>${s.hostOnly ? hostMark : ''}${inline(s.say)}${s.command ? pre(s.command) : ''}</li>`).join('')}</ol>`;
}

function htmlExposure(e: HandoutExposure): string {
  const id = `${e.cloud}-${e.mode}`;
  return [
    `<section class="exposure" id="${escapeHtml(id)}">`,
    `<h3>${escapeHtml(`${CLOUD_NAMES[e.cloud]} ${e.mode}`)}</h3>`,
    `<p class="url">URL: <code>${escapeHtml(e.url ?? 'none yet')}</code> · ${escapeHtml(e.info.lb_kind ?? 'unknown')} · hops: ${escapeHtml(hops(e))} · <strong>${escapeHtml(verdict(e))}</strong></p>`,
    e.explanation ? `<figure>${exposurePathSvg(e.explanation, { title: `${CLOUD_NAMES[e.cloud]} ${e.mode}` })}</figure>` : '',
    e.explanation
      ? exposureJourneyHtml(e.explanation, { url: e.url, ...(e.measured ? { measured: e.measured } : {}) }, { id: `journey-${id}`, title: "Your packet's journey, step by step", heading: 'h4' })
      : '',
    e.curl ? pre(e.curl) : '',
    `<p><strong>The reply shows:</strong> ${inline(e.expect)}</p>`,
    `<p><strong>Why:</strong> ${inline(e.why)}</p>`,
    '</section>',
  ].join('\n');
}

function htmlExercise(x: Exercise, n: number): string {
  return [
    '<section class="exercise">',
    `<h3>${n}. ${inline(x.title)}</h3>`,
    x.hostOnly ? `<p class="host-led">${hostMark}${escapeHtml(HOST_LED)}</p>` : '',
    `<p>${inline(x.lesson)}</p>`,
    htmlSteps(x.steps),
    `<p><strong>What confirms it:</strong> ${inline(x.observe)}</p>`,
    x.measure.length > 0 ? `<p><strong>Measure it:</strong></p>${htmlSteps(x.measure)}` : '',
    '</section>',
  ].join('\n');
}

/**
 * Commands wrap only between words (\`pre-wrap\`, each word a span that does not
 * wrap: see {@link preHtml}), never inside one: a command copied from paper must read
 * as typed. Printed, they are set small enough that the longest word the handout
 * holds (a load balancer's URL) fits a line of A4 or Letter.
 */
export const PRE_CSS = `
pre { white-space: pre-wrap; background: #f2f2f2; padding: 0.5em; border: 1px solid #999; }
pre span.word { white-space: nowrap; }
@media print { pre { font-size: 9pt; } }
`;

/** The handout's printed margins, on every side. */
export const HANDOUT_PRINT_MARGIN_MM = 15;

const CSS = `${PRE_CSS}
@page { margin: ${HANDOUT_PRINT_MARGIN_MM}mm; }
.host-only { display: inline-block; font-size: 0.8em; font-weight: bold; border: 1px solid #000; border-radius: 3px; padding: 0 0.3em; }
li.host-step, p.host-led { color: #333; }
figure { margin: 1em 0; }
figure svg { max-width: 100%; height: auto; }
section.exposure, section.exercise { border-top: 2px solid #000; margin-top: 1.5em; }
`;

/** The attendee's handout as one self-contained page. */
export function handoutHtml(h: Handout): string {
  const body = [
    `<h1>hoplab: ${escapeHtml(who(h))}'s lab (environment <code>${escapeHtml(h.env)}</code>)</h1>`,
    `<ul>${identityLines(h)
      .map((l) => `<li>${inline(l)}</li>`)
      .join('')}</ul>`,
    "<p>Your lab is yours only: you can see and change your own clusters, not anyone else's.</p>",
    ...h.notes.map((n) => `<p class="note"><strong>Note:</strong> ${inline(n)}</p>`),
    '<h2>Your clusters</h2>',
    ...h.clusters.map(
      (c) =>
        `<h3>${escapeHtml(CLOUD_NAMES[c.cloud])}: <code>${escapeHtml(c.clusterName ?? 'unknown')}</code></h3><p>Datapath: ${escapeHtml(
          c.dataplane ?? 'unknown',
        )}. The demo app runs in namespace <code>hoplab</code> (you may change things there; elsewhere you may look).</p>${htmlSteps(c.access)}`,
    ),
    '<h2>Your exposures</h2>',
    ...h.exposures.map(htmlExposure),
    '<h2>Exercises</h2>',
    ...h.exercises.map((x, i) => htmlExercise(x, i + 1)),
  ].join('\n');
  return htmlPage({ title: `hoplab handout: ${who(h)}`, body: body + JOURNEY_SCRIPT, css: CSS + JOURNEY_CSS });
}

const LINK_WORDS: Readonly<Record<HandoutFormat, string>> = { markdown: 'Markdown', html: 'page', card: 'access card' };

/**
 * The host's page: every attendee's handouts, with their URLs, and which attendees got a kubeconfig
 * (`kubeconfigs`: environment -> how, in words). It never links or holds a kubeconfig: a token is a secret.
 */
export function indexHtml(handouts: readonly Handout[], formats: readonly HandoutFormat[], kubeconfigs: ReadonlyMap<string, string> = new Map()): string {
  const rows = handouts.map((h) => {
    const files = handoutFiles(h.env);
    const links = formats.map((f) => `<a href="${escapeHtml(files[f])}">${LINK_WORDS[f]}</a>`).join(' · ');
    const identities = [h.attendee?.aws, h.attendee?.gcp].filter((x) => x).map((x) => `<code>${escapeHtml(x!)}</code>`);
    const kubeconfig = kubeconfigs.get(h.env) ?? 'no';
    return `<tr><td>${escapeHtml(who(h))}</td><td>${links}</td><td>${identities.join('<br>') || 'none'}</td><td>${escapeHtml(kubeconfig)}</td><td>${h.exposures.length}</td></tr>`;
  });
  const body = [
    '<h1>hoplab handouts</h1>',
    `<p>${handouts.length} handout${handouts.length === 1 ? '' : 's'}. Hand each attendee their own page.</p>`,
    `<p>Kubeconfig files (<code>&lt;attendee&gt;.kubeconfig</code>) are beside the handouts, not linked here: one with a token is a secret.</p>`,
    '<table><thead><tr><th>attendee</th><th>handout</th><th>identities</th><th>kubeconfig</th><th>exposures</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
  return htmlPage({ title: 'hoplab handouts', body });
}
