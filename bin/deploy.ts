/**
 * `npm run deploy`: applies every stack of every environment to the real
 * clouds, each cloud's cluster stack before its lb stack, AWS and GCP and
 * attendees in parallel. Runs preflight first and stops on a blocking finding
 * (--skip-preflight overrides, loudly), then prints the cost estimate and asks to go on.
 */
import { runCli } from '../lib/kit/cli/cli';
import { DEPLOY_COMMAND } from '../lib/commands/lifecycle/command';
import { deploy } from '../lib/commands/lifecycle/deploy';

runCli(DEPLOY_COMMAND, () => deploy(process.argv.slice(2)));
