/**
 * The final job of a sharded deploy: the shards' `compare --format json`
 * files (`hoplab-compare-<K>.json`) merged into one, and which shards are missing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson } from '../../config/json-syntax';

export interface GatheredOutputs {
  /** One `hoplab.compare/v1` document of every environment found. */
  readonly document: { readonly schema: string; readonly source: string; readonly probe: null; readonly environments: unknown[]; readonly ignored_stacks: string[] };
  /** Shards 1..N that sent a file. */
  readonly found: number[];
  /** Shards 1..N without a file (their job failed or did not run). */
  readonly missing: number[];
}

const FILE = /^hoplab-compare-(\d+)\.json$/;

/** Reads `dir`'s shard files; throws naming a file that is not a compare document. */
export function gatherOutputs(dir: string, shards: number): GatheredOutputs {
  const environments: { env?: string }[] = [];
  const ignored: string[] = [];
  const found: number[] = [];
  for (const name of readdirSync(dir).sort()) {
    const match = FILE.exec(name);
    if (!match) continue;
    const file = join(dir, name);
    const doc = (parseJson(readFileSync(file, 'utf8'), (reason) => new Error(`${file} ${reason}; it should hold \`npm run -s compare -- --format json\``)) ?? {}) as {
      schema?: unknown;
      environments?: unknown;
      ignored_stacks?: unknown;
    };
    if (doc.schema !== 'hoplab.compare/v1' || !Array.isArray(doc.environments)) {
      throw new Error(`${file}: not a hoplab.compare/v1 document; it should hold \`npm run -s compare -- --format json\``);
    }
    environments.push(...(doc.environments as { env?: string }[]));
    if (Array.isArray(doc.ignored_stacks)) ignored.push(...(doc.ignored_stacks as string[]));
    found.push(Number(match[1]));
  }
  environments.sort((a, b) => String(a.env).localeCompare(String(b.env)));
  const missing = Array.from({ length: shards }, (_, i) => i + 1).filter((k) => !found.includes(k));
  return {
    document: { schema: 'hoplab.compare/v1', source: 'npm run pipeline -- --gather', probe: null, environments, ignored_stacks: ignored },
    found: found.sort((a, b) => a - b),
    missing,
  };
}

/** A short Markdown summary (a CI job summary). */
export function formatGathered(gathered: GatheredOutputs, shards: number): string[] {
  const envs = gathered.document.environments.map((e) => (e as { env?: string }).env ?? '?');
  const out = [`### hoplab outputs: ${envs.length} environment${envs.length === 1 ? '' : 's'} from ${gathered.found.length} of ${shards} shards`, ''];
  if (gathered.missing.length > 0) {
    out.push(`Missing shards: ${gathered.missing.join(', ')}: their deploy job failed or did not run; re-run those jobs, then this one.`, '');
  }
  if (envs.length > 0) out.push(`Environments: ${envs.join(', ')}`);
  return out;
}
