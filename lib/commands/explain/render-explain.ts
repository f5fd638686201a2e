/**
 * Renders an `ExplainModel`: for a terminal (`table`, see render-terminal.ts),
 * Markdown for reports (`markdown`), a page with pictures (`html`, see
 * render-html.ts) or the model itself (`json`, stable field names, see
 * model.ts). Labs that differ only in their names are shown once, with every
 * name, in all but `json`.
 */
import { markdownTable } from '../../kit/terminal/text-table';
import { EnvironmentGroup, groupIdentical, groupStackName } from './identical';
import { ExplainModel, shown } from '../../lab/anatomy/model';
import { HtmlOptions, renderExplainHtml } from './render-html';
import { renderExplainTable, TerminalOptions } from './render-terminal';
import { capacityLines, CLOUD_TITLE, cloudNotes, datapathLines, ExposureUrls, FACT_ROWS, matrixRows, urlOf, hopsText, clientShort } from './words';
import { pairTableMarkdown } from '../../lab/anatomy/pair-table';

export { renderExplainTable } from './render-terminal';
export type { TerminalOptions } from './render-terminal';

export const EXPLAIN_FORMATS = ['table', 'markdown', 'json', 'html'] as const;
export type ExplainFormat = (typeof EXPLAIN_FORMATS)[number];

/** The terminal's options, and what only the html page uses. */
export type RenderOptions = TerminalOptions & Pick<HtmlOptions, 'measured'>;

/** Both clouds side by side, one row per exposure mode. */
function summaryRows(group: EnvironmentGroup): string[][] {
  const env = group.environment;
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

function markdownUrls(group: EnvironmentGroup, urls: ExposureUrls | undefined): string[] {
  const rows: string[][] = [];
  for (const name of group.names) {
    for (const cloud of group.environment.clouds) {
      for (const e of cloud.exposures) {
        const url = urlOf(urls, name, cloud.cloud, e.mode);
        if (url) rows.push([...(group.names.length > 1 ? [name] : []), cloud.cloud, `\`${e.mode}\``, url]);
      }
    }
  }
  return rows.length ? ['URLs:', '', markdownTable([...(group.names.length > 1 ? ['environment'] : []), 'cloud', 'exposure', 'URL'], rows), ''] : [];
}

export function renderExplainMarkdown(model: ExplainModel, options: { readonly urls?: ExposureUrls } = {}): string {
  const out: string[] = ['# hoplab explain', ''];
  for (const group of groupIdentical(model.environments)) {
    const env = group.environment;
    if (group.names.length === 1) {
      out.push(`## Environment \`${env.env}\``, '');
    } else {
      out.push(`## Environments ${group.names.map((n) => `\`${n}\``).join(', ')}`, '', `${group.names.length} identical labs (they differ only in their names), shown once.`, '');
    }
    const summary = summaryRows(group);
    if (summary.length > 0 && env.clouds.length > 1) {
      out.push(markdownTable(['exposure', ...env.clouds.map((c) => CLOUD_TITLE[c.cloud])], summary), '');
    }
    out.push(...markdownUrls(group, options.urls));
    if (env.clouds.some((c) => c.exposures.length > 0)) {
      out.push('The pairs that differ in exactly one variable, every other one equal:', '', pairTableMarkdown(env), '');
    }
    for (const cloud of env.clouds) {
      out.push(`### ${CLOUD_TITLE[cloud.cloud]}`, '');
      out.push(
        `Stacks: \`${groupStackName(group, cloud.cluster_stack)}\`${cloud.cluster_synthesized ? '' : ' (not synthesized)'}, \`${groupStackName(group, cloud.lb_stack)}\`${
          cloud.lb_synthesized ? '' : ' (not synthesized)'
        }. ` + `NodePort dataplane: ${shown(cloud.dataplane)}.`,
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

/**
 * The model as hoplab.explain/v1: every field but each exposure's `plan`
 * (the journey's addresses and ports, for the html page and the handout),
 * so the schema and its output are what they were.
 */
export function renderExplainJson(model: ExplainModel): string {
  return `${JSON.stringify(model, (key, value: unknown) => (key === 'plan' ? undefined : value), 2)}\n`;
}

/** Only `mode` in every cloud (for `--exposure` in Markdown and JSON). */
export function onlyExposure(model: ExplainModel, mode: string): ExplainModel {
  return {
    ...model,
    environments: model.environments.map((env) => ({
      ...env,
      clouds: env.clouds.map((c) => ({ ...c, exposures: c.exposures.filter((e) => e.mode === mode), not_offered: c.not_offered.filter((n) => n.mode === mode) })),
    })),
  };
}

export function renderExplain(model: ExplainModel, format: ExplainFormat, options: RenderOptions = {}): string {
  switch (format) {
    case 'markdown':
      return renderExplainMarkdown(options.exposure === undefined ? model : onlyExposure(model, options.exposure), options);
    case 'json':
      return renderExplainJson(options.exposure === undefined ? model : onlyExposure(model, options.exposure));
    case 'html':
      return renderExplainHtml(model, options);
    default:
      return renderExplainTable(model, options);
  }
}
