/**
 * verify from a machine that a narrowed `app.allowedSourceCidrs` keeps out:
 * the load balancers would not answer it (dropped on AWS and GKE L4, 403 from
 * Cloud Armor on GKE's Ingress and Gateway), so its exposures are left out with
 * why and the fix, and not waited for in vain; the verdict is INCOMPLETE, never
 * FAILED for the lab's own filter. Terraform is a stand-in whose plan is clean;
 * the outputs come from a file, and the addresses are documentation ranges.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeTerraformOnPath } from '../../support/fake-terraform';
import { validConfig } from '../../../lib/config/load';
import { runVerify, VerifyOptions } from '../../../lib/commands/verify/verify';
import { OUTSIDE_SOURCES_SEES } from '../../../lib/model/exposure-facts';

describe('verify and a narrowed app.allowedSourceCidrs', () => {
  let dir: string;
  let restore: () => void;
  beforeAll(() => {
    ({ dir, restore } = fakeTerraformOnPath('hoplab-verify-sources-'));
    writeFileSync(
      join(dir, 'outputs.json'),
      JSON.stringify({
        'lab-aws-lb': {
          exposure_native: { mode: 'native', cloud: 'aws', url: 'http://198.51.100.80/' },
          exposure_nodeport: { mode: 'nodeport', cloud: 'aws', url: 'http://127.0.0.1:1/' },
        },
      }),
    );
  });
  afterAll(() => restore());

  const verify = (allowedSourceCidrs: string[], myIp: string | undefined, reportPath: string, lines: string[] = []) =>
    runVerify({
      config: validConfig({ app: { allowedSourceCidrs } }, 'test'),
      kinds: ['aws-lb'],
      cwd: dir,
      outputsFile: join(dir, 'outputs.json'),
      waitMs: 0,
      probe: { count: 1, concurrency: 1, timeoutMs: 1000, myIp },
      // Nothing listens on port 9 of loopback: the address cannot be learned without --my-ip.
      myIpUrl: 'http://127.0.0.1:9/',
      // Credentials there: this file is about the list, not about a cloud without them (verdict.test.ts).
      credentials: async () => ({}),
      reportPath,
      progress: (l) => lines.push(l),
    } satisfies VerifyOptions);

  test('GIVEN this machine outside the list WHEN verified THEN its non-loopback exposures are left out with why and the fix, not waited for; loopback ones are still checked', async () => {
    const lines: string[] = [];
    const report = await verify(['203.0.113.0/24'], '192.0.2.9', 'outside', lines);
    const why = `this machine (192.0.2.9, from --my-ip) is outside app.allowedSourceCidrs 203.0.113.0/24: ${OUTSIDE_SOURCES_SEES}; run verify and compare --probe from an address inside the list, or add 192.0.2.9/32 to app.allowedSourceCidrs and deploy again`;
    expect(report.left_out).toEqual([
      { check: 'ready', what: 'lab aws native', why },
      { check: 'claims', what: 'lab aws native', why },
    ]);
    expect(lines).toContain(`left out: ready of lab aws native: ${why}`);
    // Only the loopback stand-in was asked (and refused at once); 198.51.100.80 never was.
    expect(report.readiness.map((r) => r.label)).toEqual(['lab aws nodeport']);
    expect(report.claims.map((c) => c.mode)).toEqual(['nodeport']);
    expect(report.verdict).toBe('failed');
  });

  test('GIVEN this machine inside the list WHEN verified THEN nothing is left out for it', async () => {
    const report = await verify(['192.0.2.0/24'], '192.0.2.9', 'inside');
    expect(report.left_out).toEqual([]);
    expect(report.readiness.map((r) => r.label)).toEqual(['lab aws native', 'lab aws nodeport']);
  });

  test('GIVEN the default list (any address) WHEN verified THEN nothing is left out or said about the list', async () => {
    const lines: string[] = [];
    const report = await verify(['0.0.0.0/0'], '192.0.2.9', 'open', lines);
    expect(report.left_out).toEqual([]);
    expect(lines.filter((l) => l.includes('allowedSourceCidrs'))).toEqual([]);
  });

  test('GIVEN a narrowed list and an address that cannot be learned WHEN verified THEN it says so in one note and checks every exposure', async () => {
    const lines: string[] = [];
    const report = await verify(['203.0.113.0/24'], undefined, 'unknown', lines);
    expect(report.left_out).toEqual([]);
    expect(lines.filter((l) => l.startsWith('note: app.allowedSourceCidrs'))).toEqual([
      expect.stringMatching(
        /^note: app\.allowedSourceCidrs admits only 203\.0\.113\.0\/24 and this machine's public address is unknown \(http:\/\/127\.0\.0\.1:9\/ did not answer \(.+\)\); from outside the list, the lab's load balancers do not answer it/,
      ),
    ]);
    expect(report.readiness.map((r) => r.label)).toEqual(['lab aws native', 'lab aws nodeport']);
  });
});
