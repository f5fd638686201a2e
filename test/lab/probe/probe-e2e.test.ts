/**
 * compare --probe end to end against local servers on 127.0.0.1 that behave
 * like the exposures: one shows the real client address (ETP Local, no
 * proxy), one a node address with the client in X-Forwarded-For (SNAT), one
 * is down (connection refused), one is slow (past the timeout).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompare } from '../../../lib/commands/compare/compare-cli';
import { CompareModel } from '../../../lib/lab/probe/compare-model';
import { probeUrl } from '../../../lib/lab/probe/probe';
import { progressReporter } from '../../../lib/lab/probe/progress';
import { renderCompare } from '../../../lib/commands/compare/render-compare';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { deadUrl, RunningServer, startEchoServer } from '../../support/echo-servers';
import { fixture } from '../../support/fixtures';

const COUNT = 20;
/**
 * The probe timeout tells the slow exposure (it never answers in time: SLOW_MS) from
 * the others, which answer at once. On a busy machine "at once" can take hundreds of
 * milliseconds (this worker and its loopback servers share the CPU with other jobs),
 * and a short timeout would call a working exposure slow; 2 s is far above that.
 */
const TIMEOUT_MS = 2000;
const SLOW_MS = 30 * TIMEOUT_MS;
let servers: RunningServer[] = [];
let outputsFile: string;
let urls: { direct: string; snat: string; snatGke: string; snatL4: string; podTargets: string; proxy: string; dead: string; slow: string };

