/**
 * The one-variable pairs as a table, from explain's own matrix
 * (`oneVariablePairs` of matrix.ts over what explain derived from the
 * synthesized stacks): in `explain --format markdown`, and, for the default
 * lab, in docs/exposures.md between two markers (`npm run docs` writes it, a
 * test pins it). So the docs list exactly the pairs explain prints.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validConfig } from '../../config/load';
import { explainLab } from './explain-lab';
import { oneVariablePairs } from './matrix';
import { EnvironmentExplanation } from './model';

/** The page that holds the default lab's pair table, from the repository root. */
export const EXPOSURES_DOC = 'docs/exposures.md';
export const PAIRS_BEGIN = '<!-- BEGIN one-variable pairs: generated from the default lab by lib/lab/anatomy/pair-table.ts; do not edit, run `npm run docs` -->';
export const PAIRS_END = '<!-- END one-variable pairs -->';

const CLOUD_NAME = { aws: 'EKS', gcp: 'GKE' } as const;

/** The variable and both values in words: `targets: pods vs nodes`, `traffic policy: ETP Cluster vs ETP Local`. */
function variableText(variable: string, values: readonly [string, string]): string {
  return `${variable}: ${values[0]} vs ${values[1]}`;
}

/** One row per pair of one environment, with the clouds it is a pair on: `| \`native\` / \`gateway\` | api: core API vs Gateway API | EKS, GKE |`. */
export function pairTableMarkdown(env: EnvironmentExplanation): string {
  const rows: { pair: string; variable: string; clouds: string[] }[] = [];
  for (const cloud of env.clouds) {
    for (const p of oneVariablePairs(cloud.exposures)) {
      const pair = `\`${p.a}\` / \`${p.b}\``;
      const variable = variableText(p.variable, p.values);
      const row = rows.find((r) => r.pair === pair && r.variable === variable);
      if (row) row.clouds.push(CLOUD_NAME[cloud.cloud]);
      else rows.push({ pair, variable, clouds: [CLOUD_NAME[cloud.cloud]] });
    }
  }
  return ['| pair | the one variable (every other is equal) | on |', '|---|---|---|', ...rows.map((r) => `| ${r.pair} | ${r.variable} | ${r.clouds.join(', ')} |`)].join('\n');
}

/** The default lab's pair table, between its markers, as docs/exposures.md holds it. */
export function defaultLabPairBlock(): string {
  const model = explainLab(validConfig({}, 'the default lab'));
  return `${PAIRS_BEGIN}\n${pairTableMarkdown(model.environments[0])}\n${PAIRS_END}`;
}

/** `text` with the block between the markers replaced by `block`; throws when the markers are missing. */
export function withPairBlock(text: string, block: string): string {
  const begin = text.indexOf(PAIRS_BEGIN);
  const end = text.indexOf(PAIRS_END);
  if (begin < 0 || end < begin) throw new Error(`${EXPOSURES_DOC} has no "${PAIRS_BEGIN}" ... "${PAIRS_END}" block to write the pair table into`);
  return `${text.slice(0, begin)}${block}${text.slice(end + PAIRS_END.length)}`;
}

/** Rewrites the pair table in docs/exposures.md under `root` (`npm run docs`); returns the path written. */
export function writeExposurePairs(root: string = process.cwd()): string {
  const file = join(root, EXPOSURES_DOC);
  writeFileSync(file, withPairBlock(readFileSync(file, 'utf8'), defaultLabPairBlock()));
  return file;
}
