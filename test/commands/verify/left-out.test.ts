/**
 * verify never says PASSED for checks that did not run: with the emulator
 * (HOPLAB_AWS_ENDPOINT) only aws-cluster stacks can be planned, so asking for
 * aws-lb and its claims lists them as left out, with why, and the verdict is
 * INCOMPLETE. Terraform is a stand-in on the PATH whose plan is clean.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeTerraformOnPath } from '../../support/fake-terraform';
import { validConfig } from '../../../lib/config/load';
import { EMULATOR_ONLY_WHY, runVerify, VerifyOptions } from '../../../lib/commands/verify/verify';
import { renderVerify } from '../../../lib/commands/verify/verify-cli';
import { stripAnsi } from '../../../lib/kit/terminal/terminal';
import { FakeClock, FakeStream } from '../../support/fake-terminal';

describe('verify with the emulator and stacks it cannot run', () => {
  let dir: string;
  let restore: () => void;
  beforeAll(() => {
    ({ dir, restore } = fakeTerraformOnPath('hoplab-verify-left-out-'));
    // Something deployed (state with a resource where the emulator's stacks keep it), or verify stops at "nothing is deployed".
    mkdirSync(join(dir, '.hoplab', 'emulator'), { recursive: true });
    writeFileSync(join(dir, '.hoplab', 'emulator', 'terraform.lab-aws-cluster.tfstate'), JSON.stringify({ version: 4, resources: [{ type: 'aws_vpc', name: 'vpc' }] }));
    writeFileSync(join(dir, 'outputs.json'), JSON.stringify({ 'lab-aws-lb': { exposure_native: { mode: 'native', cloud: 'aws', url: 'http://127.0.0.1:1/' } } }));
  });
  afterAll(() => restore());

  /** verify against the emulator in `dir`, of the default lab, with no wait: `options` say what differs. */
  const verify = (options: Pick<VerifyOptions, 'kinds' | 'reportPath'> & Partial<VerifyOptions>) =>
    runVerify({
      config: validConfig({}, 'test'),
      cwd: dir,
      awsEndpoint: 'http://127.0.0.1:1',
      waitMs: 0,
      probe: { count: 1, concurrency: 1, timeoutMs: 1000 },
      progress: () => undefined,
      ...options,
    });

  test('GIVEN --stacks aws-cluster,aws-lb --outputs F WHEN verified against the emulator THEN aws-lb, its readiness and its claims are left out with why, and the verdict is INCOMPLETE, exit 1', async () => {
    const lines: string[] = [];
    const report = await verify({ kinds: ['aws-cluster', 'aws-lb'], outputsFile: join(dir, 'outputs.json'), reportPath: 'report', progress: (l) => lines.push(l) });
    expect(report.drift.map((d) => [d.stack, d.status])).toEqual([['lab-aws-cluster', 'clean']]);
    expect(report.left_out).toEqual([
      { check: 'drift', what: 'lab-aws-lb', why: EMULATOR_ONLY_WHY },
      { check: 'ready', what: 'the exposures of lab-aws-lb', why: `lab-aws-lb is not verified: ${EMULATOR_ONLY_WHY}` },
      { check: 'claims', what: `the exposures of lab-aws-lb (in ${join(dir, 'outputs.json')})`, why: `lab-aws-lb is not verified: ${EMULATOR_ONLY_WHY}` },
    ]);
    expect([report.verdict, report.ok]).toEqual(['incomplete', false]);
    expect(lines[0]).toBe(`left out: drift of lab-aws-lb: ${EMULATOR_ONLY_WHY}`);

    const table = renderVerify(report, 'table');
    expect(table).not.toContain('PASSED');
    expect(table.split('\n').slice(0, 5)).toEqual([
      'hoplab verify: INCOMPLETE (lab)',
      '  drift   lab-aws-cluster: no changes',
      `  left out drift of lab-aws-lb: ${EMULATOR_ONLY_WHY}`,
      `  left out ready of the exposures of lab-aws-lb: lab-aws-lb is not verified: ${EMULATOR_ONLY_WHY}`,
      `  left out claims of the exposures of lab-aws-lb (in ${join(dir, 'outputs.json')}): lab-aws-lb is not verified: ${EMULATOR_ONLY_WHY}`,
    ]);
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown.split('\n')[0]).toBe('# hoplab verify: INCOMPLETE');
    expect(markdown).toContain('## Left out (asked for, not run: not passed)');
    expect(markdown).not.toContain('PASSED');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))).toMatchObject({ verdict: 'incomplete', ok: false, left_out: report.left_out });
  });

  test('GIVEN only what the emulator can run WHEN verified THEN nothing is left out and a clean plan PASSES', async () => {
    const report = await verify({ kinds: ['aws-cluster'], reportPath: 'report-2' });
    expect([report.verdict, report.ok, report.left_out]).toEqual(['passed', true, []]);
    expect(renderVerify(report, 'table').split('\n')[0]).toBe('hoplab verify: PASSED (lab)');
  });

  test('GIVEN a terminal WHEN verify plans a stack THEN a live block shows the stack and its phase (init, then plan) in place, and the result line lands above it', async () => {
    const stream = new FakeStream(true, 100);
    const report = await verify({ kinds: ['aws-cluster'], reportPath: 'report-3', progressStream: stream, clock: new FakeClock() });
    expect(report.verdict).toBe('passed');
    const frames = stream.writes.map((w) => stripAnsi(w));
    expect(frames).toContain('verify: 1 running (0s so far)\n  drift lab-aws-cluster  init     0s\n');
    expect(frames.some((f) => f.endsWith('verify: 1 running (0s so far)\n  drift lab-aws-cluster  plan     0s\n'))).toBe(true);
    expect(stream.text).toMatch(/drift: lab-aws-cluster: no changes \([\d.]+ s\)\n$/);
  });
});
