/** synth and a workshop past its expiry: synthesized all the same, and a note says deploy will refuse it (in-process, on a fixed date). */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { synth } from '../../../lib/commands/synth/synth';
import { commandDir } from '../../support/command-dir';

describe('synth and workshop.expiresAt', () => {
  const { dir, errors } = commandDir('hoplab-synth-');

  const at = (iso: string) => ({ now: () => new Date(iso) });

  test('GIVEN an expiry that has passed on the clock WHEN synthesized THEN it exits 0, writes the stacks and notes that deploy refuses it, with an example from the same clock', async () => {
    writeFileSync(join(dir(), 'hoplab.config.json'), JSON.stringify({ workshop: { expiresAt: '2026-12-01T18:00:00Z' } }));
    expect(await synth([], at('2026-12-07T10:00:00Z'))).toBe(0);
    expect(existsSync(join(dir(), 'cdktf.out', 'stacks', 'lab-aws-cluster', 'cdk.tf.json'))).toBe(true);
    expect(errors()).toEqual([
      'hoplab: note: workshop.expiresAt ("2026-12-01T18:00:00Z") has passed (it is 2026-12-07T10:00Z now): every resource would be tagged hoplab-expires with a time gone by, due for deletion the moment it exists; ' +
        'deploy refuses it: set workshop.expiresAt to when this workshop ends, e.g. "2026-12-08T18:00:00Z"',
    ]);
  });

  test('GIVEN the same expiry on a clock before it WHEN synthesized THEN no note', async () => {
    writeFileSync(join(dir(), 'hoplab.config.json'), JSON.stringify({ workshop: { expiresAt: '2026-12-01T18:00:00Z' } }));
    expect(await synth([], at('2026-12-01T17:59:00Z'))).toBe(0);
    expect(errors()).toEqual([]);
  });
});
