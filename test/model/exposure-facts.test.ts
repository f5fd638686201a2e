import { clientIpPreserved, exposureOutputName } from '../../lib/model/contract';
import { EXPOSURE_BUILT_BY, EXPOSURE_FACTS, EXPOSURE_UNAVAILABLE, exposureBackends, gkeNeedsSecurityPolicy, offeredModes, SOURCE_FILTER } from '../../lib/model/exposure-facts';
import { EXPOSURE_MODES } from '../../lib/model/modes';

describe('the exposure facts', () => {
  test.each(['aws', 'gcp'] as const)('GIVEN %s THEN every mode is either offered (with facts and a construct that builds it) or unavailable with a reason, never both', (cloud) => {
    for (const mode of EXPOSURE_MODES) {
      const offered = EXPOSURE_FACTS[cloud][mode] !== undefined;
      expect([mode, offered, EXPOSURE_BUILT_BY[cloud][mode] !== undefined, EXPOSURE_UNAVAILABLE[cloud][mode] === undefined]).toEqual([mode, offered, offered, offered]);
    }
    expect(offeredModes(cloud, EXPOSURE_MODES)).toEqual(EXPOSURE_MODES.filter((m) => EXPOSURE_FACTS[cloud][m]));
  });

  test.each((['aws', 'gcp'] as const).flatMap((cloud) => EXPOSURE_MODES.filter((m) => EXPOSURE_FACTS[cloud][m]).map((m) => [cloud, m] as const)))(
    'GIVEN %s %s THEN client_ip_preserved is exactly client_ip_via != "none", a SNATing path has two hops, and its backends have words',
    (cloud, mode) => {
      const facts = EXPOSURE_FACTS[cloud][mode]!;
      expect(facts.client_ip_preserved).toBe(clientIpPreserved(facts.client_ip_via));
      expect(facts.client_ip_preserved).toBe(facts.client_ip_via !== 'none');
      if (facts.source_nat) expect(facts.expected_hops).toBe(2);
      expect(exposureBackends(cloud, facts, 'the nodes')).not.toBe('');
    },
  );

  test('GIVEN mode names with hyphens THEN output names use underscores (a stable contract)', () => {
    expect(EXPOSURE_MODES.map(exposureOutputName)).toEqual(['exposure_native', 'exposure_gateway', 'exposure_nodeport', 'exposure_nodeport_l4', 'exposure_nodeport_local', 'exposure_native_l4']);
  });
});

describe('the source filter of each kind of load balancer', () => {
  test('GIVEN every exposure a cloud offers WHEN its construct is looked up THEN something filters its clients (GKE L7: Cloud Armor)', () => {
    const kinds = Object.values(EXPOSURE_BUILT_BY).flatMap((byMode) => Object.values(byMode));
    expect(kinds.filter((kind) => !SOURCE_FILTER[kind])).toEqual([]);
    expect(SOURCE_FILTER['gce-ingress']).toMatch(/Cloud Armor.*BackendConfig/);
    expect(SOURCE_FILTER['gke-gateway']).toMatch(/Cloud Armor.*GCPBackendPolicy/);
  });

  test.each([
    ['the default open list, every mode', EXPOSURE_MODES, ['0.0.0.0/0'], false],
    ['a /0 among narrower blocks', EXPOSURE_MODES, ['203.0.113.0/24', '0.0.0.0/0'], false],
    ['narrowed, only L4 modes', ['nodeport-l4', 'nodeport-local', 'native-l4'], ['203.0.113.0/24'], false],
    ['narrowed, the native Ingress', ['native'], ['203.0.113.0/24'], true],
    ['narrowed, the nodeport Ingress', ['nodeport'], ['203.0.113.0/24'], true],
    ['narrowed, the Gateway', ['gateway'], ['203.0.113.0/24'], true],
  ] as const)('GIVEN %s WHEN asked THEN whether the GKE cluster stack needs a Cloud Armor policy is as listed', (_name, modes, blocks, needed) => {
    expect(gkeNeedsSecurityPolicy(modes, blocks)).toBe(needed);
  });
});
