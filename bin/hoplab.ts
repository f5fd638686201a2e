/**
 * The hoplab app: validates the lab config, then synthesizes every stack into
 * cdktf.out (or $CDKTF_OUTDIR, as `cdktf` sets it). A bad config prints one
 * line per problem, exits 1 and writes nothing.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { App } from 'cdktf';
import { ConfigError } from '../lib/config/problems';
import { loadConfig } from '../lib/config/load';
import { addLab } from '../lib/hoplab-app';

const HELP = `usage: npm run synth

Validates the lab config (HOPLAB_CONFIG, or hoplab.config.json/.yaml here, else the
defaults) and synthesizes every stack of every environment into cdktf.out/stacks.
A bad config prints one line per problem, exits 1 and writes nothing.`;

function main(): void {
  let help = false;
  try {
    help = parseArgs({ args: process.argv.slice(2), options: { help: { type: 'boolean', short: 'h' } }, strict: true }).values.help ?? false;
  } catch (error) {
    console.error(`hoplab: ${error instanceof Error ? error.message : String(error)} (see --help)`);
    process.exit(2);
  }
  if (help) {
    console.log(HELP);
    return;
  }
  let loaded;
  try {
    loaded = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // No stack traces in construct metadata: they cost a third of synth time and nobody reads them in cdk.tf.json.
  const app = new App({ outdir: process.env.CDKTF_OUTDIR ?? 'cdktf.out', stackTraces: false });
  const environments = addLab(app, loaded.config);
  // Stacks of a previous config (say, an attendee since removed) must not linger and be explained or deployed.
  rmSync(join(app.outdir, 'stacks'), { recursive: true, force: true });
  mkdirSync(join(app.outdir, 'stacks'), { recursive: true });
  app.synth();
  if (process.env.CDKTF_OUTDIR === undefined) {
    const envs = environments.map((e) => e.env);
    const which = envs.length === 1 ? `"${envs[0]}"` : `${envs.length} environments`;
    console.log(`hoplab: synthesized ${envs.length * 4} stacks for ${which} (config: ${loaded.source}) into cdktf.out/stacks`);
  }
}

main();
