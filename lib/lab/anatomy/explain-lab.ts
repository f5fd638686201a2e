/**
 * `explainLab(config)`: synthesizes the lab's app into a temporary directory
 * and explains it, for callers that have a config but no `cdktf.out` (such as
 * `npm run local`, which explains the environment it just ran).
 */
import { App } from 'cdktf';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabConfig } from '../../config/schema';
import { addPlacedLab } from '../placement/placed-lab';
import { explainDir, ExplainOptions } from './explain-dir';
import { ExplainModel } from './model';

/** Every environment of the lab (one per attendee in a workshop config) unless `options.envs` picks some. */
export function explainLab(config: LabConfig, options: ExplainOptions = {}): ExplainModel {
  const dir = mkdtempSync(join(tmpdir(), `hoplab-explain-${config.name}-`));
  try {
    const app = new App({ outdir: dir });
    addPlacedLab(app, config);
    app.synth();
    return { ...explainDir(dir, options), dir: 'synthesized from the lab config' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
