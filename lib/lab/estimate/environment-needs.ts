/**
 * What one environment takes of each quota of the table, counted from its
 * stacks synthesized on their own (into a temporary directory, removed after):
 * what placement sizes slots by, before the whole lab is synthesized into them.
 * Every environment of a config has the same shape (the attendee changes names
 * and identities, never a counted resource), so one stands for all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Cdktf from 'cdktf';
import { LabConfig } from '../../config/schema';
import type * as HoplabApp from '../../stacks/hoplab-app';
import { readSynthDir } from '../files/synth-dir';
import { awsQuotaNeeds, exposuresOfOutputs, gcpQuotaNeeds } from './quotas';

/** One environment's need of each quota, by quota id (AWS field, GCP metric). */
export interface EnvironmentNeeds {
  readonly aws: ReadonlyMap<string, number>;
  readonly gcp: ReadonlyMap<string, number>;
}

/** The config of one environment of `config`, placed nowhere: its stacks are those of any environment of the lab, in the first region. */
export function oneEnvironment(config: LabConfig): LabConfig {
  return {
    ...config,
    attendees: undefined,
    placement: undefined,
    aws: { ...config.aws, regions: undefined, accounts: undefined },
    gcp: { ...config.gcp, regions: undefined, projects: undefined },
  };
}

/** Synthesizes one environment of `config` and counts its needs. */
export function environmentNeeds(config: LabConfig): EnvironmentNeeds {
  // Loaded here, when a placing config needs the figures, not when a command that may need them starts: cdktf and the
  // stacks are most of a command's start-up, and `cost` of a lab without placement never synthesizes (esbuild bundles a
  // require() of a literal path and evaluates it on first call).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { App } = require('cdktf') as typeof Cdktf;
  const { addLab } = require('../../stacks/hoplab-app') as typeof HoplabApp;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-needs-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, oneEnvironment(config));
    app.synth();
    const synth = readSynthDir(dir);
    const exposures = exposuresOfOutputs(synth);
    const aws = awsQuotaNeeds(synth, exposures);
    const gcp = gcpQuotaNeeds(synth, exposures);
    return {
      aws: new Map(Object.entries(aws).filter((e): e is [string, number] => typeof e[1] === 'number')),
      gcp: new Map(gcp.quotas.map((q) => [q.metric, q.need])),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
