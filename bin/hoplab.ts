/**
 * The hoplab app: validates the lab config, then synthesizes every stack into
 * cdktf.out (or $CDKTF_OUTDIR, as `cdktf` sets it). A bad config prints one
 * line per problem, exits 1 and writes nothing.
 */
import { App } from 'cdktf';
import { ConfigError } from '../lib/config/problems';
import { loadConfig } from '../lib/config/load';
import { addLab } from '../lib/hoplab-app';

function main(): void {
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
  const app = new App({ outdir: process.env.CDKTF_OUTDIR ?? 'cdktf.out', skipValidation: false });
  const stacks = addLab(app, loaded.config);
  app.synth();
  if (process.env.CDKTF_OUTDIR === undefined) {
    console.log(`hoplab: synthesized ${Object.keys(stacks).length} stacks for "${loaded.config.name}" (config: ${loaded.source}) into cdktf.out/stacks`);
  }
}

main();
