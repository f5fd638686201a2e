/**
 * The addresses a probe measured (lib/lab/probe/measured.ts), read back from
 * a real `compare --probe --format json` report against loopback servers
 * that answer like the exposures, and shown in explain's journeys
 * (`--measured FILE`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompare } from '../../../lib/commands/compare/compare-cli';
import { runExplain } from '../../../lib/commands/explain/explain-cli';
import { handout } from '../../../lib/commands/handout/handout';
import { validConfig } from '../../../lib/config/load';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { measuredFromCompare, measuredOfExposure, readMeasuredFile } from '../../../lib/lab/probe/measured';
import { RunningServer, startEchoServer } from '../../support/echo-servers';
import { fixture } from '../../support/fixtures';
import { FIXTURE_APP } from '../anatomy/support';

const dir = mkdtempSync(join(tmpdir(), 'hoplab-measured-'));
const reportFile = join(dir, 'compare.json');
const outputsFile = join(dir, 'outputs.json');
let servers: RunningServer[] = [];

beforeAll(async () => {
  const [snat, direct, proxy] = await Promise.all([startEchoServer('snat'), startEchoServer('client-address'), startEchoServer('proxy')]);
  servers = [snat, direct, proxy];
  const facts = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8'));
  const aws = facts['lab-aws-lb'];
  writeFileSync(
    outputsFile,
    JSON.stringify({
      'lab-aws-cluster': facts['lab-aws-cluster'],
      'lab-aws-lb': {
        exposure_native: { ...aws.exposure_native, url: proxy.url },
        exposure_nodeport: { ...aws.exposure_nodeport, url: snat.url },
        exposure_nodeport_local: { ...aws.exposure_nodeport_local, url: direct.url },
      },
    }),
  );
  let out = '';
  const code = await runCompare(['--outputs', outputsFile, '--probe', '--count', '8', '--timeout', '2000', '--format', 'json'], {
    out: (t) => (out += t),
    err: () => undefined,
    progress: { write: () => undefined, isTTY: false },
  });
  expect(code).toBe(0);
  writeFileSync(reportFile, out);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN a compare --probe report THEN per exposure the prober, the source the Pods saw most with its kind, and the Pod node from an EKS node name', () => {
  const measured = readMeasuredFile(reportFile);
  // The successful replies of each exposure (all 8 on a quiet machine; a busy one may time some out).
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const ok = (mode: string): number => report.environments[0].rows.find((r: { mode: string }) => r.mode === mode).clouds.aws.probe.ok;
  expect(measuredOfExposure(measured, 'lab', 'aws', 'nodeport')).toEqual({
    client: '127.0.0.1',
    seenByPod: { address: expect.stringMatching(/^10\.0\./), peer: 'node', replies: expect.any(Number), of: ok('nodeport') },
    podNode: expect.stringMatching(/^10\.0\.(1\.23|33\.41)$/),
  });
  expect(measuredOfExposure(measured, 'lab', 'aws', 'nodeport-local')?.seenByPod).toEqual({ address: '127.0.0.1', peer: 'client', replies: ok('nodeport-local'), of: ok('nodeport-local') });
  expect(measuredOfExposure(measured, 'lab', 'aws', 'native')?.seenByPod?.peer).toBe('load-balancer');
  expect(measuredOfExposure(measured, 'lab', 'gcp', 'native')).toBeUndefined();
});

test('GIVEN explain --format html --measured THEN the journeys show the measured addresses as measured', () => {
  const page = join(dir, 'explain.html');
  const code = runExplain(['--dir', FIXTURE_APP, '--format', 'html', '--out', page, '--outputs', outputsFile, '--measured', reportFile], { out: () => undefined, err: () => undefined });
  expect(code).toBe(0);
  const html = readFileSync(page, 'utf8');
  const seen = measuredOfExposure(readMeasuredFile(reportFile), 'lab', 'aws', 'nodeport')!.seenByPod!.address;
  const journey = html.slice(html.indexOf('id="journey-lab-aws-nodeport"'), html.indexOf('</section>', html.indexOf('id="journey-lab-aws-nodeport"')));
  expect(journey).toContain(`data-role="node 1" data-address="${seen}" data-origin="measured"`);
  expect(journey).toContain('data-role="client" data-address="127.0.0.1" data-origin="measured"');
  expect(journey).toContain('Marked measured: what compare --probe saw.');
});

test('GIVEN handout --measured THEN the handout’s journeys show the measured addresses as measured, too', async () => {
  const out = join(dir, 'handouts');
  const code = await handout(['--outputs', outputsFile, '--measured', reportFile, '--format', 'html', '--no-kubeconfigs', '--out', out], {
    out: () => undefined,
    err: () => undefined,
    config: () => validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test'),
    explain: () => explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')),
  });
  expect(code).toBe(0);
  const html = readFileSync(join(out, 'lab.html'), 'utf8');
  const seen = measuredOfExposure(readMeasuredFile(reportFile), 'lab', 'aws', 'nodeport')!.seenByPod!.address;
  const journey = html.slice(html.indexOf('id="journey-aws-nodeport"'), html.indexOf('</section>', html.indexOf('id="journey-aws-nodeport"')));
  expect(journey).toContain(`data-role="node 1" data-address="${seen}" data-origin="measured"`);
  expect(journey).toContain('data-role="client" data-address="127.0.0.1" data-origin="measured"');
});

test('GIVEN handout --measured with a form that has no journey, or a file that is no report THEN a usage error, or exit 1 before any token is minted', async () => {
  const io = { out: () => undefined, err: () => undefined, config: () => validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test') };
  await expect(handout(['--outputs', outputsFile, '--measured', reportFile, '--format', 'card'], io)).rejects.toThrow("--measured is for the html handout (the packet's journeys), not --format card");
  await expect(handout(['--outputs', outputsFile, '--measured', reportFile, '--refresh-kubeconfigs'], io)).rejects.toThrow(
    "--measured is for the html handout (the packet's journeys), not --refresh-kubeconfigs",
  );
  let err = '';
  let asked = 0;
  // lab is an attendee without a cloud identity: a handout run mints a token for her clusters, unless it stops before.
  const code = await handout(['--outputs', outputsFile, '--measured', outputsFile, '--out', join(dir, 'none')], {
    ...io,
    config: () => validConfig({ attendees: ['lab'], gcp: { project: 'acme-lab' } }, 'test'),
    err: (t) => (err += t),
    tokens: {
      token: () => {
        asked += 1;
        return Promise.reject(new Error('no token in this test'));
      },
    },
  });
  expect([code, asked, err]).toEqual([
    1,
    0,
    `hoplab handout: ${outputsFile} is not a compare report (schema hoplab.compare/v1): write one with \`npx hoplab compare --probe --format json > ${outputsFile}\`\n`,
  ]);
});

test.each([
  [{ schema: 'hoplab.explain/v1' }, 'r.json is not a compare report (schema hoplab.compare/v1): write one with `npx hoplab compare --probe --format json > r.json`'],
  [{ schema: 'hoplab.compare/v1', probe: null, environments: [] }, 'r.json holds no probe: write it with `npx hoplab compare --probe --format json > r.json` (with --probe)'],
])('GIVEN %j THEN it is refused, saying how to write a report', (report, message) => {
  expect(() => measuredFromCompare(report, 'r.json')).toThrow(message);
});

test('GIVEN a report cut short THEN where and why it is not JSON, in the same words on every Node, and how to write one', () => {
  const file = join(dir, 'cut.json');
  writeFileSync(file, '{\n  "schema": "hoplab.compare/v1",\n  "environments": [\n');
  expect(() => readMeasuredFile(file)).toThrow(
    new Error(`the compare report ${file} is not valid JSON at line 4, column 1: the file ends before the JSON does; write it with \`npx hoplab compare --probe --format json > ${file}\``),
  );
});

test('GIVEN --measured with another format than html, or a file that is no report THEN a usage error (exit 2 from runCli), or exit 1 with one line saying so', () => {
  let err = '';
  expect(() => runExplain(['--dir', FIXTURE_APP, '--measured', reportFile], { out: () => undefined, err: (t) => (err += t) })).toThrow(
    "--measured is for --format html (the packet's journeys), not --format table",
  );
  const code = runExplain(['--dir', FIXTURE_APP, '--format', 'html', '--measured', outputsFile], { out: () => undefined, err: (t) => (err += t) });
  expect([code, err]).toEqual([1, `hoplab explain: ${outputsFile} is not a compare report (schema hoplab.compare/v1): write one with \`npx hoplab compare --probe --format json > ${outputsFile}\`\n`]);
});
