import { Testing } from 'cdktf';
import { Construct } from 'constructs';

/** Parsed cdk.tf.json of a stack or scope. */
export interface Synthesized {
  provider?: Record<string, Record<string, unknown>[]>;
  resource: Record<string, Record<string, Record<string, unknown>>>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
  output?: Record<string, { value: unknown; sensitive?: boolean }>;
  terraform?: Record<string, unknown>;
}

/** Synthesizes constructs made by `build` in a test stack: the JSON text (for the cdktf matchers) and its parsed form. */
export function synthScope(build: (scope: Construct) => void): { json: string; parsed: Synthesized } {
  const json = Testing.synthScope(build);
  return { json, parsed: JSON.parse(json) as Synthesized };
}

/** The only resource of `type`, with its Terraform name; fails if there is not exactly one. */
export function only(parsed: Synthesized, type: string): [string, Record<string, unknown>] {
  const entries = Object.entries(parsed.resource[type] ?? {});
  if (entries.length !== 1) {
    throw new Error(`expected exactly one ${type}, found ${entries.length}: ${entries.map(([n]) => n).join(', ')}`);
  }
  return entries[0];
}

/** The resources of `type` whose `metadata.name` (Kubernetes) or `name` (Google) is `name`. */
export function named(parsed: Synthesized, type: string, name: string): [string, Record<string, unknown>] {
  const found = Object.entries(parsed.resource[type] ?? {}).filter(
    ([, r]) => r.name === name || (r.metadata as { name?: string } | undefined)?.name === name,
  );
  if (found.length !== 1) {
    throw new Error(`expected exactly one ${type} named ${name}, found ${found.length}`);
  }
  return found[0];
}
