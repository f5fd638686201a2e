/**
 * What `reap` found and did, as one report: the JSON `--format json` prints
 * (schema hoplab.reap/v1), and the same as lines for the terminal (80
 * columns; shell commands broken before their flags, so they still paste).
 */
import { plural } from '../../kit/terminal/terminal';
import { commandLines, wrapIndented } from '../../kit/terminal/text-table';
import { Leftover } from '../../lab/leftovers/leftover';
import { DeleteStep } from '../../lab/leftovers/delete-steps';
import { JudgedLab } from '../../lab/leftovers/tagged-labs';
import { SearchedPlace } from '../../lab/leftovers/tag-search';
import { describeTagged } from '../../lab/leftovers/tagged-resource';

/** What the teardown part did. */
export interface ReapTeardown {
  /** Whether Terraform ran. */
  readonly ran: boolean;
  /** Why it did not, when it did not. */
  readonly why?: string;
  /** The environments it tore down (their state was here). */
  readonly environments: readonly string[];
  /** Those of them not every stack of which was destroyed. */
  readonly failed: readonly string[];
  /** What teardown's own leftover check found of them, and what it could not look at. */
  readonly leftovers: readonly Leftover[];
  readonly unchecked: readonly string[];
}

/** A lab the search found: where, which environment, and its judgement, as the search's labs say them; its tags and resources as JSON holds them. */
export interface ReportedLab extends Pick<JudgedLab, 'cloud' | 'slot' | 'region' | 'env' | 'status' | 'expired'> {
  readonly workshop: string | null;
  /** Its `hoplab-expires` as tagged. */
  readonly expiresAt: string | null;
  readonly resources: readonly { readonly kind: string; readonly id: string; readonly what: string }[];
  /** USD per hour at list prices (what has no price counts $0). */
  readonly costPerHour: number;
  readonly unpriced: readonly string[];
  readonly pricesRead: string;
  /** For a lab with no state here: the role the commands run as (AWS account slots), and the commands. */
  readonly role?: string;
  readonly delete?: readonly DeleteStep[];
}

export interface ReapReport {
  readonly schema: 'hoplab.reap/v1';
  /** The time the command ran on (its clock). */
  readonly now: string;
  readonly workshop: { readonly name: string; readonly expiresAt: string | null; readonly expired: boolean };
  readonly teardown: ReapTeardown;
  /** Every place searched: an AWS slot or a GCP project, with why it could not be looked at, if so. */
  readonly searched: readonly SearchedPlace[];
  readonly labs: readonly ReportedLab[];
  /** Nothing expired is left standing, and every place was looked at. */
  readonly clean: boolean;
}

/** A judged lab as the report holds it. */
export function reportedLab(lab: JudgedLab, extra: { readonly role?: string; readonly delete?: readonly DeleteStep[] }): ReportedLab {
  return {
    cloud: lab.cloud,
    slot: lab.slot,
    region: lab.region,
    env: lab.env,
    workshop: lab.workshop ?? null,
    expiresAt: lab.expiresTag ?? null,
    status: lab.status,
    expired: lab.expired,
    resources: lab.resources.map((r) => ({ kind: r.kind, id: r.id, what: describeTagged(r) })),
    costPerHour: Math.round(lab.cost.perHour * 10_000) / 10_000,
    unpriced: lab.cost.unpriced,
    pricesRead: lab.cost.asOf,
    ...(extra.role ? { role: extra.role } : {}),
    ...(extra.delete ? { delete: extra.delete } : {}),
  };
}

const usd = (value: number) => `$${value.toFixed(2)}`;
const placeName = (p: SearchedPlace) => (p.cloud === 'aws' ? `aws ${p.place}` : `gcp project ${p.place}`);

/** What each status says after the lab's name. */
function statusWords(lab: ReportedLab): string {
  const env = lab.env || '(no hoplab-env tag)';
  switch (lab.status) {
    case 'not expired':
      return `not expired (hoplab-expires ${lab.expiresAt})`;
    case 'no expiry':
      return `no expiry (hoplab-expires ${lab.expiresAt ?? 'missing or unreadable'}): not judged`;
    case 'left after teardown':
      return `expired ${lab.expiresAt}; torn down just now, yet still there: run npx hoplab teardown --env ${env} again; what stays was made outside Terraform`;
    case 'teardown failed':
      return `expired ${lab.expiresAt}; its teardown failed (above): fix the cause and run npx hoplab reap again`;
    case 'state here':
      return `expired ${lab.expiresAt} by its tags, and its state is here, but this run did not tear it down: npx hoplab teardown --env ${env} (or deploy it again to tag it with workshop.expiresAt)`;
    case 'no state here':
      return `expired ${lab.expiresAt}; no state here (another host's lab, or its state is lost)`;
  }
}

