/**
 * verify's third check: what compare --probe measures against each exposure's
 * claims (source_nat, client_ip_via), with loopback servers that behave like a
 * matching and a contradicting exposure.
 */
import { compareOutputs } from '../../../lib/lab/probe/compare-model';
import { parseOutputs } from '../../../lib/lab/files/outputs';
import { probeClaims } from '../../../lib/commands/verify/verify';
import { deadUrl, RunningServer, startEchoServer } from '../../support/echo-servers';

// No server here is slow: the timeout only has to be far above how late a loopback answer comes on a busy machine.
const PROBE = { count: 6, concurrency: 2, timeoutMs: 10_000 };

describe('probe claims against measurement', () => {
  let direct: RunningServer;
  let snat: RunningServer;
  beforeAll(async () => {
    direct = await startEchoServer('client-address');
    snat = await startEchoServer('snat');
  });
  afterAll(async () => {
    await direct.close();
    await snat.close();
  });

  const outputs = (exposures: Record<string, Record<string, unknown>>) => ({
    'lab-aws-cluster': { cloud: 'aws', cluster_name: 'lab-eks', pod_address_range: ['10.0.0.0/19', '10.0.32.0/19'] },
    'lab-aws-lb': exposures,
  });
  const exposure = (mode: string, url: string, claims: Record<string, unknown>) => ({ mode, cloud: 'aws', url, lb_kind: 'nlb', target_type: 'instance', expected_hops: 1, ...claims });

  test('GIVEN an exposure claiming tcp-source without SNAT and one claiming SNAT with X-Forwarded-For WHEN each server behaves so THEN both match', async () => {
    const raw = outputs({
      exposure_nodeport_local: exposure('nodeport-local', direct.url, { source_nat: false, client_ip_via: 'tcp-source', client_ip_preserved: true }),
      exposure_nodeport: exposure('nodeport', snat.url, { source_nat: true, client_ip_via: 'x-forwarded-for', client_ip_preserved: true }),
    });
    const checks = await probeClaims(compareOutputs(parseOutputs(raw, 'test'), 'test'), PROBE);
    expect(checks.map((c) => [c.mode, c.status, c.reason])).toEqual([
      ['nodeport', 'match', null],
      ['nodeport-local', 'match', null],
    ]);
    expect(checks[1].facts).toEqual([
      { fact: 'source_nat', claimed: false, measured: false, agrees: true },
      { fact: 'client_ip_via', claimed: 'tcp-source', measured: 'tcp-source', agrees: true },
    ]);
    expect(checks[0].probe?.ok).toBe(6);
  });

  test('GIVEN an exposure claiming no SNAT WHEN its Pods see node addresses THEN the contradiction is named', async () => {
    const raw = outputs({ exposure_nodeport_local: exposure('nodeport-local', snat.url, { source_nat: false, client_ip_via: 'tcp-source', client_ip_preserved: true }) });
    const [check] = await probeClaims(compareOutputs(parseOutputs(raw, 'test'), 'test'), PROBE);
    expect(check.status).toBe('contradiction');
    expect(check.reason).toMatch(/^source_nat claimed false, measured true; client_ip_via claimed tcp-source, measured x-forwarded-for \(Pod saw a node address/);
  });

  test('GIVEN an exposure without a URL and one that is down WHEN probed THEN nothing measured is said, never a match', async () => {
    const raw = outputs({
      exposure_native: exposure('native', '', { source_nat: false, client_ip_via: 'x-forwarded-for' }),
      exposure_nodeport: exposure('nodeport', await deadUrl(), { source_nat: true, client_ip_via: 'x-forwarded-for' }),
    });
    const checks = await probeClaims(compareOutputs(parseOutputs(raw, 'test'), 'test'), { ...PROBE, count: 3 });
    expect(checks.map((c) => [c.mode, c.status])).toEqual([
      ['native', 'not-measured'],
      ['nodeport', 'not-measured'],
    ]);
    expect(checks[0].reason).toBe('no URL in the output (not deployed yet?)');
    expect(checks[1].reason).toMatch(/^no successful reply of 3 \(3 /);
  });

  test('GIVEN a GKE Ingress over instance groups WHEN the cluster outputs give the node subnet THEN node-subnet peers are measured as SNAT, as claimed', async () => {
    const gke = await startEchoServer('snat-gke');
    try {
      const raw = {
        'lab-gcp-cluster': { cloud: 'gcp', cluster_name: 'lab-gke', pod_address_range: '10.20.0.0/16', node_address_range: '10.10.0.0/20' },
        'lab-gcp-lb': {
          exposure_nodeport: { mode: 'nodeport', cloud: 'gcp', url: gke.url, lb_kind: 'gclb-application', source_nat: true, client_ip_via: 'x-forwarded-for', client_ip_preserved: true },
        },
      };
      const [check] = await probeClaims(compareOutputs(parseOutputs(raw, 'test'), 'test'), PROBE);
      expect([check.cloud, check.mode, check.status, check.reason]).toEqual(['gcp', 'nodeport', 'match', null]);
    } finally {
      await gke.close();
    }
  });

  test('GIVEN an output from before source_nat and client_ip_via WHEN probed THEN client_ip_preserved is compared', async () => {
    const raw = outputs({ exposure_nodeport_local: exposure('nodeport-local', direct.url, { client_ip_preserved: false }) });
    const [check] = await probeClaims(compareOutputs(parseOutputs(raw, 'test'), 'test'), PROBE);
    expect(check.status).toBe('contradiction');
    expect(check.facts).toEqual([{ fact: 'client_ip_preserved', claimed: false, measured: true, agrees: false }]);
  });
});
