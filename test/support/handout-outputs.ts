/**
 * Outputs for handout tests, as `npx cdktf output --outputs-file` writes them:
 * the outputs fixture (environment `lab`), with each cluster's `dataplane` set
 * and, with `every`, every exposure each cloud offers (EXPOSURE_FACTS), each
 * worded as its `-lb` stack exports it on that dataplane and with a URL as
 * long as the clouds' own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Cloud } from '../../lib/model/contract';
import { ciliumWords, EXPOSURE_FACTS, GKE_DATAPLANE_V2 } from '../../lib/model/exposure-facts';
import { fixture } from './fixtures';

export interface HandoutOutputsOptions {
  /** Each cluster's `dataplane` output. @default - the fixture's (none) */
  readonly dataplane?: Partial<Record<Cloud, string>>;
  /** Every exposure of EXPOSURE_FACTS, not only the fixture's three per cloud. @default false */
  readonly every?: boolean;
}

/** An exposure's URL, as long as the clouds make them (an NLB's DNS name is the longest). */
function url(cloud: Cloud, mode: string, n: number): string {
  const short = mode.replace(/-/g, '').slice(0, 8);
  return cloud === 'aws' ? `http://k8s-hoplab-echo${short}-5a7b9c1d3e-0f1e2d3c4b5a69${String(n).padStart(2, '0')}.elb.us-east-1.amazonaws.com/` : `http://34.120.11.${20 + n}/`;
}

/** The `exposure_<mode>` output of `mode` on `cloud`, as its `-lb` stack exports it on `dataplane`. */
export function exposureOutput(cloud: Cloud, mode: string, dataplane: string | undefined, n = 0): Record<string, unknown> {
  const facts = EXPOSURE_FACTS[cloud][mode as keyof (typeof EXPOSURE_FACTS)[Cloud]]!;
  const seenAs = dataplane === 'cilium-ebpf' ? ciliumWords.clientIpSeenAs(facts.client_ip_seen_as, cloud === 'gcp' ? GKE_DATAPLANE_V2 : 'Cilium (eBPF)') : facts.client_ip_seen_as;
  return { ...facts, client_ip_seen_as: seenAs, mode, cloud, url: url(cloud, mode, n) };
}

/** The outputs, as a JSON object. */
export function handoutOutputs(options: HandoutOutputsOptions = {}): Record<string, Record<string, unknown>> {
  const raw = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  for (const cloud of ['aws', 'gcp'] as const) {
    const dataplane = options.dataplane?.[cloud];
    if (dataplane !== undefined) raw[`lab-${cloud}-cluster`].dataplane = dataplane;
    if (options.every) {
      Object.keys(EXPOSURE_FACTS[cloud]).forEach((mode, n) => {
        raw[`lab-${cloud}-lb`][`exposure_${mode.replace(/-/g, '_')}`] = exposureOutput(cloud, mode, dataplane, n);
      });
    }
  }
  return raw;
}

/** The outputs written to `file`, for `--outputs`; returns `file`. */
export function writeHandoutOutputs(file: string, options: HandoutOutputsOptions = {}): string {
  writeFileSync(file, JSON.stringify(handoutOutputs(options)));
  return file;
}