/** The search's part of the terminal output: the places, each lab, what it costs, and how to delete the ones no state knows. */
export function searchLines(report: ReapReport, width = 80): string[] {
  const out: string[] = [];
  const looked = report.searched.filter((p) => !p.error);
  out.push(...wrapIndented(`reap: searched hoplab's tags in ${plural(report.searched.length, 'place')}: ${report.searched.map(placeName).join(', ')}`, width, '', '  '));
  for (const place of report.searched.filter((p) => p.error)) out.push(...wrapIndented(`reap: could not look in ${placeName(place)}: ${place.error}`, width, '', '  '));
  if (report.labs.length === 0) {
    if (looked.length > 0) out.push(`reap: no lab of hoplab's found${looked.length < report.searched.length ? ' where it looked' : ''}`);
    return out;
  }
  out.push(`reap: ${plural(report.labs.length, 'lab')} found by ${report.labs.length === 1 ? 'its' : 'their'} tags:`);
  for (const lab of report.labs) {
    const name = `${lab.env || '(no hoplab-env tag)'}${lab.workshop !== null ? ` (workshop ${lab.workshop})` : ''} in ${lab.cloud} ${lab.slot}`;
    if (!lab.expired) {
      out.push(...wrapIndented(`${name}: ${statusWords(lab)}; ${plural(lab.resources.length, 'resource')}`, width, '  ', '    '));
      continue;
    }
    out.push(...wrapIndented(`EXPIRED ${name}: ${statusWords(lab)}; about ${usd(lab.costPerHour)}/h at list prices read ${lab.pricesRead}:`, width, '  ', '    '));
    for (const resource of lab.resources) out.push(...wrapIndented(resource.what, width, '    ', '      '));
    if (lab.unpriced.length > 0) out.push(...wrapIndented(`not priced (counted as $0): ${lab.unpriced.join('; ')}`, width, '    ', '      '));
    if (lab.delete && lab.delete.length > 0) {
      const as = lab.role ? `, as the role ${lab.role}` : '';
      out.push(...wrapIndented(`to delete it (reap deletes no lab it has no state for), in this order${as}:`, width, '    ', '    '));
      lab.delete.forEach((step, i) => {
        const number = `${i + 1}. `;
        out.push(...wrapIndented(step.say, width, `    ${number}`, `    ${' '.repeat(number.length)}`));
        for (const command of step.commands) out.push(...commandLines(command, width, `    ${' '.repeat(number.length)}  `));
      });
      out.push(...wrapIndented('then run npx hoplab reap again to see that it is gone', width, '    ', '    '));
    }
  }
  return out;
}

/** The last line and the exit code: 0 only when nothing expired stands and every place was looked at. */
export function reapVerdict(report: ReapReport): { readonly code: 0 | 1; readonly line: string } {
  const expired = report.labs.filter((l) => l.expired);
  const unlooked = report.searched.filter((p) => p.error).length + report.teardown.unchecked.length;
  const problems: string[] = [];
  if (report.teardown.failed.length > 0) problems.push(`the teardown of ${report.teardown.failed.join(', ')} failed`);
  if (report.teardown.leftovers.length > 0) problems.push(`teardown's leftover check found ${plural(report.teardown.leftovers.length, 'resource')}`);
  if (expired.length > 0) {
    const perHour = expired.reduce((sum, l) => sum + l.costPerHour, 0);
    problems.push(`${plural(expired.length, 'expired lab')} still ${expired.length === 1 ? 'stands' : 'stand'}, about ${usd(perHour)}/h`);
  }
  if (problems.length > 0) return { code: 1, line: `hoplab reap: ${problems.join('; ')} (see above)${unlooked > 0 ? '; and it could not look everywhere' : ''}` };
  if (unlooked > 0) return { code: 1, line: 'hoplab reap: nothing expired found where it looked, but it could not look everywhere (see above): not confirmed' };
  const waiting = report.labs.filter((l) => l.status === 'not expired').length;
  return { code: 0, line: `hoplab reap: nothing expired is left standing${waiting > 0 ? ` (${plural(waiting, 'lab')} not expired yet)` : ''}` };
}
