/**
 * The GCP leftover check against Compute Engine and GKE API responses served
 * from test/lab/leftovers/fixtures/gcp on 127.0.0.1 (see the README there: the
 * responses are written in the documented format, not captured from a live
 * project).
 */
import { findGcpLeftovers, gcpAccessToken, GcpLeftoverQuery } from '../../../lib/lab/leftovers/gcp-leftovers';
import { Leftover } from '../../../lib/lab/leftovers/leftover';
import { Answer, fixture, FIXTURE_PROJECT as PROJECT, FIXTURE_TOKEN as TOKEN, FixtureApi, googleError, Scenario, serveGoogleFixtures as serveFixtures } from '../../support/google-api';

const COMPUTE = `/compute/v1/projects/${PROJECT}`;

let api: FixtureApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function check(scenario: Scenario, env = 'lab', answers: Record<string, Answer> = {}, query: Partial<GcpLeftoverQuery> = {}): Promise<Leftover[]> {
  api = await serveFixtures(scenario, answers);
  return findGcpLeftovers({
    env,
    project: PROJECT,
    networkName: `${env}-gke`,
    clusterName: `${env}-gke`,
    accessToken: TOKEN,
    computeApi: api.compute,
    containerApi: api.container,
    iamApi: api.iam,
    resourceManagerApi: api.resourceManager,
    ...query,
  });
}

/** The error a check rejects with (the fixture server is up by then, so its URL can be named). */
async function failure(run: Promise<unknown>): Promise<Error> {
  const result = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(result instanceof Error)) throw new Error(`expected the check to fail, it resolved`);
  return result;
}

const gcp = (kind: string, id: string, matchedBy: string): Leftover => ({ cloud: 'gcp', kind, id, matchedBy });
const P = `projects/${PROJECT}`;
const IN_LAB = 'in network lab-gke';
const BY_LINK = {
  rule: 'sends to a target proxy or target pool of the environment',
  ruleToService: 'sends to a backend service of the environment',
  proxy: 'uses a URL map of the environment',
  urlMap: 'routes to a backend service of the environment',
  service: 'backends are NEGs or instance groups of the environment',
  check: 'used by a backend service or target pool of the environment',
};
/** What the Gateway left of lab: the controller's firewall rule of the network, and a health check nothing links to. */
const GATEWAY_RULE = 'gkegw1-x7k2-l7-lab-gke-global';
const GATEWAY_RULE_WHY = "the GKE Gateway controller's rule for network lab-gke: one per cluster and network, it outlives the Gateways";
const GATEWAY_ORPHAN_CHECK = 'gkegw1-x7k2-hoplab-echo-gateway-80-8d7f6g5h4j3k';

