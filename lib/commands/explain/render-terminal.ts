/**
 * `explain` on a terminal: three views that fit the width they are given
 * (words are never split; cells and lines wrap), coloured only when asked
 * (the caller decides: a TTY without NO_COLOR).
 *
 * - the summary (default): per environment and cloud, one row per exposure
 *   (path, hops, source NAT, client IP), the one-variable pairs, what is not
 *   offered; labs that differ only in their names are shown once;
 * - `details`: every fact per exposure, the datapath, the Pod capacity and
 *   the notes;
 * - `exposure`: one exposure, a tall block per cloud for a projector.
 */
import { highlight } from '../../kit/terminal/terminal';
import { tableFits, textTable, wrapIndented } from '../../kit/terminal/text-table';
import { wrapWords } from '../../kit/text/wrap';
import { EnvironmentGroup, groupIdentical, groupStackName, namesText } from './identical';
import { neighbourText } from '../../lab/anatomy/matrix';
import { hopsWords } from '../../lab/pictures/path-diagram';
import { CloudExplanation, ExplainModel, ExposureExplanation, shown } from '../../lab/anatomy/model';
import {
  capacityLines,
  capacityShort,
  clientShort,
  clientText,
  clientWord,
  CLOUD_TITLE,
  cloudNotes,
  datapathLines,
  ExposureUrls,
  FACT_ROWS,
  hopsReasons,
  hopsText,
  pairsText,
  shortPath,
  snatText,
  snatWord,
  urlOf,
} from './words';

export interface TerminalOptions {
  /** Width to fit. @default 80 */
  readonly width?: number;
  /** Colour SNAT, LOST and MISMATCH (only on a TTY without NO_COLOR). @default false */
  readonly color?: boolean;
  /** Every fact, the datapath, the Pod capacity and the notes. @default false */
  readonly details?: boolean;
  /** Only this exposure mode, one tall block per cloud. @default - every exposure */
  readonly exposure?: string;
  /** URLs from deployed outputs. @default - none */
  readonly urls?: ExposureUrls;
  /** The summary's layout: a table where it fits, else a block per exposure. @default 'auto' */
  readonly layout?: 'auto' | 'table' | 'blocks';
}

/** Lines wrapped to `width`, each continuation indented two more than the line's own indent. */
function fitted(lines: readonly string[], width: number): string[] {
  return lines.flatMap((line) => {
    const indent = /^ */.exec(line)![0];
    return wrapIndented(line.trimStart(), width, indent, `${indent}  `);
  });
}

/** `== environment "lab" ==`, or the names of identical labs. */
function groupHeading(group: EnvironmentGroup): string {
  return group.names.length === 1 ? `== environment "${group.names[0]}" ==` : `== environments ${namesText(group.names)}: ${group.names.length} identical labs, shown once ==`;
}

function cloudHeading(group: EnvironmentGroup, cloud: CloudExplanation): string {
  const stacks = [
    `${groupStackName(group, cloud.cluster_stack)}${cloud.cluster_synthesized ? '' : ' (not synthesized)'}`,
    `${groupStackName(group, cloud.lb_stack)}${cloud.lb_synthesized ? '' : ' (not synthesized)'}`,
  ];
  return `-- ${CLOUD_TITLE[cloud.cloud]}: ${shown(cloud.dataplane)}; ${capacityShort(cloud.capacity)}; stacks ${stacks.join(', ')} --`;
}

/**
 * `URLs:` lines for one cloud: `  native  http://...` (a name per line for
 * identical labs), or, when one does not fit, each label on its line and
 * each URL on the next. A URL is never wrapped (it is copied whole): one
 * longer than the width is the only line that is longer.
 */
function urlLines(group: EnvironmentGroup, cloud: CloudExplanation, width: number, urls: ExposureUrls | undefined): string[] {
  const found: [string, string][] = [];
  for (const name of group.names) {
    for (const e of cloud.exposures) {
      const url = urlOf(urls, name, cloud.cloud, e.mode);
      if (url) found.push([`${group.names.length > 1 ? `${name} ` : ''}${e.mode}`, url]);
    }
  }
  if (found.length === 0) return [];
  const labelWidth = Math.max(...found.map(([label]) => label.length));
  if (found.every(([, url]) => 2 + labelWidth + 2 + url.length <= width)) {
    return ['URLs:', ...found.map(([label, url]) => `  ${label.padEnd(labelWidth)}  ${url}`)];
  }
  const indent = found.every(([, url]) => url.length + 4 <= width) ? '    ' : '';
  return ['URLs:', ...found.flatMap(([label, url]) => [`  ${label}:`, `${indent}${url}`])];
}

