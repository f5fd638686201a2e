/**
 * The environment every Terraform run of a command gets in a project directory:
 * one provider cache per project (`.hoplab/plugin-cache`, or the host's
 * TF_PLUGIN_CACHE_DIR), so 30 attendees' stacks do not fetch 120 copies of a
 * provider, and for emulator runs a CLI config that installs from the machine's
 * filesystem mirror only (offline, AWS provider only).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIRROR_CANDIDATES, mirrorHolds, writeMirrorCliConfig } from '../../kit/terraform/terraform';

/** The AWS provider version `@cdktf/provider-aws@20.1.0` is generated for. */
export const AWS_PROVIDER_VERSION = '5.100.0';

/**
 * Finds a filesystem provider mirror that holds `hashicorp/aws` at `version`:
 * `HOPLAB_PROVIDER_MIRROR` if set (it must hold it), else the first of the
 * usual places that does. Returns undefined when there is none (Terraform then downloads).
 */
export function findProviderMirror(env: NodeJS.ProcessEnv = process.env, version = AWS_PROVIDER_VERSION): string | undefined {
  const aws = { namespace: 'hashicorp', type: 'aws', version };
  const explicit = env.HOPLAB_PROVIDER_MIRROR;
  if (explicit) {
    if (!mirrorHolds(explicit, aws)) {
      throw new Error(
        `HOPLAB_PROVIDER_MIRROR=${explicit} does not hold registry.terraform.io/hashicorp/aws/${version}; ` + 'point it at a filesystem mirror made with `terraform providers mirror`, or unset it',
      );
    }
    return explicit;
  }
  return MIRROR_CANDIDATES.find((dir) => mirrorHolds(dir, aws));
}

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
