/**
 * The packet's journey (journey.ts) as a step-through on a page, one
 * component for `explain --format html` and the handout: each step is the
 * packet on one stretch of the way, its source and destination
 * (address:port, who holds it, where the address comes from), the
 * X-Forwarded-For it carries, and what rewrote it; a rewritten field is
 * marked in words, not only in colour.
 *
 * Progressive enhancement: the markup lists every step, so a page without
 * script (or printed) shows them all. {@link JOURNEY_SCRIPT}, inline and
 * loaded from nowhere, turns each journey into one step at a time with
 * Previous/Next buttons and the keyboard (→ ← PageDown PageUp, a clicker's
 * keys, Home End) while the journey has focus; `@media print` shows every
 * step again. Put {@link JOURNEY_CSS} in the page's style and
 * {@link JOURNEY_SCRIPT} once at the end of its body.
 */
import { escapeHtml } from '../../kit/svg/html-page';
import { ExposureExplanation } from '../anatomy/model';
import { Journey, JourneyEndpoint, JourneyGiven, JourneyStep, JourneyValue, packetJourney } from './journey';

const e = escapeHtml;

/** The component's style (after the page's base style). */
export const JOURNEY_CSS = `
.journey { border: 2px solid #333; border-radius: 6px; padding: 0.4rem 0.8rem 0.6rem; margin: 1rem 0 1.5rem; max-width: 60rem; }
.journey:focus { outline: 3px solid #0645ad; outline-offset: 2px; }
.journey h4, .journey h5 { margin: 0.3rem 0; font-size: 1.1rem; }
.journey-how { font-size: 0.85rem; color: #333; margin: 0.2rem 0 0.4rem; }
.journey-steps { list-style: none; padding: 0; margin: 0; }
.journey-step { border-top: 1px solid #999; padding: 0.4rem 0; }
.journey-where { margin: 0.1rem 0 0.3rem; font-weight: bold; }
.journey-dir { display: inline-block; min-width: 5.5rem; padding: 0 0.3rem; border: 1px solid #333; border-radius: 3px; font-size: 0.85rem; text-align: center; }
.journey-step[data-direction="reply"] .journey-dir { background: #eef3ff; }
.journey-packet { margin: 0.2rem 0; width: 100%; }
.journey-packet th { width: 9.5rem; }
.journey-packet code { font-size: 1.05em; overflow-wrap: anywhere; }
.journey-origin { display: block; font-size: 0.8rem; color: #333; }
.journey-changed { background: #fff0f2; border-left: 6px solid #b00020; }
.journey-mark { color: #b00020; font-weight: bold; white-space: nowrap; }
.journey-rewrite { margin: 0.3rem 0 0; }
.journey-notes { font-size: 0.9rem; margin: 0.4rem 0 0; }
.journey-controls { display: flex; gap: 0.6rem; align-items: center; flex-wrap: wrap; margin: 0.3rem 0; }
.journey-controls[hidden] { display: none; }
.journey-controls button { font: inherit; font-size: 1rem; padding: 0.25rem 0.9rem; border: 2px solid #000; border-radius: 4px; background: #fff; cursor: pointer; }
.journey-controls button:disabled { color: #777; border-color: #999; cursor: default; }
.journey-keys { font-size: 0.85rem; color: #333; }
.journey-live .journey-step { display: none; }
.journey-live .journey-step.journey-current { display: block; }
@media print {
  .journey-live .journey-step { display: block; }
  .journey-controls { display: none; }
  .journey-step { break-inside: avoid; page-break-inside: avoid; }
}
`;

/**
 * One step at a time for every `[data-journey]` of the page, with its
 * buttons and keys; nothing is loaded, nothing leaves the page.
 */
export const JOURNEY_SCRIPT = `<script>
(function () {
  var keys = { ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 };
  Array.prototype.forEach.call(document.querySelectorAll('[data-journey]'), function (journey) {
    var steps = journey.querySelectorAll('.journey-step');
    var controls = journey.querySelector('.journey-controls');
    if (steps.length === 0 || !controls) return;
    var previous = controls.querySelector('[data-journey-previous]');
    var next = controls.querySelector('[data-journey-next]');
    var position = controls.querySelector('.journey-position');
    var at = 0;
    function show(index) {
      at = Math.max(0, Math.min(steps.length - 1, index));
      Array.prototype.forEach.call(steps, function (step, i) {
        step.classList.toggle('journey-current', i === at);
      });
      position.textContent = 'step ' + (at + 1) + ' of ' + steps.length;
      previous.disabled = at === 0;
      next.disabled = at === steps.length - 1;
    }
    previous.addEventListener('click', function () { show(at - 1); });
    next.addEventListener('click', function () { show(at + 1); });
    journey.addEventListener('keydown', function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (keys[event.key]) show(at + keys[event.key]);
      else if (event.key === 'Home') show(0);
      else if (event.key === 'End') show(steps.length - 1);
      else return;
      event.preventDefault();
    });
    journey.classList.add('journey-live');
    controls.hidden = false;
    show(0);
  });
})();
</script>`;