const SUMMARY_HEADER = ['exposure', 'path', 'hops', 'source NAT', 'client IP'];

function summaryRows(cloud: CloudExplanation): string[][] {
  return cloud.exposures.map((e) => [e.mode, shortPath(e), shown(e.expected_hops), snatWord(e), clientWord(e)]);
}

/** One exposure in two or three lines, for widths where the table does not fit. */
function summaryBlock(e: ExposureExplanation, width: number): string[] {
  return [
    ...wrapIndented(`${e.mode}: ${shortPath(e)}`, width, '', '    '),
    ...wrapIndented(`${hopsWords(e.expected_hops)}; ${e.snat === null ? 'SNAT unknown' : e.snat ? 'SNAT' : 'no SNAT'}; ${clientShort(e)}`, width, '  ', '    '),
  ];
}

function summaryOfCloud(group: EnvironmentGroup, cloud: CloudExplanation, options: TerminalOptions, width: number): string[] {
  const out = [...wrapIndented(cloudHeading(group, cloud), width, '', '   ')];
  if (cloud.exposures.length === 0) {
    out.push(
      ...wrapIndented(
        cloud.lb_synthesized ? `no exposures in ${groupStackName(group, cloud.lb_stack)}` : `no exposures: ${groupStackName(group, cloud.lb_stack)} was not synthesized`,
        width,
        '',
        '  ',
      ),
    );
  } else {
    const rows = summaryRows(cloud);
    const layout = options.layout ?? 'auto';
    if (layout === 'table' || (layout === 'auto' && tableFits(SUMMARY_HEADER, rows, width))) {
      out.push(textTable(SUMMARY_HEADER, rows, { width, rules: 'header' }));
    } else {
      out.push(...cloud.exposures.flatMap((e) => summaryBlock(e, width)));
    }
    out.push(...hopsReasons(cloud).flatMap((reason) => wrapIndented(`why: ${reason}`, width, '', '  ')));
  }
  const pairs = pairsText(cloud);
  if (pairs.length) {
    out.push('one variable apart:', ...pairs.flatMap((p) => wrapIndented(p, width, '  ', '    ')));
  }
  for (const n of cloud.not_offered) {
    out.push(...wrapIndented(`not offered: ${n.mode} (${n.reason})`, width, '', '  '));
  }
  out.push(...urlLines(group, cloud, width, options.urls));
  const notes = cloudNotes(cloud).filter((n) => !n.startsWith('not offered:')).length;
  if (notes > 0) {
    out.push(...wrapIndented(`${notes} note${notes === 1 ? '' : 's'}: see --details`, width));
  }
  return out;
}

/** Every fact of one exposure as `label  value` lines (label above the value where the width is small). */
function factBlock(e: ExposureExplanation, group: EnvironmentGroup, cloud: CloudExplanation, width: number, urls: ExposureUrls | undefined): string[] {
  const rows: [string, string][] = FACT_ROWS.map(([label, value]) => [label, value(e)]);
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const side = width - 2 - labelWidth - 2 >= 32;
  const out = [e.mode];
  for (const [label, value] of rows) {
    if (side) {
      out.push(...wrapIndented(value, width, `  ${label.padEnd(labelWidth)}  `, ' '.repeat(labelWidth + 4)));
    } else {
      out.push(`  ${label}:`, ...wrapIndented(value, width, '    '));
    }
  }
  // URLs whole, never wrapped (see urlLines).
  for (const name of group.names) {
    const url = urlOf(urls, name, cloud.cloud, e.mode);
    if (url) out.push(`  ${group.names.length > 1 ? `URL (${name})` : 'URL'}:`, url.length + 4 <= width ? `    ${url}` : url);
  }
  return out;
}

