/**
 * `npm run pipeline`: writes CI pipelines that deploy and tear down the
 * workshop in shards (GitHub Actions or GitLab CI), and gathers the shards'
 * outputs in the pipeline's last job.
 */
import { runCli } from '../lib/kit/cli/cli';
import { pipeline } from '../lib/commands/pipeline/pipeline';
import { PIPELINE_COMMAND } from '../lib/commands/pipeline/command';

runCli(PIPELINE_COMMAND, () => pipeline(process.argv.slice(2)));
