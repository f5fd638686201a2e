/**
 * verify says INCOMPLETE, not FAILED, for checks that could not run here: a
 * cloud without credentials (its stacks' plans left out, with why and the fix)
 * or Terraform not on the PATH; exposures read from an outputs file are still
 * waited for and probed, which needs neither. Terraform's version is named
 * whenever Terraform is on the PATH, even when no plan ran. An exposure that
 * answers while its claims cannot be measured is INCOMPLETE, one that does not
 * answer FAILED. Terraform is a stand-in; the clouds' credentials are stubbed;
 * the exposures are loopback echo servers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeTerraformOnPath } from '../../support/fake-terraform';
import { validConfig } from '../../../lib/config/load';
import { runVerify, VerifyOptions } from '../../../lib/commands/verify/verify';
import { renderVerify } from '../../../lib/commands/verify/verify-cli';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { RunningServer, startEchoServer } from '../../support/echo-servers';
import { compareOutputs } from '../../../lib/lab/probe/compare-model';
import { readOutputsFile } from '../../../lib/lab/files/outputs';

const NO_AWS =
  'no usable credentials (CredentialsProviderError: Could not load credentials from any providers); give Terraform and hoplab the same AWS credentials: AWS_PROFILE, `aws sso login`, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY';

describe('verify of checks that cannot run here', () => {
  let dir: string;
  let restore: () => void;
  let echo: RunningServer;
  beforeAll(async () => {
    ({ dir, restore } = fakeTerraformOnPath('hoplab-verify-cannot-run-'));
    echo = await startEchoServer('client-address');
    const claimed = { mode: 'nodeport-local', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-local'], url: echo.url };
    writeFileSync(join(dir, 'claimed.json'), JSON.stringify({ 'lab-aws-lb': { exposure_nodeport_local: claimed } }));
    writeFileSync(join(dir, 'claimed-compare.json'), JSON.stringify(compareOutputs(readOutputsFile(join(dir, 'claimed.json')), 'claimed.json')));
    // An output from before the contract's claims: nothing to measure the replies against.
    writeFileSync(join(dir, 'unclaimed.json'), JSON.stringify({ 'lab-aws-lb': { exposure_nodeport_local: { mode: 'nodeport-local', cloud: 'aws', url: echo.url } } }));
  });
  afterAll(async () => {
    restore();
    await echo.close();
  });

  /** verify in `dir` of a lab whose state is in S3 (so nothing local says whether it is deployed), with no wait. */
  const verify = (options: Partial<VerifyOptions> & Pick<VerifyOptions, 'reportPath'>) =>
    runVerify({
      config: validConfig({ backend: { type: 's3', bucket: 'hoplab-state', region: 'us-east-1' } }, 'test'),
      kinds: ['aws-cluster', 'aws-lb'],
      cwd: dir,
      waitMs: 0,
      probe: { count: 4, concurrency: 2, timeoutMs: 10_000 },
      progress: () => undefined,
      credentials: async () => ({}),
      ...options,
    });

  test('GIVEN no AWS credentials WHEN verified THEN the AWS plans and exposures are left out with why, the verdict is INCOMPLETE, and Terraform is named', async () => {
    const lines: string[] = [];
    const report = await verify({ reportPath: 'no-aws', credentials: async () => ({ aws: NO_AWS }), progress: (l) => lines.push(l) });
    const why = `aws: ${NO_AWS}`;
    expect(report.left_out).toEqual([
      { check: 'drift', what: 'lab-aws-cluster', why },
      { check: 'drift', what: 'lab-aws-lb', why },
      { check: 'ready', what: 'the exposures of lab-aws-lb', why: `lab-aws-lb is not verified: ${why}` },
      { check: 'claims', what: 'the exposures of lab-aws-lb', why: `lab-aws-lb is not verified: ${why}; --outputs FILE checks its exposures without Terraform or credentials` },
    ]);
    expect([report.drift, report.problems, report.verdict, report.ok]).toEqual([[], [], 'incomplete', false]);
    expect(lines).toContain(`left out: drift of lab-aws-cluster: ${why}`);
    expect(report.versions.terraform).toBe('1.11.4');
    expect(readFileSync(join(dir, 'no-aws.md'), 'utf8')).toContain('- hoplab ');
    expect(readFileSync(join(dir, 'no-aws.md'), 'utf8')).toMatch(/, Terraform 1\.11\.4\n/);
    expect(renderVerify(report, 'table')).not.toMatch(/FAILED|PASSED|unknown/);
  });

  test('GIVEN no AWS credentials and an outputs file WHEN verified THEN the plans are left out, and the exposures still waited for and measured as claimed', async () => {
    const report = await verify({ reportPath: 'no-aws-file', outputsFile: join(dir, 'claimed.json'), credentials: async () => ({ aws: NO_AWS }) });
    expect(report.left_out.map((l) => [l.check, l.what])).toEqual([
      ['drift', 'lab-aws-cluster'],
      ['drift', 'lab-aws-lb'],
    ]);
    expect(report.readiness.map((r) => [r.label, r.ready])).toEqual([['lab aws nodeport-local', true]]);
    expect(report.claims.map((c) => [c.mode, c.status])).toEqual([['nodeport-local', 'match']]);
    expect(report.verdict).toBe('incomplete');
  });

  test('GIVEN Terraform not on the PATH WHEN verified from an outputs file THEN every plan is left out saying so, and the exposures are still measured', async () => {
    const saved = process.env.PATH;
    process.env.PATH = join(dir, 'nothing-here');
    let report;
    try {
      report = await verify({ reportPath: 'no-terraform', outputsFile: join(dir, 'claimed.json') });
    } finally {
      process.env.PATH = saved;
    }
    expect(report.left_out.map((l) => [l.check, l.what])).toEqual([
      ['drift', 'lab-aws-cluster'],
      ['drift', 'lab-aws-lb'],
    ]);
    expect(report.left_out[0].why).toMatch(
      /^could not run terraform: .*ENOENT.*: install Terraform 1\.10 or later \(https:\/\/developer\.hashicorp\.com\/terraform\/install\), or put it on the PATH$/,
    );
    expect([report.versions.terraform, report.claims.map((c) => c.status), report.verdict]).toEqual([null, ['match'], 'incomplete']);
    expect(readFileSync(join(dir, 'no-terraform.md'), 'utf8')).toContain('Terraform not found (terraform version could not run)');
  });

  test.each([
    ['cdktf output', 'claimed.json'],
    ['compare --format json', 'claimed-compare.json'],
  ])('GIVEN every check can run and an exposure answers with claims to measure, in a %s file WHEN verified THEN PASSED', async (_what, file) => {
    const report = await verify({ reportPath: file, outputsFile: join(dir, file) });
    expect([report.left_out, report.drift.map((d) => d.status), report.claims.map((c) => c.status), report.verdict]).toEqual([[], ['clean', 'clean'], ['match'], 'passed']);
  });

  test('GIVEN an exposure that answers and an output claiming nothing WHEN verified THEN NOT MEASURED, and the verdict is INCOMPLETE, not PASSED', async () => {
    const report = await verify({ reportPath: 'unclaimed', outputsFile: join(dir, 'unclaimed.json') });
    expect(report.readiness.map((r) => r.ready)).toEqual([true]);
    expect(report.claims.map((c) => [c.status, c.probe?.ok])).toEqual([['not-measured', 4]]);
    expect([report.left_out, report.problems, report.verdict, report.ok]).toEqual([[], [], 'incomplete', false]);
    expect(renderVerify(report, 'table')).toContain('1 exposure answered but its claims could not be measured');
  });
});
