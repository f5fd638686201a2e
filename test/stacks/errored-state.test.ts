/**
 * Terraform's errored.tfstate (the state it could not write to its backend,
 * left in the stack's folder) survives the next synth: synth refuses, naming
 * the folder and what to do, and deletes nothing.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { addLab, synthFresh } from '../../lib/stacks/hoplab-app';
import { erroredStateFiles } from '../../lib/stacks/errored-state';

describe('synth and an errored.tfstate', () => {
  let outdir: string;
  const synth = () => {
    const app = new App({ outdir, stackTraces: false });
    addLab(app, validConfig({}, 'test'));
    synthFresh(app);
  };
  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'hoplab-errored-'));
    synth();
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  test('GIVEN errored.tfstate in a stack folder WHEN synthesized again THEN it refuses, naming the folder, and the file and the folder stay', () => {
    const file = join(outdir, 'stacks', 'lab-aws-cluster', 'errored.tfstate');
    writeFileSync(file, '{"version":4,"serial":7}');
    expect(erroredStateFiles(outdir)).toEqual([file]);
    expect(synth).toThrow(
      `a stack folder holds errored.tfstate, the state Terraform could not write to its backend (${join(outdir, 'stacks', 'lab-aws-cluster')}); ` +
        'synthesizing would delete it, and with it the only record of what that run created. ' +
        'In each: terraform state push errored.tfstate, then move the file out of cdktf.out (keep it until a deploy shows no changes), and run the command again',
    );
    expect(readFileSync(file, 'utf8')).toBe('{"version":4,"serial":7}');
    expect(existsSync(join(outdir, 'stacks', 'lab-aws-cluster', 'cdk.tf.json'))).toBe(true);

    // Pushed and moved away: synth goes ahead.
    renameSync(file, join(outdir, 'lab-aws-cluster.errored.tfstate'));
    expect(synth).not.toThrow();
    expect(erroredStateFiles(outdir)).toEqual([]);
  });
});
