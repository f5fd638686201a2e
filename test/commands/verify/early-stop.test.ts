/** verify that stops early, or finds nothing deployed, still writes its report saying why. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { runVerify, VerifyOptions } from '../../../lib/commands/verify/verify';

describe('verify that stops early', () => {
  const home = process.cwd();
  let cwd: string;
  // cdktf puts local state in the process's directory, as it is when a host runs verify.
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-verify-early-'));
    process.chdir(cwd);
  });
  afterEach(() => {
    process.chdir(home);
    rmSync(cwd, { recursive: true, force: true });
  });

  const options = (extra: Partial<VerifyOptions>): VerifyOptions => ({
    config: validConfig({}, 'test'),
    cwd,
    waitMs: 0,
    probe: { count: 1, concurrency: 1, timeoutMs: 1000 },
    reportPath: join(cwd, 'report'),
    progress: () => undefined,
    ...extra,
  });

  const written = () => JSON.parse(readFileSync(join(cwd, 'report.json'), 'utf8')) as { ok: boolean; problems: string[]; drift: unknown[] };

  test('GIVEN a request verify cannot run WHEN it stops THEN the report is written, not ok, saying why', async () => {
    const report = await runVerify(options({ kinds: ['aws-lb'], awsEndpoint: 'http://127.0.0.1:9' }));
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(['verify stopped early, nothing was checked: HOPLAB_AWS_ENDPOINT is set: only the aws-cluster stacks can run against the emulator; add --stacks aws-cluster']);
    expect(written()).toMatchObject({ ok: false, problems: report.problems });
    expect(readFileSync(join(cwd, 'report.md'), 'utf8')).toContain('verify stopped early');
  });

  test('GIVEN local state and nothing deployed WHEN verify runs THEN no plan runs and the report says nothing is deployed', async () => {
    const report = await runVerify(options({ kinds: ['aws-cluster', 'aws-lb'] }));
    expect(report.ok).toBe(false);
    expect(report.drift).toEqual([]);
    expect(report.problems).toEqual([
      `nothing is deployed: none of the 2 stacks (lab-aws-cluster, lab-aws-lb) has state with resources (local state, e.g. ${join(cwd, 'terraform.lab-aws-cluster.tfstate')}): ` +
        'nothing verified; deploy first (npx hoplab deploy)',
    ]);
    expect(written().problems).toEqual(report.problems);
    expect(existsSync(join(cwd, '.hoplab', 'logs', 'lab-aws-cluster.verify.log'))).toBe(false);
  });
});
