/**
 * Synthesizing a whole lab as the commands do: the config validated, the
 * environments placed in their slots, every stack written to a temporary
 * directory that `read` sees before it is removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { LabConfig } from '../../lib/config/schema';
import { readSynthDir, SynthDir } from '../../lib/lab/files/synth-dir';
import { LabPlacement } from '../../lib/lab/placement/lab-placement';
import { addPlacedLab } from '../../lib/lab/placement/placed-lab';

export interface PlacedSynth {
  readonly config: LabConfig;
  readonly placement: LabPlacement;
  readonly synth: SynthDir;
  /** The directory the stacks are in (`stacks/<name>/cdk.tf.json`), until `read` returns. */
  readonly dir: string;
}

/** Validates `input`, places and synthesizes the lab, and returns what `read` makes of it. */
export function synthesizedPlaced<T>(input: unknown, read: (lab: PlacedSynth) => T): T {
  const config = validConfig(input, 'test');
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-placed-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    const { placement } = addPlacedLab(app, config);
    app.synth();
    return read({ config, placement, synth: readSynthDir(dir), dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Attendee names `a01` ... */
export const attendeeNames = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `a${String(from + i).padStart(2, '0')}`);

/** Eight AWS regions of the zone table, in the order a workshop might list them. */
export const EIGHT_AWS_REGIONS = ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'eu-west-1', 'eu-west-2', 'eu-central-1', 'ap-southeast-2'];

/** Eight GCP projects. */
export const EIGHT_GCP_PROJECTS = Array.from({ length: 8 }, (_, i) => `hoplab-ws-${i + 1}`);
