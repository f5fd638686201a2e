/**
 * `compare --probe` exit codes: 0 only when every exposure was measured; no URL
 * or no exposure at all is said on stderr and exits 1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompare } from '../../../lib/commands/compare/compare-cli';
import { RunningServer, startEchoServer } from '../../support/echo-servers';

async function compare(outputs: unknown, ...extra: string[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'hoplab-probe-exit-')), 'outputs.json');
  writeFileSync(file, JSON.stringify(outputs));
  let out = '';
  let err = '';
  const code = await runCompare(['--outputs', file, '--count', '4', '--timeout', '1000', ...extra], {
    out: (t) => (out += t),
    err: (t) => (err += t),
    progress: { write: () => true, isTTY: false },
  });
  return { code, out, err };
}

describe('compare --probe exit codes', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startEchoServer('client-address');
  });
  afterAll(async () => {
    await server.close();
  });
  const exposure = (url: string | null) => ({ mode: 'nodeport-local', cloud: 'aws', url, client_ip_preserved: true });

  test('GIVEN every exposure answers WHEN probed THEN exit 0 and nothing on stderr about measuring', async () => {
    const run = await compare({ 'lab-aws-lb': { exposure_nodeport_local: exposure(server.url) } }, '--probe');
    expect(run.code).toBe(0);
    expect(run.err).not.toContain('nothing measured');
  });

  test('GIVEN an exposure without a URL WHEN probed THEN it is named on stderr and the exit is 1; without --probe the exit stays 0', async () => {
    const outputs = { 'lab-aws-lb': { exposure_nodeport_local: exposure(null) } };
    const probed = await compare(outputs, '--probe');
    expect(probed.code).toBe(1);
    expect(probed.err).toContain('hoplab compare: nothing measured: lab aws nodeport-local: not probed: no URL in the output (not deployed yet?)\n');
    expect((await compare(outputs)).code).toBe(0);
  });

  test('GIVEN --probe --room THEN the cells say what was measured: as claimed, errors, no URL', async () => {
    const failing = await startEchoServer('client-address');
    const url = failing.url;
    await failing.close();
    const run = await compare(
      {
        'ann-aws-lb': { exposure_nodeport_local: exposure(server.url) },
        'bob-aws-lb': { exposure_nodeport_local: exposure(url) },
        'cy-aws-lb': { exposure_nodeport_local: exposure(null) },
      },
      '--probe',
      '--room',
    );
    expect(run.code).toBe(1);
    expect(run.out.split('\n').filter((l) => /^(ann|bob|cy) /.test(l))).toEqual(['ann       o', 'bob       E', 'cy        -']);
  });

  test('GIVEN outputs without any exposure WHEN probed THEN that is said and the exit is 1', async () => {
    const run = await compare({ 'lab-aws-cluster': { cloud: 'aws', cluster_name: 'lab-eks' } }, '--probe');
    expect(run.code).toBe(1);
    expect(run.err).toContain('hoplab compare: nothing measured: the outputs hold no exposure to probe (are the -lb stacks deployed?)\n');
  });
});