/** What a failed teardown of `lab` left (fixtures/gcp/leftovers), in the order it can be deleted. */
const LAB_LEFTOVERS: Leftover[] = [
  gcp('compute:forwarding-rule', `${P}/global/forwardingRules/k8s2-fr-x7k2m9qp-hoplab-echo-native-1c9e4f2b`, BY_LINK.rule),
  gcp('compute:forwarding-rule', `${P}/global/forwardingRules/k8s2-fr-x7k2m9qp-hoplab-echo-nodeport-7a3d8e1f`, BY_LINK.rule),
  gcp('compute:forwarding-rule', `${P}/regions/us-central1/forwardingRules/k8s2-tcp-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e`, BY_LINK.ruleToService),
  gcp('compute:address', `${P}/global/addresses/lab-gke-native-ip`, 'used by a forwarding rule of the environment'),
  gcp('compute:target-proxy', `${P}/global/targetHttpProxies/k8s2-tp-x7k2m9qp-hoplab-echo-native-1c9e4f2b`, BY_LINK.proxy),
  gcp('compute:target-proxy', `${P}/global/targetHttpProxies/k8s2-tp-x7k2m9qp-hoplab-echo-nodeport-7a3d8e1f`, BY_LINK.proxy),
  gcp('compute:ssl-certificate', `${P}/global/sslCertificates/k8s2-cr-x7k2m9qp-hoplab-echo-native-1c9e4f2b`, 'GKE name with cluster id x7k2m9qp (from network lab-gke)'),
  gcp('compute:url-map', `${P}/global/urlMaps/k8s2-um-x7k2m9qp-hoplab-echo-native-1c9e4f2b`, BY_LINK.urlMap),
  gcp('compute:url-map', `${P}/global/urlMaps/k8s2-um-x7k2m9qp-hoplab-echo-nodeport-7a3d8e1f`, BY_LINK.urlMap),
  gcp('compute:backend-service', `${P}/global/backendServices/k8s-be-31234--4f2a9c1d7e3b8a60`, BY_LINK.service),
  gcp('compute:backend-service', `${P}/global/backendServices/k8s1-4f2a9c1d-hoplab-echo-native-80-6b1f0e2a`, BY_LINK.service),
  gcp('compute:backend-service', `${P}/regions/us-central1/backendServices/k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e`, BY_LINK.service),
  // The cluster stack's Cloud Armor policy, by its exact name (bob-gke-sources and lab2-gke-sources are not lab's).
  gcp('compute:security-policy', `${P}/global/securityPolicies/lab-gke-sources`, 'security policy name'),
  // Nothing links to it any more: found by the cluster id in the name of the network's Gateway firewall rule.
  gcp('compute:health-check', `${P}/global/healthChecks/${GATEWAY_ORPHAN_CHECK}`, 'GKE name with cluster id gkegw1-x7k2 (from network lab-gke)'),
  gcp('compute:health-check', `${P}/global/healthChecks/k8s-be-31234--4f2a9c1d7e3b8a60`, BY_LINK.check),
  gcp('compute:health-check', `${P}/global/healthChecks/k8s1-4f2a9c1d-hoplab-echo-native-80-6b1f0e2a`, BY_LINK.check),
  gcp('compute:health-check', `${P}/regions/us-central1/healthChecks/k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e`, BY_LINK.check),
  gcp('compute:network-endpoint-group', `${P}/zones/us-central1-a/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-native-80-6b1f0e2a`, IN_LAB),
  gcp('compute:instance-group', `${P}/zones/us-central1-a/instanceGroups/k8s-ig--4f2a9c1d7e3b8a60`, IN_LAB),
  gcp('compute:firewall', `${P}/global/firewalls/${GATEWAY_RULE}`, GATEWAY_RULE_WHY),
  gcp('compute:firewall', `${P}/global/firewalls/k8s-fw-l7--4f2a9c1d7e3b8a60`, IN_LAB),
  gcp('compute:firewall', `${P}/global/firewalls/k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e`, IN_LAB),
  gcp('compute:firewall', `${P}/global/firewalls/k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e-fw`, IN_LAB),
  gcp('compute:subnetwork', `${P}/regions/us-central1/subnetworks/lab-gke-nodes`, IN_LAB),
  gcp('compute:network', `${P}/global/networks/lab-gke`, 'network name'),
  // Exact email: lab2-gke-nodes (another attendee, bound to the same role) is never lab's.
  gcp(
    'iam:project-binding',
    `${P} roles/container.defaultNodeServiceAccount serviceAccount:lab-gke-nodes@hoplab-demo.iam.gserviceaccount.com`,
    'member lab-gke-nodes@hoplab-demo.iam.gserviceaccount.com',
  ),
  gcp('iam:service-account', `${P}/serviceAccounts/lab-gke-nodes@hoplab-demo.iam.gserviceaccount.com`, 'email lab-gke-nodes@hoplab-demo.iam.gserviceaccount.com'),
];

/** Markers of bob's resources: its network, its GKE cluster ids (Ingress, L4, Gateway), its legacy load balancer. */
const BOB_MARKERS = /bob-gke|b81e0d5a|r4t8w2zn|gkegw1-m3n4|a3f1c8e2b7d94a5e8c1f0b6d2e9a7c43/;

