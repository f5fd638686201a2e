/**
 * Which exercises an environment's handout gives, and about which exposure,
 * from its outputs: the same choices the handout makes
 * (lib/commands/handout/handout-model.ts; a test holds the two equal), so a
 * progress check looks where the attendee was told to work.
 */
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { EnvironmentOutputs } from '../files/outputs';

/** One exercise of a handout: its id (exercises.ts), the exposure it is about, and its case where the words differ by case. */
export interface PlannedExercise {
  readonly id: string;
  readonly cloud: Cloud;
  readonly mode: string;
  /** `nodeport-l4` or `nodeport-local` (snat), the dataplane (datapath), the cloud (hubble). @default - one case */
  readonly case?: string;
}

/** The clouds whose cluster shows flows with Hubble: config `aws.cilium.hubble` on Cilium, `gcp.observability` on Dataplane V2 (no output says so). */
export function hubbleClouds(config: Pick<LabConfig, 'aws' | 'gcp'>): Readonly<Record<Cloud, boolean>> {
  return { aws: config.aws.datapath === 'cilium' && config.aws.cilium?.hubble === true, gcp: config.gcp.datapath === 'dataplane-v2' && config.gcp.observability };
}

/** The exercises of one environment's handout, in the handout's order. */
export function plannedExercises(
  outputs: EnvironmentOutputs,
  hubble: Readonly<Record<Cloud, boolean>>,
  dataplaneOf: (cloud: Cloud) => string | null = (c) => outputs.clusters[c]?.dataplane ?? null,
): PlannedExercise[] {
  const clouds = (['aws', 'gcp'] as const).filter((c) => (outputs.exposures[c] ?? []).length > 0);
  const has = (cloud: Cloud, mode: string) => (outputs.exposures[cloud] ?? []).some((e) => e.mode === mode);
  const first = (mode: string) => {
    const cloud = clouds.find((c) => has(c, mode));
    return cloud === undefined ? undefined : { cloud, mode };
  };
  const out: PlannedExercise[] = [];
  const l4 = first('nodeport-l4');
  const local = first('nodeport-local');
  if (l4 || local) out.push({ id: 'snat', ...(l4 ?? local)!, case: l4 ? 'nodeport-l4' : 'nodeport-local' });
  if (local) out.push({ id: 'local-health-check', ...local });
  const native = first('native');
  if (native) out.push({ id: 'readiness-gates', ...native });
  const nodeport = first('nodeport');
  if (nodeport && native) out.push({ id: 'extra-hop', ...nodeport });
  if (native || nodeport) out.push({ id: 'drain', ...(nodeport ?? native)! });
  for (const cloud of clouds) {
    const mode = has(cloud, 'nodeport-local') ? 'nodeport-local' : has(cloud, 'nodeport') ? 'nodeport' : undefined;
    if (mode) out.push({ id: 'datapath', cloud, mode, case: dataplaneOf(cloud) ?? 'unknown' });
  }
  for (const cloud of clouds) {
    if (!hubble[cloud]) continue;
    const mode = ['nodeport-local', 'nodeport', 'native'].find((m) => has(cloud, m));
    if (mode) out.push({ id: 'hubble', cloud, mode, case: cloud });
  }
  return out;
}