beforeAll(async () => {
  const [direct, snat, snatGke, snatL4, podTargets, proxy, slow] = await Promise.all([
    startEchoServer('client-address'),
    startEchoServer('snat'),
    startEchoServer('snat-gke'),
    startEchoServer('snat-l4'),
    startEchoServer('client-address'),
    startEchoServer('proxy'),
    startEchoServer('slow', SLOW_MS),
  ]);
  servers = [direct, snat, snatGke, snatL4, podTargets, proxy, slow];
  urls = { direct: direct.url, snat: snat.url, snatGke: snatGke.url, snatL4: snatL4.url, podTargets: podTargets.url, proxy: proxy.url, dead: await deadUrl(), slow: slow.url };
  const facts = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8'));
  const exposure = (cloud: 'aws' | 'gcp', key: string, url: string) => ({ ...facts[`lab-${cloud}-lb`][key], url });
  outputsFile = join(mkdtempSync(join(tmpdir(), 'hoplab-probe-')), 'outputs.json');
  writeFileSync(
    outputsFile,
    JSON.stringify({
      'lab-aws-cluster': facts['lab-aws-cluster'],
      'lab-gcp-cluster': facts['lab-gcp-cluster'],
      'lab-aws-lb': {
        exposure_native: exposure('aws', 'exposure_native', urls.slow),
        exposure_nodeport: exposure('aws', 'exposure_nodeport', urls.snat),
        exposure_nodeport_local: exposure('aws', 'exposure_nodeport_local', urls.direct),
        // The new modes, with the facts the -lb stack exports for them.
        exposure_gateway: { mode: 'gateway', cloud: 'aws', ...EXPOSURE_FACTS.aws.gateway, url: urls.proxy },
        exposure_nodeport_l4: { mode: 'nodeport-l4', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-l4'], url: urls.snatL4 },
        exposure_native_l4: { mode: 'native-l4', cloud: 'aws', ...EXPOSURE_FACTS.aws['native-l4'], url: urls.podTargets },
      },
      'lab-gcp-lb': {
        exposure_native: exposure('gcp', 'exposure_native', urls.dead),
        exposure_nodeport: exposure('gcp', 'exposure_nodeport', urls.snatGke),
        exposure_nodeport_local: exposure('gcp', 'exposure_nodeport_local', 'http://${not-deployed}/'),
      },
    }),
  );
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function compare(...argv: string[]) {
  let out = '';
  let err = '';
  let progress = '';
  const code = await runCompare(argv, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    progress: { write: (t: string) => (progress += t), isTTY: false },
  });
  return { code, out, err, progress };
}

describe('compare --probe against loopback exposures', () => {
  let run: Awaited<ReturnType<typeof compare>>;
  let model: CompareModel;
  const cell = (cloud: 'aws' | 'gcp', mode: string) => model.environments[0].rows.find((r) => r.mode === mode)!.clouds[cloud]!;

  beforeAll(async () => {
    run = await compare('--outputs', outputsFile, '--probe', '--count', String(COUNT), '--concurrency', '4', '--timeout', String(TIMEOUT_MS), '--format', 'json');
    model = JSON.parse(run.out);
  });

  test('exits 1 when some exposures could not be measured, naming each on stderr, in bounded time', () => {
    expect(run.code).toBe(1);
    expect(
      run.err
        .split('\n')
        .filter((l) => l.startsWith('hoplab compare: nothing measured: '))
        .map((l) => l.replace(/ \(.*$/, '')),
    ).toEqual([
      'hoplab compare: nothing measured: lab aws native: no successful reply of ' + cell('aws', 'native').probe!.sent,
      'hoplab compare: nothing measured: lab gcp native: no successful reply of ' + cell('gcp', 'native').probe!.sent,
      'hoplab compare: nothing measured: lab gcp nodeport-local: not probed: URL http://${not-deployed}/ has no host yet',
    ]);
    // Bounded by the give-up, not by the slow server: the slow exposure ends after two rounds of timeouts (4 at
    // once, given up at the 5th failure), where probing all 20 would take five rounds. Counted in requests, not in
    // wall time, so a busy machine cannot fail it.
    expect(cell('aws', 'native').probe!.sent).toBeLessThanOrEqual(5 + 4 - 1);
    expect(cell('aws', 'native').probe!.sent).toBeLessThan(COUNT);
    expect(model.probe).toEqual({ count: COUNT, concurrency: 4, max_in_flight: 1024, timeout_ms: TIMEOUT_MS, my_ip: null });
  });

  test('the direct exposure: the Pod saw the prober itself, as the output claims', () => {
    const probe = cell('aws', 'nodeport-local').probe!;
    expect(probe).toMatchObject({ planned: COUNT, sent: COUNT, ok: COUNT, errors: {}, gave_up: false });
    expect(probe.latency_ms!.p50).toBeGreaterThan(0);
    expect(probe.latency_ms!.p50).toBeLessThanOrEqual(probe.latency_ms!.p95);
    expect(probe.latency_ms!.p95).toBeLessThanOrEqual(probe.latency_ms!.p99);
    expect(probe.pods).toEqual({ 'echo-5d9c7b8f6d-q8w7e': COUNT / 2, 'echo-5d9c7b8f6d-x2k4p': COUNT / 2 });
    expect(Object.keys(probe.nodes)).toHaveLength(2);
    expect(probe.client_ip).toMatchObject({
      prober_address: '127.0.0.1',
      seen_by_pod: { '127.0.0.1': COUNT },
      peer_kinds: { prober: COUNT },
      preserved: true,
      expected_preserved: true,
      as_expected: true,
    });
  });

  test('the SNAT exposure: the Pod saw node addresses, the prober only in X-Forwarded-For (preserved, as the contract defines it)', () => {
    const probe = cell('aws', 'nodeport').probe!;
    expect(probe.ok).toBe(COUNT);
    expect(Object.keys(probe.client_ip.seen_by_pod).sort()).toEqual(['10.0.1.23', '10.0.2.200', '10.0.33.41']);
    expect(probe.client_ip).toMatchObject({
      peer_kinds: { node: COUNT },
      forwarded_for_names_prober: COUNT,
      tcp_peer: 'node',
      x_forwarded_for: 'names-prober',
      source_nat: true,
      client_ip_via: 'x-forwarded-for',
      preserved: true,
      expected_preserved: true,
      as_expected: true,
    });
    expect(probe.client_ip.summary).toMatch(/^Pod saw a node address \(10\.0\.1\.23, 10\.0\.2\.200, 10\.0\.33\.41\), not the prober \(127\.0\.0\.1\): SNAT on the node/);
  });

  test('the GKE SNAT exposure: node-subnet and Pod-range gateway addresses count as nodes (SNAT measured), the client still in X-Forwarded-For', () => {
    const probe = cell('gcp', 'nodeport').probe!;
    expect(probe.ok).toBe(COUNT);
    expect(probe.client_ip).toMatchObject({
      peer_kinds: { node: COUNT },
      forwarded_for_names_prober: COUNT,
      tcp_peer: 'node',
      source_nat: true,
      client_ip_via: 'x-forwarded-for',
      preserved: true,
      expected_preserved: true,
      as_expected: true,
    });
  });

  test('nodeport-l4 (L4 SNAT, no header): the TCP peer is a node and nothing names the prober: client_ip_via none, as claimed', () => {
    const probe = cell('aws', 'nodeport-l4').probe!;
    expect(probe.ok).toBe(COUNT);
    expect(probe.client_ip).toMatchObject({
      tcp_peer: 'node',
      x_forwarded_for: 'absent',
      source_nat: true,
      client_ip_via: 'none',
      preserved: false,
      as_expected: true,
      claims: {
        client_ip_via: { claimed: 'none', measured: 'none', matches: true },
        source_nat: { claimed: true, measured: true, matches: true },
        client_ip_preserved: { claimed: false, measured: false, matches: true },
      },
    });
  });

  test('native-l4 (NLB ip targets, client IP preservation on): the TCP peer is the prober itself, no SNAT, as claimed', () => {
    const probe = cell('aws', 'native-l4').probe!;
    expect(probe.client_ip).toMatchObject({ tcp_peer: 'client', x_forwarded_for: 'absent', source_nat: false, client_ip_via: 'tcp-source', preserved: true, as_expected: true });
  });

  test('gateway (ALB ip targets): the TCP peer is the load balancer, X-Forwarded-For names the prober, as claimed', () => {
    const probe = cell('aws', 'gateway').probe!;
    expect(probe.client_ip).toMatchObject({ tcp_peer: 'load-balancer', x_forwarded_for: 'names-prober', source_nat: false, client_ip_via: 'x-forwarded-for', as_expected: true });
  });

  test('GKE offers no native-l4: the cell says so instead of probing anything', () => {
    expect(cell('aws', 'native-l4')).toBeDefined();
    expect(model.environments[0].rows.find((r) => r.mode === 'native-l4')!.clouds.gcp).toBeUndefined();
    const table = renderCompare(model, 'table', 200);
    expect(table).toContain('(not offered: GKE passthrough Network Load Balancers only target nodes, never Pod IPs)');
    expect(table).toContain('measured: TCP peer node; X-Forwarded-For absent; source NAT yes; client IP via none');
  });

  test('the dead exposure: connection refused, given up after 5 in a row, the rest still probed', () => {
    const probe = cell('gcp', 'native').probe!;
    expect(probe.ok).toBe(0);
    expect(probe.gave_up).toBe(true);
    expect(probe.sent).toBeGreaterThanOrEqual(5);
    // 5 failures in a row, plus what was in flight (concurrency 4) when it gave up.
    expect(probe.sent).toBeLessThanOrEqual(5 + 4 - 1);
    expect(probe.errors).toEqual({ 'connection refused': probe.sent });
    expect(probe.latency_ms).toBeNull();
    expect(probe.client_ip).toMatchObject({ preserved: null, as_expected: null, summary: 'no successful reply: nothing measured' });
  });

  test('the slow exposure: every request ends at the timeout', () => {
    const probe = cell('aws', 'native').probe!;
    expect(probe.ok).toBe(0);
    expect(probe.errors).toEqual({ [`timeout (${TIMEOUT_MS} ms)`]: probe.sent });
    expect(probe.gave_up).toBe(true);
  });

  test('an exposure without a usable URL is not probed, and says why', () => {
    expect(cell('gcp', 'nodeport-local')).toMatchObject({ probe: null, not_probed_because: 'URL http://${not-deployed}/ has no host yet' });
  });

  test('progress: plain lines on a non-terminal, on the progress stream only', () => {
    expect(run.progress).toContain(`compare: probing lab aws nodeport: ${COUNT} requests\n`);
    expect(run.progress).toMatch(/compare: lab aws nodeport-local: 20\/20 ok, p50 [\d.]+ ms\n/);
    expect(run.progress).toMatch(/compare: lab gcp native: 0\/\d ok, errors: \d connection refused \(gave up: endpoint looks dead\)\n/);
    expect(run.progress).not.toContain('\r');
  });
});

test('the markdown format shows the measurements next to the claims', async () => {
  const { code, out } = await compare('--outputs', outputsFile, '--probe', '--count', '4', '--timeout', String(TIMEOUT_MS), '--concurrency', '2', '--format', 'markdown');
  // Some exposures of the fixture are dead: the report is still shown, and the exit says not everything was measured.
  expect(code).toBe(1);
  expect(out).toContain('[as expected]');
  expect(out).toContain('connection refused');
  expect(out).toContain(`timeout (${TIMEOUT_MS} ms)`);
  expect(out).toContain('not probed: URL http://${not-deployed}/ has no host yet');
});

test('--my-ip is the prober address for non-loopback URLs only', async () => {
  const { out } = await compare('--outputs', outputsFile, '--probe', '--count', '2', '--timeout', String(TIMEOUT_MS), '--my-ip', '198.51.100.4', '--format', 'json');
  const model: CompareModel = JSON.parse(out);
  expect(model.probe?.my_ip).toBe('198.51.100.4');
  expect(model.environments[0].rows[2].clouds.aws?.probe?.client_ip.prober_address).toBe('127.0.0.1');
});

test('GIVEN a terminal WHEN two exposures are probed at once THEN one bar for both is redrawn in place, with a line for each as it finishes', async () => {
  let text = '';
  const progress = progressReporter({ write: (t: string) => (text += t), isTTY: true, columns: 100 }, {});
  const probe = async (label: string) => {
    const { samples } = await probeUrl(new URL(urls.direct), { count: 3, concurrency: 1, timeoutMs: TIMEOUT_MS, progress, label });
    progress.done(label, `${samples.filter((s) => s.ok).length}/3 ok`);
  };
  await Promise.all([probe('first'), probe('second')]);
  // The kit's live region: back up over the bar, erase, and the new frame, one line.
  expect(text).toContain('\r\x1b[1A\x1b[J  probing 2 exposures [........................] 0/6, 0/2 done\n');
  expect(text).toContain('\r\x1b[1A\x1b[J  probing 2 exposures [########################] 6/6, 1/2 done\n');
  expect(text).toContain('\r\x1b[1A\x1b[J  first: 3/3 ok\n');
  expect(text).toContain('\r\x1b[1A\x1b[J  second: 3/3 ok\n');
  // The last exposure's line ends the output: no bar is left behind it.
  expect(text.endsWith(': 3/3 ok\n')).toBe(true);
});
