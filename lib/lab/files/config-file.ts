/**
 * The lab config as every command reads it: `loadConfig` (HOPLAB_CONFIG, else
 * hoplab.config.json/.yaml/.yml here, else the defaults), with which file that
 * was, or that none was found, said after any refusal of the run (runCli). A CI
 * job whose config is not in the repository is then refused for a reason that
 * names the missing file, not only for what the defaults lack.
 */
import { loadConfig, LoadedConfig, LoadConfigOptions } from '../../config/load';
import { sayOnRefusal } from '../../kit/cli/cli';

/** Loads the config (see {@link loadConfig}) and has a refusal of this run say which one it was. */
export function readLabConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const loaded = loadConfig(options);
  sayOnRefusal(loaded.origin);
  return loaded;
}
