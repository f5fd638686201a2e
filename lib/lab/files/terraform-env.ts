/**
 * The environment every Terraform run of a command gets in a project directory:
 * one provider cache per project (`.hoplab/plugin-cache`, or the host's
 * TF_PLUGIN_CACHE_DIR), so 30 attendees' stacks do not fetch 120 copies of a
 * provider, and for emulator runs a CLI config that installs from the machine's
 * filesystem mirror only (offline, AWS provider only).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findProviderMirror, writeMirrorCliConfig } from '../../kit/terraform/terraform';

/**
 * The provider mirror Terraform installs from, or undefined for the registry.
 * Only emulator runs (offline, AWS provider only) use a mirror: a real deploy
 * with a mirror-only CLI config would apply `<env>-aws-cluster` and then fail
 * at init of `<env>-aws-lb` for want of the helm and kubernetes providers,
 * leaving a billed cluster running. (The parentheses matter: `A || B ? x : y`
 * is `(A || B) ? x : y`, which made HOPLAB_PROVIDER_MIRROR alone switch real runs to the mirror.)
 */
export function providerMirrorFor(awsEndpoint: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return awsEndpoint ? findProviderMirror(env) : undefined;
}

/** The provider cache, and for an emulator run the mirror's CLI config (written under `<cwd>/.hoplab`). */
export function labTerraformEnv(cwd: string, awsEndpoint: string | undefined): NodeJS.ProcessEnv {
  const pluginCache = join(cwd, '.hoplab', 'plugin-cache');
  mkdirSync(pluginCache, { recursive: true });
  const env: NodeJS.ProcessEnv = { TF_PLUGIN_CACHE_DIR: process.env.TF_PLUGIN_CACHE_DIR || pluginCache };
  const mirror = providerMirrorFor(awsEndpoint);
  return mirror ? { ...env, ...writeMirrorCliConfig(join(cwd, '.hoplab', 'terraform.rc'), mirror) } : env;
}
