/** `npm run schema`'s command line. */
import { defineCommand } from '../../kit/cli/command';

export const SCHEMA_COMMAND = defineCommand({
  name: 'schema',
  summary: 'regenerates schema/hoplab.config.schema.json',
  description: `Regenerates schema/hoplab.config.schema.json, the JSON Schema of the lab config, from its zod
schema (lib/config/schema.ts). A test fails when the committed file is stale.`,
  flags: {},
});
