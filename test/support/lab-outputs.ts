/**
 * The outputs of a deployed lab as `cdktf output --outputs-file` writes them,
 * for any number of environments: each cluster stack's outputs as in
 * test/fixtures/outputs.json (named after the environment), and every
 * exposure each cloud offers with the facts its -lb stack exports and a URL
 * the test chooses (a loopback echo server).
 */
import { readFileSync } from 'node:fs';
import { Cloud, exposureOutputName } from '../../lib/model/contract';
import { EXPOSURE_FACTS } from '../../lib/model/exposure-facts';
import { EXPOSURE_MODES, ExposureMode } from '../../lib/model/modes';
import { fixture } from './fixtures';
import { exposureOutput } from './handout-outputs';

/** Every exposure a cloud offers, in matrix order. */
export const offered = (cloud: Cloud): ExposureMode[] => EXPOSURE_MODES.filter((mode) => EXPOSURE_FACTS[cloud][mode] !== undefined);

/** `{ "<env>-<cloud>-cluster": {...}, "<env>-<cloud>-lb": { "exposure_<mode>": {...} } }` for `envs`, each exposure at `url(env, cloud, mode)`. */
export function labOutputs(envs: readonly string[], url: (env: string, cloud: Cloud, mode: ExposureMode) => string): Record<string, Record<string, unknown>> {
  const fixtureOutputs = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  const outputs: Record<string, Record<string, unknown>> = {};
  for (const env of envs) {
    for (const cloud of ['aws', 'gcp'] as const) {
      const cluster = fixtureOutputs[`lab-${cloud}-cluster`];
      outputs[`${env}-${cloud}-cluster`] = { ...cluster, cluster_name: String(cluster.cluster_name).replace(/^lab-/, `${env}-`) };
      outputs[`${env}-${cloud}-lb`] = Object.fromEntries(offered(cloud).map((mode) => [exposureOutputName(mode), { ...exposureOutput(cloud, mode, undefined), url: url(env, cloud, mode) }]));
    }
  }
  return outputs;
}
