/**
 * `npm run local`: deploy `<env>-aws-cluster` to a local AWS emulator for real,
 * show its outputs, destroy it and check nothing is left. No cloud account, no
 * network. Ctrl-C stops the run and still cleans up.
 *
 * Environment: HOPLAB_CONFIG (config file), HOPLAB_AWS_ENDPOINT (use a running
 * emulator and leave it running), HOPLAB_PROVIDER_MIRROR (provider mirror),
 * HOPLAB_KEEP_WORKDIR=1 (keep the synthesized stack, state and log).
 */
import { runCli } from '../lib/kit/cli/cli';
import { LOCAL_COMMAND } from '../lib/commands/local/command';
import { local } from '../lib/commands/local/local';

runCli(LOCAL_COMMAND, () => local(process.argv.slice(2)));
