/**
 * The one support module for tests that read synthesized stacks: the JSON's
 * type, synthesizing a scope, finding exactly one resource, and the dependency
 * graph Terraform builds from it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { Testing } from 'cdktf';
import { Construct } from 'constructs';

/**
 * A value of synthesized Terraform JSON, navigated freely by assertions (the
 * assertions themselves check its shape). The one `any` of the tests.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A synthesized stack or scope (cdk.tf.json), loosely typed for assertions. */
export interface Synthesized {
  readonly resource: Record<string, Record<string, Record<string, Json>>>;
  readonly data?: Record<string, Record<string, Record<string, Json>>>;
  readonly output: Record<string, { value: Json; description?: string; sensitive?: boolean }>;
  readonly provider: Record<string, Record<string, Json>[]>;
  readonly terraform: Record<string, Json>;
}

/** Synthesizes constructs made by `build` in a test stack: the JSON text (for the cdktf matchers) and its parsed form. */
export function synthScope(build: (scope: Construct) => void): { json: string; parsed: Synthesized } {
  const json = Testing.synthScope(build);
  return { json, parsed: JSON.parse(json) as Synthesized };
}

/** One resource: its Terraform address (`type.name`), its name and its arguments. */
export interface FoundResource {
  readonly address: string;
  readonly name: string;
  readonly config: Record<string, Json>;
}

/** The one resource of `type` whose name contains `fragment` (any name when empty); fails unless there is exactly one. */
export function resourceOf(json: Synthesized, type: string, fragment = ''): FoundResource {
  const matches = Object.entries(json.resource[type] ?? {}).filter(([name]) => name.includes(fragment));
  if (matches.length !== 1) {
    throw new Error(`expected exactly one ${type}${fragment ? ` matching "${fragment}"` : ''}, found ${matches.length}: ${matches.map(([n]) => n).join(', ') || 'none'}`);
  }
  const [name, config] = matches[0];
  return { address: `${type}.${name}`, name, config };
}

/** The one resource of `type` whose `metadata.name` (Kubernetes) or `name` (Google) is `name`. */
export function named(parsed: Synthesized, type: string, name: string): FoundResource {
  const found = Object.entries(parsed.resource[type] ?? {}).filter(([, r]) => r.name === name || (r.metadata as { name?: string } | undefined)?.name === name);
  if (found.length !== 1) {
    throw new Error(`expected exactly one ${type} named ${name}, found ${found.length}`);
  }
  const [key, config] = found[0];
  return { address: `${type}.${key}`, name: key, config };
}

/** The synthesized text with this checkout's directory replaced, so snapshots do not depend on where the repo lives. */
export function portable(text: string): string {
  return text.split(process.cwd()).join('<repo>');
}

/** Every file under `dir` with its text, by its path relative to `dir` (with `/`), sorted: to compare a written chart copy with its source. */
export function filesUnder(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = relative === '' ? entry.name : posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[path] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return files;
}
