/** `npm run schema`: regenerates schema/hoplab.config.schema.json from the zod schema. */
import { runCli } from '../lib/kit/cli/cli';
import { SCHEMA_COMMAND } from '../lib/commands/schema/command';
import { schema } from '../lib/commands/schema/schema';

runCli(SCHEMA_COMMAND, () => schema(process.argv.slice(2)));