const ORIGIN_WORDS: Readonly<Record<JourneyValue['origin'], string>> = { plan: 'from the plan', example: 'example', outputs: 'from the outputs', measured: 'measured' };

/** `example, drawn from 10.0.0.0/19, the node subnet`. */
function originText(value: JourneyValue): string {
  return `${ORIGIN_WORDS[value.origin]}, ${value.why}`;
}

function endpointCell(end: JourneyEndpoint, changed: boolean): string {
  return (
    `<td${changed ? ' class="journey-changed"' : ''} data-role="${e(end.role)}" data-address="${e(end.address.text)}" data-origin="${end.address.origin}">` +
    `<code>${e(`${end.address.text}:${end.port.text}`)}</code> ${e(end.role)}${changed ? ' <span class="journey-mark">← rewritten here</span>' : ''}` +
    `<span class="journey-origin">address: ${e(originText(end.address))}; port: ${e(originText(end.port))}</span></td>`
  );
}

function stepItem(step: JourneyStep, index: number, count: number): string {
  const rewrite = step.rewrite;
  const what = rewrite.kind === 'none' ? `<strong>Rewritten:</strong> nothing (${e(rewrite.words)})` : `<strong>What rewrote it:</strong> ${e(rewrite.words)}`;
  const hop = step.hop === null ? '' : ` · hop ${step.hop} from the load balancer`;
  return [
    `<li class="journey-step" data-direction="${step.direction}" data-rewrite="${rewrite.kind}" data-source-role="${e(step.source.role)}" data-source-rewritten="${rewrite.source}">`,
    `<p class="journey-where">Step ${index + 1} of ${count} <span class="journey-dir">${step.direction}</span> ${e(step.from)} → ${e(step.to)}${e(hop)}</p>`,
    '<table class="journey-packet"><tbody>',
    `<tr><th scope="row">source</th>${endpointCell(step.source, rewrite.source)}</tr>`,
    `<tr><th scope="row">destination</th>${endpointCell(step.destination, rewrite.destination)}</tr>`,
    step.forwardedFor === null ? '' : `<tr><th scope="row">X-Forwarded-For</th><td><code>${e(step.forwardedFor)}</code></td></tr>`,
    '</tbody></table>',
    `<p class="journey-rewrite">${what}</p>`,
    '</li>',
  ].join('');
}

/**
 * One journey as a `<section data-journey>`: its heading (`title`), the step
 * list and its (hidden until the script runs) controls. `id` must be unique
 * in the page.
 */
export function journeyHtml(journey: Journey, options: { readonly id: string; readonly title: string; readonly heading?: 'h4' | 'h5' }): string {
  const h = options.heading ?? 'h5';
  const head = `<${h}>${e(options.title)}</${h}>`;
  if (journey.steps.length === 0) {
    return `<section class="journey journey-unknown" id="${e(options.id)}">${head}<p class="muted">No journey: ${e(journey.unknown ?? 'nothing known')}.</p></section>`;
  }
  const origins = new Set(journey.steps.flatMap((s) => [s.source, s.destination]).flatMap((x) => [x.address.origin, x.port.origin]));
  const how = [
    'Each step is the packet on one stretch of the way: its source and destination (address:port), and what rewrote them.',
    origins.has('example')
      ? 'Addresses marked example are drawn from the synthesized ranges (nodes, Pods, the load balancer) or from documentation ranges (the client, a public address): the real ones differ.'
      : '',
    origins.has('outputs') ? "Marked from the outputs: the deployed lab's URL." : '',
    origins.has('measured') ? 'Marked measured: what compare --probe saw.' : '',
  ]
    .filter((x) => x !== '')
    .join(' ');
  return [
    `<section class="journey" id="${e(options.id)}" data-journey tabindex="0" aria-label="${e(options.title)}">`,
    head,
    `<p class="journey-how">${e(how)}</p>`,
    '<div class="journey-controls" hidden><button type="button" data-journey-previous>← Previous</button><span class="journey-position" aria-live="polite"></span>' +
      '<button type="button" data-journey-next>Next →</button><span class="journey-keys">keys: → ← (PageDown, PageUp), Home, End</span></div>',
    `<ol class="journey-steps">${journey.steps.map((s, i) => stepItem(s, i, journey.steps.length)).join('')}</ol>`,
    journey.notes.length ? `<ul class="journey-notes">${journey.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul>` : '',
    '</section>',
  ].join('\n');
}

/** The journey through `exposure` (what `given` adds of a deployed lab) as its section: {@link journeyHtml} of {@link packetJourney}. */
export function exposureJourneyHtml(exposure: ExposureExplanation, given: JourneyGiven, options: Parameters<typeof journeyHtml>[1]): string {
  return journeyHtml(packetJourney(exposure, given), options);
}
