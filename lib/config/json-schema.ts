import * as z from 'zod';
import { labConfig } from './schema';

/** Where the published JSON Schema of the lab config lives, relative to the repo root. */
export const JSON_SCHEMA_PATH = 'schema/hoplab.config.schema.json';

/**
 * The lab config's JSON Schema (draft 2020-12), generated from the zod schema
 * so the two cannot drift: editors use it to complete and check config files
 * (`"$schema": "./schema/hoplab.config.schema.json"` in JSON; a
 * `# yaml-language-server: $schema=...` comment in YAML).
 */
export function labConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(labConfig, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: 'https://hoplab.dev/schema/hoplab.config.schema.json',
    title: 'hoplab lab config',
    description: 'Lab environments on EKS and GKE comparing container-native and NodePort-based load balancing. Every field is optional; defaults apply.',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}

/** The schema as the committed file holds it. */
export function labConfigJsonSchemaText(): string {
  return `${JSON.stringify(labConfigJsonSchema(), null, 2)}\n`;
}