describe('findGcpLeftovers over recorded API responses', () => {
  test('GIVEN a project with only another environment (bob) and the default network WHEN lab is checked THEN nothing is reported', async () => {
    await expect(check('clean')).resolves.toEqual([]);
  });

  test('GIVEN a failed teardown of lab next to a live bob WHEN lab is checked THEN exactly the GKE-made load balancer pieces, the network and the subnet are reported, in deletion order', async () => {
    await expect(check('leftovers')).resolves.toEqual(LAB_LEFTOVERS);
  });

  test("GIVEN only the lb stack was destroyed (cluster kept) WHEN lab is checked in controller scope THEN only the GKE controllers' pieces count, not the network, subnet or cluster", async () => {
    const leftovers = await check('leftovers', 'lab', {}, { scope: 'controller' });
    // The Cloud Armor policy is the cluster stack's (Terraform's), so it is not a controller's leftover either.
    expect(leftovers).toEqual(LAB_LEFTOVERS.filter((l) => l.kind !== 'compute:network' && l.kind !== 'compute:subnetwork' && l.kind !== 'compute:security-policy' && !l.kind.startsWith('iam:')));
  });

  test("GIVEN --stacks gcp-lb (cluster kept) WHEN lab is checked in controller scope THEN the Gateway controller's gkegw1- firewall rule is reported with why it stays, beside the k8s- ones", async () => {
    const firewalls = (await check('leftovers', 'lab', {}, { scope: 'controller' })).filter((l) => l.kind === 'compute:firewall');
    expect(firewalls.map((l) => [l.id.split('/').pop(), l.matchedBy])).toEqual([
      [GATEWAY_RULE, GATEWAY_RULE_WHY],
      ['k8s-fw-l7--4f2a9c1d7e3b8a60', IN_LAB],
      ['k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e', IN_LAB],
      ['k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e-fw', IN_LAB],
    ]);
  });

  test("GIVEN the live bob WHEN bob is checked in controller scope THEN bob's cluster, nodes, network and its own firewall rules are not leftovers", async () => {
    const leftovers = await check('leftovers', 'bob', {}, { scope: 'controller' });
    expect(leftovers.filter((l) => ['container:cluster', 'compute:instance', 'compute:network', 'compute:subnetwork', 'compute:router', 'compute:security-policy'].includes(l.kind))).toEqual([]);
    expect(leftovers.filter((l) => ['compute:firewall', 'compute:instance-group'].includes(l.kind) && !/^(k8s|gkegw1-)/.test(l.id.split('/').pop() ?? ''))).toEqual([]);
    expect(leftovers.length).toBeGreaterThan(0);
  });

  test("GIVEN bob's k8s2-/k8s1-/k8s-ig-- look-alikes and a legacy target pool WHEN lab is checked THEN none of bob's resources is reported", async () => {
    const leftovers = await check('leftovers');
    expect(leftovers.filter((l) => BOB_MARKERS.test(l.id))).toEqual([]);
  });

  test("GIVEN the same project WHEN bob is checked THEN bob's live resources are found (legacy target pool and its HTTP health check included) and nothing of lab", async () => {
    const leftovers = await check('leftovers', 'bob');
    expect(leftovers.filter((l) => /lab-gke|4f2a9c1d|x7k2m9qp|gkegw1-x7k2/.test(l.id))).toEqual([]);
    expect(leftovers.map((l) => `${l.kind} ${l.id.replace(`${P}/`, '')}`)).toEqual([
      'container:cluster locations/us-central1-b/clusters/bob-gke',
      'compute:instance zones/us-central1-b/instances/gke-bob-gke-bob-gke-nodes-8d2f4a6c-0k1z',
      'compute:instance zones/us-central1-b/instances/gke-bob-gke-bob-gke-nodes-8d2f4a6c-7hq3',
      'compute:forwarding-rule global/forwardingRules/gkegw1-m3n4-hoplab-echo-gateway-p0o9i8u7y6t5',
      'compute:forwarding-rule global/forwardingRules/k8s2-fr-r4t8w2zn-hoplab-echo-native-9b4e1a7d',
      'compute:forwarding-rule global/forwardingRules/k8s2-fr-r4t8w2zn-hoplab-echo-nodeport-3f8c0e5a',
      'compute:forwarding-rule regions/us-central1/forwardingRules/a3f1c8e2b7d94a5e8c1f0b6d2e9a7c43',
      'compute:forwarding-rule regions/us-central1/forwardingRules/k8s2-tcp-r4t8w2zn-hoplab-echo-nodeport-local-2e6a9d4c',
      'compute:address global/addresses/bob-gke-native-ip',
      'compute:address global/addresses/gkegw1-m3n4-hoplab-echo-gateway-p0o9i8u7y6t5',
      'compute:target-proxy global/targetHttpProxies/gkegw1-m3n4-hoplab-echo-gateway-p0o9i8u7y6t5',
      'compute:target-proxy global/targetHttpProxies/k8s2-tp-r4t8w2zn-hoplab-echo-native-9b4e1a7d',
      'compute:target-proxy global/targetHttpProxies/k8s2-tp-r4t8w2zn-hoplab-echo-nodeport-3f8c0e5a',
      'compute:ssl-certificate global/sslCertificates/k8s2-cr-r4t8w2zn-hoplab-echo-native-9b4e1a7d',
      'compute:url-map global/urlMaps/gkegw1-m3n4-hoplab-echo-gateway-p0o9i8u7y6t5',
      'compute:url-map global/urlMaps/k8s2-um-r4t8w2zn-hoplab-echo-native-9b4e1a7d',
      'compute:url-map global/urlMaps/k8s2-um-r4t8w2zn-hoplab-echo-nodeport-3f8c0e5a',
      'compute:backend-service global/backendServices/gkegw1-m3n4-hoplab-echo-gateway-80-5t6y7u8i9o0p',
      'compute:backend-service global/backendServices/k8s-be-31234--b81e0d5a92c4f317',
      'compute:backend-service global/backendServices/k8s1-b81e0d5a-hoplab-echo-native-80-0f5c2d7b',
      'compute:backend-service regions/us-central1/backendServices/k8s2-r4t8w2zn-hoplab-echo-nodeport-local-2e6a9d4c',
      'compute:security-policy global/securityPolicies/bob-gke-sources',
      'compute:target-pool regions/us-central1/targetPools/a3f1c8e2b7d94a5e8c1f0b6d2e9a7c43',
      'compute:health-check global/healthChecks/gkegw1-m3n4-hoplab-echo-gateway-80-5t6y7u8i9o0p',
      'compute:health-check global/healthChecks/k8s-be-31234--b81e0d5a92c4f317',
      'compute:health-check global/healthChecks/k8s1-b81e0d5a-hoplab-echo-native-80-0f5c2d7b',
      'compute:health-check global/httpHealthChecks/k8s-b81e0d5a92c4f317-node',
      'compute:health-check regions/us-central1/healthChecks/k8s2-r4t8w2zn-hoplab-echo-nodeport-local-2e6a9d4c',
      'compute:network-endpoint-group zones/us-central1-b/networkEndpointGroups/k8s1-b81e0d5a-hoplab-echo-gateway-80-3a9d6b2e',
      'compute:network-endpoint-group zones/us-central1-b/networkEndpointGroups/k8s1-b81e0d5a-hoplab-echo-native-80-0f5c2d7b',
      'compute:instance-group zones/us-central1-b/instanceGroups/gke-bob-gke-bob-gke-nodes-8d2f4a6c-grp',
      'compute:instance-group zones/us-central1-b/instanceGroups/k8s-ig--b81e0d5a92c4f317',
      'compute:firewall global/firewalls/bob-gke-allow-l4-lb-hc',
      'compute:firewall global/firewalls/bob-gke-allow-l7-lb',
      'compute:firewall global/firewalls/gke-bob-gke-3c5e7a91-all',
      'compute:firewall global/firewalls/gke-bob-gke-3c5e7a91-vms',
      'compute:firewall global/firewalls/gkegw1-m3n4-l7-bob-gke-global',
      'compute:firewall global/firewalls/k8s-fw-a3f1c8e2b7d94a5e8c1f0b6d2e9a7c43',
      'compute:firewall global/firewalls/k8s-fw-l7--b81e0d5a92c4f317',
      'compute:firewall global/firewalls/k8s2-r4t8w2zn-hoplab-echo-nodeport-local-2e6a9d4c',
      'compute:firewall global/firewalls/k8s2-r4t8w2zn-hoplab-echo-nodeport-local-2e6a9d4c-fw',
      'compute:router regions/us-central1/routers/bob-gke-router',
      'compute:subnetwork regions/us-central1/subnetworks/bob-gke-nodes',
      'compute:network global/networks/bob-gke',
      'iam:project-binding projects/hoplab-demo roles/container.defaultNodeServiceAccount serviceAccount:bob-gke-nodes@hoplab-demo.iam.gserviceaccount.com',
      'iam:service-account serviceAccounts/bob-gke-nodes@hoplab-demo.iam.gserviceaccount.com',
    ]);
  });

  test('GIVEN firewall rules and aggregated backend services split over two pages WHEN lab is checked THEN the second pages are requested with nextPageToken and their resources reported', async () => {
    const leftovers = await check('leftovers');
    const pages = api!.requests.filter((r) => r.query.has('pageToken')).map((r) => `${r.path}?pageToken=${r.query.get('pageToken')}`);
    expect(pages.sort()).toEqual([
      `${COMPUTE}/aggregated/backendServices?pageToken=Cj0KOwoPYmFja2VuZFNlcnZpY2VzEihrOHMyLXI0dDh3Mnpu`,
      `${COMPUTE}/global/firewalls?pageToken=CkYKRAoIZmlyZXdhbGwSOGs4cy1mdy1sNy0t`,
    ]);
    // only on page 2: the lab firewall rules and the regional backend service
    expect(leftovers.map((l) => l.id)).toEqual(
      expect.arrayContaining([`${P}/global/firewalls/k8s-fw-l7--4f2a9c1d7e3b8a60`, `${P}/regions/us-central1/backendServices/k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e`]),
    );
    // the aggregated page 2 keeps the original query
    expect(api!.requests.find((r) => r.query.get('pageToken')?.startsWith('Cj0K'))!.query.get('returnPartialSuccess')).toBe('true');
  });

  test('GIVEN the check runs WHEN it calls the APIs THEN every request is a loopback GET with the bearer token (but the read-only getIamPolicy POST), to the documented list endpoints, aggregated ones with returnPartialSuccess=true', async () => {
    await check('clean');
    const requests = api!.requests;
    expect(requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect([...new Set(requests.map((r) => r.path))].sort()).toEqual(
      [
        ...[
          'addresses',
          'backendServices',
          'firewalls',
          'forwardingRules',
          'healthChecks',
          'httpHealthChecks',
          'networks',
          'securityPolicies',
          'sslCertificates',
          'targetHttpProxies',
          'targetHttpsProxies',
          'urlMaps',
        ].map((k) => `${COMPUTE}/global/${k}`),
        ...[
          'addresses',
          'backendServices',
          'forwardingRules',
          'healthChecks',
          'instanceGroups',
          'instances',
          'networkEndpointGroups',
          'routers',
          'sslCertificates',
          'subnetworks',
          'targetHttpProxies',
          'targetHttpsProxies',
          'targetPools',
          'urlMaps',
        ].map((k) => `${COMPUTE}/aggregated/${k}`),
        `/container/v1/projects/${PROJECT}/locations/-/clusters`,
        `/iam/v1/projects/${PROJECT}/serviceAccounts`,
        `/crm/v1/projects/${PROJECT}:getIamPolicy`,
      ].sort(),
    );
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([`POST /crm/v1/projects/${PROJECT}:getIamPolicy`]);
    // Policy version 3: a conditional binding of the nodes' account comes with its own role, not a `_withcond_` one.
    expect(requests.find((r) => r.method === 'POST')!.body).toBe('{"options":{"requestedPolicyVersion":3}}');
    expect(requests.filter((r) => r.path.includes('/aggregated/')).every((r) => r.query.get('returnPartialSuccess') === 'true')).toBe(true);
  });

  test('GIVEN the global and aggregated lists both hold the global backend services WHEN lab is checked THEN each is reported once', async () => {
    const ids = (await check('leftovers')).map((l) => l.id);
    expect(ids).toEqual([...new Set(ids)]);
  });
});

describe('findGcpLeftovers: what is no longer linked', () => {
  test('GIVEN the emptied k8s-ig-- group reports no network (GKE creates it without one) and orphaned GKE health checks remain WHEN lab is checked THEN they are reported by the cluster id in their names, and bob-named orphans are not', async () => {
    const groups = fixture('leftovers', `${COMPUTE}/aggregated/instanceGroups`);
    const labGroup = groups.items['zones/us-central1-a'].instanceGroups[0];
    delete labGroup.network;
    delete labGroup.subnetwork;
    const checks = fixture('leftovers', `${COMPUTE}/aggregated/healthChecks`);
    const orphan = (name: string) => ({
      ...checks.items['regions/us-central1'].healthChecks[0],
      name,
      selfLink: `https://www.googleapis.com/compute/v1/projects/${PROJECT}/regions/us-central1/healthChecks/${name}`,
    });
    checks.items['regions/us-central1'].healthChecks.push(orphan('k8s2-x7k2m9qp-l4-shared-hc'), orphan('k8s2-r4t8w2zn-l4-shared-hc'));

    const leftovers = await check('leftovers', 'lab', {
      [`${COMPUTE}/aggregated/instanceGroups`]: { status: 200, body: groups },
      [`${COMPUTE}/aggregated/healthChecks`]: { status: 200, body: checks },
    });

    expect(leftovers.find((l) => l.id.endsWith('/instanceGroups/k8s-ig--4f2a9c1d7e3b8a60'))).toEqual(
      gcp('compute:instance-group', `${P}/zones/us-central1-a/instanceGroups/k8s-ig--4f2a9c1d7e3b8a60`, 'GKE name with cluster id 4f2a9c1d7e3b8a60 (from network lab-gke)'),
    );
    expect(leftovers.filter((l) => l.id.endsWith('-l4-shared-hc'))).toEqual([
      gcp('compute:health-check', `${P}/regions/us-central1/healthChecks/k8s2-x7k2m9qp-l4-shared-hc`, 'GKE name with cluster id x7k2m9qp (from network lab-gke)'),
    ]);
    expect(leftovers).toHaveLength(LAB_LEFTOVERS.length + 1);
  });

  test('GIVEN a legacy target-pool load balancer of lab whose nodes are gone WHEN lab is checked THEN pool, forwarding rule and HTTP health check are reported through its k8s-fw-<name> rule', async () => {
    const lb = 'a0c4e6f8b1d3a5c7e9f0b2d4c6e8a1f3';
    const base = `https://www.googleapis.com/compute/v1/projects/${PROJECT}`;
    const firewalls = fixture('leftovers', `${COMPUTE}/global/firewalls.page-CkYKRAoIZmlyZXdhbGwSOGs4cy1mdy1sNy0t`);
    firewalls.items.push({ ...firewalls.items.at(-1), name: `k8s-fw-${lb}`, selfLink: `${base}/global/firewalls/k8s-fw-${lb}` });
    const pools = fixture('leftovers', `${COMPUTE}/aggregated/targetPools`);
    const bobPool = pools.items['regions/us-central1'].targetPools[0];
    pools.items['regions/us-central1'].targetPools.push({
      ...bobPool,
      name: lb,
      selfLink: `${base}/regions/us-central1/targetPools/${lb}`,
      instances: [`${base}/zones/us-central1-a/instances/gke-lab-gke-lab-gke-nodes-1b2c3d4e-9xk2`],
      healthChecks: [`${base}/global/httpHealthChecks/${lb}`],
    });
    const rules = fixture('leftovers', `${COMPUTE}/aggregated/forwardingRules`);
    const bobRule = rules.items['regions/us-central1'].forwardingRules.find((r: { name: string }) => r.name.startsWith('a3f1'));
    rules.items['regions/us-central1'].forwardingRules.push({
      ...bobRule,
      name: lb,
      target: `${base}/regions/us-central1/targetPools/${lb}`,
      selfLink: `${base}/regions/us-central1/forwardingRules/${lb}`,
    });
    const legacyChecks = fixture('leftovers', `${COMPUTE}/global/httpHealthChecks`);
    legacyChecks.items.push({ ...legacyChecks.items[0], name: lb, selfLink: `${base}/global/httpHealthChecks/${lb}` });

    const leftovers = await check('leftovers', 'lab', {
      [`${COMPUTE}/global/firewalls?pageToken=CkYKRAoIZmlyZXdhbGwSOGs4cy1mdy1sNy0t`]: { status: 200, body: firewalls },
      [`${COMPUTE}/aggregated/targetPools`]: { status: 200, body: pools },
      [`${COMPUTE}/aggregated/forwardingRules`]: { status: 200, body: rules },
      [`${COMPUTE}/global/httpHealthChecks`]: { status: 200, body: legacyChecks },
    });

    const legacy = `legacy load balancer with firewall rule k8s-fw-${lb} in network lab-gke`;
    expect(leftovers.filter((l) => l.id.includes(lb))).toEqual([
      gcp('compute:forwarding-rule', `${P}/regions/us-central1/forwardingRules/${lb}`, BY_LINK.rule),
      gcp('compute:target-pool', `${P}/regions/us-central1/targetPools/${lb}`, legacy),
      gcp('compute:health-check', `${P}/global/httpHealthChecks/${lb}`, BY_LINK.check),
      gcp('compute:firewall', `${P}/global/firewalls/k8s-fw-${lb}`, IN_LAB),
    ]);
    expect(leftovers.filter((l) => BOB_MARKERS.test(l.id))).toEqual([]);
  });

  test('GIVEN the GKE cluster itself survived WHEN lab is checked THEN it is listed first', async () => {
    const clusters = fixture('leftovers', `/container/v1/projects/${PROJECT}/locations/-/clusters`);
    clusters.clusters.push({ ...clusters.clusters[0], name: 'lab-gke', location: 'us-central1-a', network: 'lab-gke', status: 'ERROR' });
    const leftovers = await check('leftovers', 'lab', { [`/container/v1/projects/${PROJECT}/locations/-/clusters`]: { status: 200, body: clusters } });
    expect(leftovers[0]).toEqual(gcp('container:cluster', `${P}/locations/us-central1-a/clusters/lab-gke`, 'cluster name'));
    expect(leftovers.slice(1)).toEqual(LAB_LEFTOVERS);
  });
});

describe('findGcpLeftovers: a check that cannot see everything fails, naming the request', () => {
  test("GIVEN the token may not list firewall rules (403) WHEN lab is checked THEN it throws with the URL, the status and Google's message", async () => {
    const message = `Required 'compute.firewalls.list' permission for 'projects/${PROJECT}'`;
    const error = await failure(check('leftovers', 'lab', { [`${COMPUTE}/global/firewalls`]: { status: 403, body: googleError(403, 'PERMISSION_DENIED', message, 'forbidden') } }));
    expect(error.message).toBe(`GET ${api!.compute}/projects/${PROJECT}/global/firewalls answered 403 (PERMISSION_DENIED): ${message}`);
  });

  test('GIVEN a wrong access token WHEN lab is checked THEN it throws with status 401', async () => {
    await expect(check('clean', 'lab', {}, { accessToken: 'expired' })).rejects.toThrow(
      /^GET http:\/\/127\.0\.0\.1:\d+\/\S+ answered 401 \(UNAUTHENTICATED\): Request had invalid authentication credentials/,
    );
  });

  test('GIVEN a project that does not exist (every list answers 404) WHEN checked THEN it throws instead of reporting "nothing left"', async () => {
    await expect(check('clean', 'lab', {}, { project: 'no-such-project' })).rejects.toThrow(/answered 404 \(NOT_FOUND\): The resource 'projects\/no-such-project\/\S+' was not found/);
  });

  test('GIVEN an API that never answers WHEN checked with a request timeout THEN it throws once, at that timeout, naming the URL', async () => {
    // The timeout tells a hang from slowness: the other 29 requests are answered at once, but on a busy machine
    // (this test's worker and its loopback server share the CPU with other jobs) "at once" can take longer than a
    // short timeout, and a slow request, not the hanging one, would be named. 5 s is far above how late a loopback
    // answer comes on a busy machine and still only a few seconds of waiting; the hang takes forever.
    const timeoutMs = 5000;
    const started = Date.now();
    const error = await failure(check('clean', 'lab', { [`/container/v1/projects/${PROJECT}/locations/-/clusters`]: 'hang' }, { timeoutMs }));
    expect(error.message).toBe(`GET ${api!.container}/projects/${PROJECT}/locations/-/clusters failed: no answer within ${timeoutMs} ms`);
    // Bounded by the timeout, not by the hang: it fails at the hanging request's timeout, not one timeout after another.
    expect(Date.now() - started).toBeLessThan(2 * timeoutMs);
  });

  test('GIVEN nothing listens on the API address WHEN checked THEN it throws naming the URL and the connection error', async () => {
    const closed = await serveFixtures('clean');
    await closed.close();
    const error = await failure(
      findGcpLeftovers({
        env: 'lab',
        project: PROJECT,
        networkName: 'lab-gke',
        clusterName: 'lab-gke',
        accessToken: TOKEN,
        computeApi: closed.compute,
        containerApi: closed.container,
        iamApi: closed.iam,
        resourceManagerApi: closed.resourceManager,
      }),
    );
    expect(error.message).toMatch(new RegExp(`^GET ${closed.compute.replace(/\./g, '\\.')}/projects/${PROJECT}/\\S+ failed: fetch failed \\(ECONNREFUSED\\)$`));
  });

  test('GIVEN an aggregated list with an unreachable scope WHEN checked THEN it throws naming the scope', async () => {
    const negs = fixture('clean', `${COMPUTE}/aggregated/networkEndpointGroups`);
    negs.unreachables = ['zones/us-central1-f'];
    const error = await failure(check('clean', 'lab', { [`${COMPUTE}/aggregated/networkEndpointGroups`]: { status: 200, body: negs } }));
    expect(error.message).toBe(`GET ${api!.compute}/projects/${PROJECT}/aggregated/networkEndpointGroups?returnPartialSuccess=true could not read zones/us-central1-f; run the check again`);
  });

  test('GIVEN GKE reports missing zones WHEN checked THEN it throws naming them', async () => {
    const clusters = fixture('clean', `/container/v1/projects/${PROJECT}/locations/-/clusters`);
    const error = await failure(check('clean', 'lab', { [`/container/v1/projects/${PROJECT}/locations/-/clusters`]: { status: 200, body: { ...clusters, missingZones: ['us-central1-c'] } } }));
    expect(error.message).toBe(`GKE could not list clusters in us-central1-c of project ${PROJECT}; run the check again`);
  });

  test('GIVEN a list that hands back the same page token forever WHEN checked THEN it stops with an error instead of looping', async () => {
    const page = { ...fixture('clean', `${COMPUTE}/global/networks`), nextPageToken: 'again' };
    const error = await failure(
      check('clean', 'lab', {
        [`${COMPUTE}/global/networks`]: { status: 200, body: page },
        [`${COMPUTE}/global/networks?pageToken=again`]: { status: 200, body: page },
      }),
    );
    expect(error.message).toBe(`GET ${api!.compute}/projects/${PROJECT}/global/networks returned the page token "again" twice; stopping instead of looping`);
  });
});

describe('gcpAccessToken', () => {
  test('GIVEN GOOGLE_OAUTH_ACCESS_TOKEN WHEN asked for a token THEN it is used without calling gcloud', () => {
    expect(gcpAccessToken({ GOOGLE_OAUTH_ACCESS_TOKEN: 'ya29.from-env' })).toBe('ya29.from-env');
  });
});

describe('GKE Gateway load balancers', () => {
  const BASE = `https://www.googleapis.com/compute/v1/${P}`;
  const NEG = 'k8s1-b81e0d5a-hoplab-echo-gateway-80-7c1e4a2f';
  const named = (kind: string, name: string, extra: object = {}) => ({
    kind: `compute#${kind}`,
    name,
    selfLink: `${BASE}/global/${kind === 'targetHttpProxy' ? 'targetHttpProxies' : `${kind}s`}/${name}`,
    ...extra,
  });
  /** A global list answer with these items added to the fixture's own. */
  const globalList = (path: string, key: string, items: object[]): Answer => {
    const body = fixture('leftovers', `compute/v1/${P}/global/${path}`);
    return { status: 200, body: { ...body, [key]: [...((body[key] as object[] | undefined) ?? []), ...items] } };
  };

  test('GIVEN a Gateway load balancer left by a failed teardown WHEN lab is checked THEN its NEG-linked chain is reported, and an orphaned gkegw1 health check by the Gateway hash', async () => {
    const negs = fixture('leftovers', `compute/v1/${P}/aggregated/networkEndpointGroups`);
    const zone = 'zones/us-central1-a';
    const negItem = {
      kind: 'compute#networkEndpointGroup',
      name: NEG,
      selfLink: `${BASE}/zones/us-central1-a/networkEndpointGroups/${NEG}`,
      network: `${BASE}/global/networks/lab-gke`,
      networkEndpointType: 'GCE_VM_IP_PORT',
    };
    const negAnswer: Answer = {
      status: 200,
      body: { ...negs, items: { ...negs.items, [zone]: { networkEndpointGroups: [...(negs.items[zone]?.networkEndpointGroups ?? []), negItem] } } },
    };
    const service = named('backendService', 'gkegw1-x7k2-hoplab-echo-gateway-80-q1w2e3r4', {
      backends: [{ group: negItem.selfLink }],
      healthChecks: [`${BASE}/global/healthChecks/gkegw1-x7k2-hoplab-echo-gateway-80-q1w2e3r4`],
      loadBalancingScheme: 'EXTERNAL_MANAGED',
    });
    const map = named('urlMap', 'gkegw1-x7k2-hoplab-echo-gateway-a9s8d7f6', { defaultService: service.selfLink });
    const proxy = named('targetHttpProxy', 'gkegw1-x7k2-hoplab-echo-gateway-a9s8d7f6', { urlMap: map.selfLink });
    const rule = named('forwardingRule', 'gkegw1-x7k2-hoplab-echo-gateway-a9s8d7f6', { target: proxy.selfLink, IPAddress: '34.117.9.20', loadBalancingScheme: 'EXTERNAL_MANAGED' });
    const linkedCheck = named('healthCheck', 'gkegw1-x7k2-hoplab-echo-gateway-80-q1w2e3r4');
    const orphanCheck = named('healthCheck', 'gkegw1-x7k2-hoplab-echo-old-80-z9x8c7v6');
    const otherCluster = named('healthCheck', 'gkegw1-m3n4-other-echo-80-b5n6m7q8');
    const found = await check('leftovers', 'lab', {
      [`/compute/v1/${P}/aggregated/networkEndpointGroups`]: negAnswer,
      [`/compute/v1/${P}/global/backendServices`]: globalList('backendServices', 'items', [service]),
      [`/compute/v1/${P}/global/urlMaps`]: globalList('urlMaps', 'items', [map]),
      [`/compute/v1/${P}/global/targetHttpProxies`]: globalList('targetHttpProxies', 'items', [proxy]),
      [`/compute/v1/${P}/global/forwardingRules`]: globalList('forwardingRules', 'items', [rule]),
      [`/compute/v1/${P}/global/healthChecks`]: globalList('healthChecks', 'items', [linkedCheck, orphanCheck, otherCluster]),
    });
    const gateway = found.filter((l) => l.id.includes('gkegw1') || l.id.includes('echo-gateway'));
    expect(gateway.map((l) => [l.kind, l.id.replace(`${P}/`, ''), l.matchedBy])).toEqual([
      ['compute:forwarding-rule', `global/forwardingRules/${rule.name}`, 'sends to a target proxy or target pool of the environment'],
      ['compute:target-proxy', `global/targetHttpProxies/${proxy.name}`, 'uses a URL map of the environment'],
      ['compute:url-map', `global/urlMaps/${map.name}`, 'routes to a backend service of the environment'],
      ['compute:backend-service', `global/backendServices/${service.name}`, 'backends are NEGs or instance groups of the environment'],
      // The fixtures' own orphan (lab's Gateway of an earlier deploy) sorts first.
      ['compute:health-check', `global/healthChecks/${GATEWAY_ORPHAN_CHECK}`, 'GKE name with cluster id gkegw1-x7k2 (from network lab-gke)'],
      ['compute:health-check', `global/healthChecks/${linkedCheck.name}`, 'used by a backend service or target pool of the environment'],
      ['compute:health-check', `global/healthChecks/${orphanCheck.name}`, 'GKE name with cluster id gkegw1-x7k2 (from network lab-gke)'],
      ['compute:network-endpoint-group', `zones/us-central1-a/networkEndpointGroups/${NEG}`, IN_LAB],
      ['compute:firewall', `global/firewalls/${GATEWAY_RULE}`, GATEWAY_RULE_WHY],
    ]);
  });

  test("GIVEN nothing of lab's Gateway links to its gkegw1- health check any more WHEN lab is checked THEN the health check is found by the cluster id in the network's gkegw1 firewall rule, and bob's Gateway pieces are not", async () => {
    const found = await check('leftovers');
    expect(found.filter((l) => l.id.includes('gkegw1-')).map((l) => [l.kind, l.id.replace(`${P}/`, ''), l.matchedBy])).toEqual([
      ['compute:health-check', `global/healthChecks/${GATEWAY_ORPHAN_CHECK}`, 'GKE name with cluster id gkegw1-x7k2 (from network lab-gke)'],
      ['compute:firewall', `global/firewalls/${GATEWAY_RULE}`, GATEWAY_RULE_WHY],
    ]);
  });

  test('GIVEN no gkegw1 firewall rule in the network (so no cluster id to go by) WHEN lab is checked THEN the unlinked gkegw1- health check is not claimed', async () => {
    const without = (path: string) => {
      const page = fixture('leftovers', `${COMPUTE}/global/${path}`);
      return { status: 200, body: { ...page, items: page.items.filter((f: { name: string }) => f.name !== GATEWAY_RULE) } };
    };
    const found = await check('leftovers', 'lab', {
      [`${COMPUTE}/global/firewalls`]: without('firewalls'),
      [`${COMPUTE}/global/firewalls?pageToken=CkYKRAoIZmlyZXdhbGwSOGs4cy1mdy1sNy0t`]: without('firewalls.page-CkYKRAoIZmlyZXdhbGwSOGs4cy1mdy1sNy0t'),
    });
    expect(found.filter((l) => l.id.includes('gkegw1-'))).toEqual([]);
  });

  test("GIVEN the documented form gkegw1-l7-<network>-global (no cluster id) in lab's network, and a rule named for lab-gke on bob's network WHEN lab is checked THEN the first is the Gateway controller's rule and the second is not lab's", async () => {
    const page = fixture('leftovers', `${COMPUTE}/global/firewalls`);
    const like = page.items[0];
    const rule = (name: string, network: string) => ({ ...like, name, network: `${BASE}/global/networks/${network}`, selfLink: `${BASE}/global/firewalls/${name}` });
    const found = await check('leftovers', 'lab', {
      [`${COMPUTE}/global/firewalls`]: { status: 200, body: { ...page, items: [...page.items, rule('gkegw1-l7-lab-gke-us-central1', 'lab-gke'), rule('gkegw1-q5r6-l7-lab-gke-global', 'bob-gke')] } },
    });
    expect(found.filter((l) => l.kind === 'compute:firewall' && l.id.includes('gkegw1-')).map((l) => [l.id.split('/').pop(), l.matchedBy])).toEqual([
      ['gkegw1-l7-lab-gke-us-central1', GATEWAY_RULE_WHY],
      [GATEWAY_RULE, GATEWAY_RULE_WHY],
    ]);
  });
});
