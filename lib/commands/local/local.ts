/**
 * `npm run local`: deploy `<env>-aws-cluster` to a local AWS emulator for real,
 * show its outputs, destroy it and check nothing is left. No cloud account, no
 * network. Ctrl-C stops the run and still cleans up.
 *
 * Environment: HOPLAB_CONFIG (config file), HOPLAB_AWS_ENDPOINT (use a running
 * emulator and leave it running), HOPLAB_PROVIDER_MIRROR (provider mirror),
 * HOPLAB_KEEP_WORKDIR=1 (keep the synthesized stack, state and log).
 */
import { abortOnSignals } from '../../kit/cli/cli';
import { LOCAL_COMMAND } from './command';
import { readLabConfig } from '../../lab/files/config-file';
import { explainLab } from '../../lab/anatomy/explain-lab';
import { renderExplainTable } from '../explain/render-explain';
import { colorEnabled, terminalWidth } from '../../kit/terminal/terminal';
import { runLocalLab } from './local-lab';
import { plural } from '../../kit/terminal/terminal';

/** The command: parses `argv` (the arguments after the command's name) and runs it; resolves with the exit code. */
export async function local(argv: readonly string[]): Promise<number> {
  if (!LOCAL_COMMAND.parse(argv)) return 0;
  const config = readLabConfig().config;
  const abort = abortOnSignals('local', 'stopping and cleaning up');

  const started = Date.now();
  console.log(`hoplab local: ${config.name}-aws-cluster against a local AWS emulator (no cloud account needed)`);
  try {
    const result = await runLocalLab({
      config,
      endpoint: process.env.HOPLAB_AWS_ENDPOINT || undefined,
      abort: abort.signal,
      keepWorkDir: process.env.HOPLAB_KEEP_WORKDIR === '1',
    });
    console.log(
      `hoplab local: OK in ${((Date.now() - started) / 1000).toFixed(1)} s: ${plural(result.resources.length, 'resource')} applied, ` +
        `re-plan empty, destroyed, nothing left in the emulator` +
        (result.addonsLeftOut.length ? ` (left out in emulator mode: ${result.addonsLeftOut.join(', ')} add-ons)` : ''),
    );
    console.log('');
    console.log(`What the "${config.name}" environment shows on AWS (npm run explain, from its synthesized stacks; the -lb stack needs a real cluster):`);
    try {
      console.log(renderExplainTable(explainLab(config, { envs: [config.name], clouds: ['aws'] }), { width: terminalWidth(process.stdout), color: colorEnabled(process.stdout) }));
    } catch (error) {
      console.error(`hoplab local: explain skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
    return 0;
  } catch (error) {
    console.error(`hoplab local: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return abort.signal.aborted ? 130 : 1;
  }
}