function detailsOfCloud(group: EnvironmentGroup, cloud: CloudExplanation, width: number, urls: ExposureUrls | undefined): string[] {
  const out = [...wrapIndented(cloudHeading(group, cloud), width, '', '   ')];
  for (const e of cloud.exposures) {
    out.push('', ...factBlock(e, group, cloud, width, urls));
  }
  out.push('', ...fitted(capacityLines(cloud.capacity), width), ...fitted(datapathLines(cloud.datapath ?? null), width), ...fitted(cloudNotes(cloud), width));
  return out;
}

/** One exposure of one cloud, tall and readable: a screen for a projector. */
function exposureScreen(group: EnvironmentGroup, cloud: CloudExplanation, mode: string, width: number, urlsGiven: ExposureUrls | undefined): string[] {
  const rule = '='.repeat(Math.min(width, 100));
  const where = `${mode} on ${CLOUD_TITLE[cloud.cloud]}, ${group.names.length === 1 ? `environment ${group.names[0]}` : `environments ${namesText(group.names)}`}`;
  const e = cloud.exposures.find((x) => x.mode === mode);
  if (!e) {
    const absent = cloud.not_offered.find((n) => n.mode === mode);
    const why = absent
      ? `not offered: ${absent.reason}`
      : cloud.lb_synthesized
      ? `not in ${groupStackName(group, cloud.lb_stack)} (the lab's exposures leave it out)`
      : `${groupStackName(group, cloud.lb_stack)} was not synthesized`;
    return [rule, ...wrapWords(where, width), rule, '', ...wrapIndented(why, width, '    ', '      ')];
  }
  const item = (title: string, lines: readonly string[]) => ['', title, ...lines.flatMap((l) => wrapIndented(l, width, '    ', '      '))];
  const urls = group.names.map((name) => [name, urlOf(urlsGiven, name, cloud.cloud, mode)] as const).filter((x): x is readonly [string, string] => x[1] !== undefined);
  return [
    rule,
    ...wrapWords(where, width),
    rule,
    ...item('path', [e.path_summary]),
    ...item('hops from the load balancer to the Pod', [hopsText(e).replace(/, (no )?SNAT.*$/, '')]),
    ...item('source NAT', [snatText(e)]),
    ...item('client IP at the Pod', [clientText(e)]),
    ...item('health check', [e.health_check]),
    ...item('one variable away', e.differs_in_one.length ? e.differs_in_one.map(neighbourText) : [e.variables ? 'none' : 'unknown']),
    ...(urls.length ? ['', urls.length === 1 ? 'URL' : 'URLs', ...urls.flatMap(([name, url]) => [...(urls.length === 1 ? [] : [`  ${name}:`]), url.length + 4 <= width ? `    ${url}` : url])] : []),
  ];
}

const FOOTER = 'more: --details (health checks, datapath, Pod capacity, notes); --exposure MODE (one exposure, tall, for a projector); --format html --out FILE (a page with a picture of every path)';

/** The terminal view: summary, details or one exposure (see {@link TerminalOptions}). */
export function renderExplainTable(model: ExplainModel, options: TerminalOptions = {}): string {
  const width = Math.max(options.width ?? 80, 20);
  const out: string[] = [];
  for (const group of groupIdentical(model.environments)) {
    if (options.exposure !== undefined) {
      for (const cloud of group.environment.clouds) {
        out.push(...exposureScreen(group, cloud, options.exposure, width, options.urls), '', '');
      }
      continue;
    }
    out.push(...wrapWords(groupHeading(group), width), '');
    for (const cloud of group.environment.clouds) {
      out.push(...(options.details ? detailsOfCloud(group, cloud, width, options.urls) : summaryOfCloud(group, cloud, options, width)), '');
    }
  }
  if (model.ignored_stacks.length > 0) {
    out.push(...wrapIndented(`ignored stacks (not <env>-<aws|gcp>-<cluster|lb>): ${model.ignored_stacks.join(', ')}`, width, '', '  '));
  }
  if (!options.details && options.exposure === undefined) {
    out.push(...wrapIndented(FOOTER, width, '', '  '));
  }
  const text = `${out.join('\n').trimEnd()}\n`;
  return highlight(text, options.color === true);
}
