/** `npm run schema`: writes the config's JSON Schema, as lib/config/json-schema.ts makes it. */
import { writeFileSync } from 'node:fs';
import { JSON_SCHEMA_PATH, labConfigJsonSchemaText } from '../../config/json-schema';
import { SCHEMA_COMMAND } from './command';

/** The command: parses `argv` (only --help) and writes the schema; resolves with the exit code. */
export async function schema(argv: readonly string[]): Promise<number> {
  if (!SCHEMA_COMMAND.parse(argv)) return 0;
  writeFileSync(JSON_SCHEMA_PATH, labConfigJsonSchemaText());
  console.log(`hoplab: wrote ${JSON_SCHEMA_PATH}`);
  return 0;
}
