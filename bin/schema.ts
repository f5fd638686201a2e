/** `npm run schema`: regenerates schema/hoplab.config.schema.json from the zod schema. */
import { writeFileSync } from 'node:fs';
import { JSON_SCHEMA_PATH, labConfigJsonSchemaText } from '../lib/config/json-schema';

writeFileSync(JSON_SCHEMA_PATH, labConfigJsonSchemaText());
console.log(`hoplab: wrote ${JSON_SCHEMA_PATH}`);
