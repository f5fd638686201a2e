/**
 * Which of a project's resources are an environment's (lib/lab/leftovers/gcp-classify.ts): a
 * pure function of plain data, tested here without a server. test/lab/leftovers/gcp-leftovers.test.ts
 * checks the whole check against the APIs served on loopback.
 */
import { GoogleItem as Item } from '../../../lib/kit/google/google-api-reader';
import { classifyGcpLeftovers, GcpEnvironment, GcpInventory } from '../../../lib/lab/leftovers/gcp-classify';
import { Leftover } from '../../../lib/lab/leftovers/leftover';

const PROJECT = 'demo';
const P = `projects/${PROJECT}`;
/** A resource URL as the API writes it; the host and version vary (`www.googleapis.com`, `compute.googleapis.com`, `beta`). */
const url = (path: string, host = 'https://www.googleapis.com/compute/v1') => `${host}/${P}/${path}`;
const LAB_NET = url('global/networks/lab-gke');
const BOB_NET = url('global/networks/bob-gke');

const EMPTY: GcpInventory = {
  networks: [],
  firewalls: [],
  httpHealthChecks: [],
  subnetworks: [],
  routers: [],
  negs: [],
  instanceGroups: [],
  instances: [],
  targetPools: [],
  backendServices: [],
  urlMaps: [],
  httpProxies: [],
  httpsProxies: [],
  forwardingRules: [],
  healthChecks: [],
  clusters: [],
  addresses: [],
  sslCertificates: [],
  securityPolicies: [],
  serviceAccounts: [],
  iamBindings: [],
};
const LAB: GcpEnvironment = { env: 'lab', project: PROJECT, networkName: 'lab-gke', clusterName: 'lab-gke' };

/** An item named `name` at `path` (its selfLink), with more fields. */
const item = (path: string, extra: Record<string, unknown> = {}): Item => ({ name: path.split('/').pop()!, selfLink: url(path), ...extra });
const classify = (inventory: Partial<GcpInventory>, env: Partial<GcpEnvironment> = {}) => classifyGcpLeftovers({ ...EMPTY, ...inventory }, { ...LAB, ...env });
const found = (leftovers: Leftover[]) => leftovers.map((l) => `${l.kind} ${l.id} (${l.matchedBy})`);

describe('classifyGcpLeftovers', () => {
  test('GIVEN an empty project THEN nothing is left', () => {
    expect(classify({})).toEqual([]);
  });

  test("GIVEN the network's own pieces and bob's THEN lab's are reported by network, in the order they can be deleted in, and none of bob's", () => {
    const leftovers = classify({
      networks: [item('global/networks/lab-gke'), item('global/networks/bob-gke'), item('global/networks/lab-gke2')],
      subnetworks: [item('regions/us-central1/subnetworks/lab-gke', { network: LAB_NET }), item('regions/us-central1/subnetworks/bob-gke', { network: BOB_NET })],
      routers: [item('regions/us-central1/routers/lab-gke-router', { network: LAB_NET })],
      firewalls: [item('global/firewalls/lab-gke-health-checks', { network: LAB_NET }), item('global/firewalls/bob-gke-health-checks', { network: BOB_NET })],
      negs: [item('zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', { network: LAB_NET })],
      instances: [item('zones/us-central1-b/instances/gke-lab-gke-nodes-1', { networkInterfaces: [{ network: LAB_NET }] })],
    });
    expect(found(leftovers)).toEqual([
      `compute:instance ${P}/zones/us-central1-b/instances/gke-lab-gke-nodes-1 (in network lab-gke)`,
      `compute:network-endpoint-group ${P}/zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d (in network lab-gke)`,
      `compute:firewall ${P}/global/firewalls/lab-gke-health-checks (in network lab-gke)`,
      `compute:router ${P}/regions/us-central1/routers/lab-gke-router (in network lab-gke)`,
      `compute:subnetwork ${P}/regions/us-central1/subnetworks/lab-gke (in network lab-gke)`,
      `compute:network ${P}/global/networks/lab-gke (network name)`,
    ]);
  });

  test('GIVEN a load balancer over a NEG of the network THEN each piece is found through the one it links to, whatever host or API version the link is written with', () => {
    const neg = item('zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', { network: LAB_NET });
    const service = item('global/backendServices/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', {
      backends: [{ group: url('zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', 'https://compute.googleapis.com/compute/beta') }],
      healthChecks: [url('global/healthChecks/k8s1-4f2a9c1d-hoplab-echo-80-hc')],
    });
    const map = item('global/urlMaps/k8s2-um-abcdefgh-hoplab-echo-x', { pathMatchers: [{ routeRules: [{ routeAction: { weightedBackendServices: [{ backendService: service.selfLink }] } }] }] });
    const proxy = item('global/targetHttpsProxies/k8s2-ts-abcdefgh-hoplab-echo-x', { urlMap: map.selfLink, sslCertificates: [url('global/sslCertificates/k8s2-cr-abcdefgh-x')] });
    const rule = item('global/forwardingRules/k8s2-fs-abcdefgh-hoplab-echo-x', { target: proxy.selfLink });
    const leftovers = classify({
      negs: [neg],
      backendServices: [service, item('global/backendServices/someone-elses')],
      urlMaps: [map],
      httpsProxies: [proxy],
      forwardingRules: [rule],
      addresses: [item('global/addresses/lab-ip', { users: [rule.selfLink] })],
      sslCertificates: [item('global/sslCertificates/k8s2-cr-abcdefgh-x')],
      healthChecks: [item('global/healthChecks/k8s1-4f2a9c1d-hoplab-echo-80-hc')],
    });
    expect(found(leftovers)).toEqual([
      `compute:forwarding-rule ${P}/global/forwardingRules/k8s2-fs-abcdefgh-hoplab-echo-x (sends to a target proxy or target pool of the environment)`,
      `compute:address ${P}/global/addresses/lab-ip (used by a forwarding rule of the environment)`,
      `compute:target-proxy ${P}/global/targetHttpsProxies/k8s2-ts-abcdefgh-hoplab-echo-x (uses a URL map of the environment)`,
      `compute:ssl-certificate ${P}/global/sslCertificates/k8s2-cr-abcdefgh-x (used by a target proxy of the environment)`,
      `compute:url-map ${P}/global/urlMaps/k8s2-um-abcdefgh-hoplab-echo-x (routes to a backend service of the environment)`,
      `compute:backend-service ${P}/global/backendServices/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d (backends are NEGs or instance groups of the environment)`,
      `compute:health-check ${P}/global/healthChecks/k8s1-4f2a9c1d-hoplab-echo-80-hc (used by a backend service or target pool of the environment)`,
      `compute:network-endpoint-group ${P}/zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d (in network lab-gke)`,
    ]);
  });

  test("GIVEN pieces no link reaches any more THEN those named with a cluster id of the network's pieces are the environment's, and bob's are not", () => {
    const leftovers = classify({
      negs: [item('zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', { network: LAB_NET })],
      firewalls: [item('global/firewalls/k8s-fw-l7--4f2a9c1d0e5b6a7c', { network: LAB_NET })],
      // An emptied instance group has no network; orphaned health checks link to nothing.
      instanceGroups: [item('zones/us-central1-b/instanceGroups/k8s-ig--4f2a9c1d0e5b6a7c'), item('zones/us-central1-b/instanceGroups/k8s-ig--9b9b9b9b9b9b9b9b')],
      healthChecks: [item('global/healthChecks/k8s1-4f2a9c1d-hoplab-echo-80-hc'), item('global/healthChecks/k8s1-9b9b9b9b-hoplab-echo-80-hc')],
    });
    const byId = (id: string) => `GKE name with cluster id ${id} (from network lab-gke)`;
    expect(found(leftovers)).toEqual([
      `compute:health-check ${P}/global/healthChecks/k8s1-4f2a9c1d-hoplab-echo-80-hc (${byId('4f2a9c1d')})`,
      `compute:network-endpoint-group ${P}/zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d (in network lab-gke)`,
      `compute:instance-group ${P}/zones/us-central1-b/instanceGroups/k8s-ig--4f2a9c1d0e5b6a7c (${byId('4f2a9c1d0e5b6a7c')})`,
      `compute:firewall ${P}/global/firewalls/k8s-fw-l7--4f2a9c1d0e5b6a7c (in network lab-gke)`,
    ]);
  });

  test("GIVEN the Gateway controller's rule on the network THEN it is reported with why it stays, and its cluster hash finds an orphaned gkegw1- health check", () => {
    const leftovers = classify({
      firewalls: [item('global/firewalls/gkegw1-x7k2-l7-lab-gke-global', { network: LAB_NET }), item('global/firewalls/gkegw1-q1w2-l7-bob-gke-global', { network: BOB_NET })],
      healthChecks: [item('global/healthChecks/gkegw1-x7k2-hoplab-echo-gateway-80-a1'), item('global/healthChecks/gkegw1-q1w2-hoplab-echo-gateway-80-b2')],
    });
    expect(found(leftovers)).toEqual([
      `compute:health-check ${P}/global/healthChecks/gkegw1-x7k2-hoplab-echo-gateway-80-a1 (GKE name with cluster id gkegw1-x7k2 (from network lab-gke))`,
      `compute:firewall ${P}/global/firewalls/gkegw1-x7k2-l7-lab-gke-global (the GKE Gateway controller's rule for network lab-gke: one per cluster and network, it outlives the Gateways)`,
    ]);
  });

  test("GIVEN a legacy target-pool load balancer whose nodes are gone THEN its pool, forwarding rule and HTTP health check are found by the network's k8s-fw-<name> rule", () => {
    const name = 'a0123456789abcdef0123456789abcd';
    const leftovers = classify({
      firewalls: [item(`global/firewalls/k8s-fw-${name}`, { network: LAB_NET })],
      targetPools: [item(`regions/us-central1/targetPools/${name}`), item('regions/us-central1/targetPools/affffffffffffffffffffffffffffff')],
      forwardingRules: [item(`regions/us-central1/forwardingRules/${name}`)],
      httpHealthChecks: [item(`global/httpHealthChecks/${name}`)],
    });
    const why = `legacy load balancer with firewall rule k8s-fw-${name} in network lab-gke`;
    expect(found(leftovers)).toEqual([
      `compute:forwarding-rule ${P}/regions/us-central1/forwardingRules/${name} (${why})`,
      `compute:target-pool ${P}/regions/us-central1/targetPools/${name} (${why})`,
      `compute:health-check ${P}/global/httpHealthChecks/${name} (${why})`,
      `compute:firewall ${P}/global/firewalls/k8s-fw-${name} (in network lab-gke)`,
    ]);
  });

  test('GIVEN reserved addresses THEN those in the network, in its subnet or labelled with the environment are its, and another one is not', () => {
    const leftovers = classify({
      subnetworks: [item('regions/us-central1/subnetworks/lab-gke', { network: LAB_NET })],
      addresses: [
        item('regions/us-central1/addresses/internal', { subnetwork: url('regions/us-central1/subnetworks/lab-gke') }),
        item('global/addresses/labelled', { labels: { 'hoplab-env': 'lab' } }),
        item('global/addresses/bobs', { labels: { 'hoplab-env': 'bob' } }),
      ],
    });
    expect(found(leftovers).filter((l) => l.startsWith('compute:address'))).toEqual([
      `compute:address ${P}/global/addresses/labelled (label hoplab-env=lab)`,
      `compute:address ${P}/regions/us-central1/addresses/internal (in network lab-gke)`,
    ]);
  });

  test("GIVEN the cluster, the Cloud Armor policy, the nodes' service account and its binding THEN each is found by its exact name, lab2's never", () => {
    const email = `lab-gke-nodes@${PROJECT}.iam.gserviceaccount.com`;
    const leftovers = classify({
      clusters: [
        { name: 'lab-gke', location: 'us-central1-b' },
        { name: 'lab-gke2', location: 'us-central1-b' },
      ],
      securityPolicies: [item('global/securityPolicies/lab-gke-sources'), item('global/securityPolicies/lab-gke-sources2')],
      serviceAccounts: [
        { name: `${P}/serviceAccounts/${email}`, email },
        { name: 'other', email: `lab2-gke-nodes@${PROJECT}.iam.gserviceaccount.com` },
      ],
      iamBindings: [
        { role: 'roles/container.defaultNodeServiceAccount', members: [`serviceAccount:${email}`, `serviceAccount:lab2-gke-nodes@${PROJECT}.iam.gserviceaccount.com`] },
        { role: 'roles/logging.logWriter', members: [`deleted:serviceAccount:${email}?uid=1234567890`] },
      ],
    });
    expect(found(leftovers)).toEqual([
      `container:cluster ${P}/locations/us-central1-b/clusters/lab-gke (cluster name)`,
      `compute:security-policy ${P}/global/securityPolicies/lab-gke-sources (security policy name)`,
      `iam:project-binding ${P} roles/container.defaultNodeServiceAccount serviceAccount:${email} (member ${email})`,
      `iam:project-binding ${P} roles/logging.logWriter deleted:serviceAccount:${email}?uid=1234567890 (member ${email})`,
      `iam:service-account ${P}/serviceAccounts/${email} (email ${email})`,
    ]);
  });

  test("GIVEN the controller scope (the cluster kept) THEN only what GKE's load-balancer controllers made counts, by kind and name", () => {
    const inventory: Partial<GcpInventory> = {
      networks: [item('global/networks/lab-gke')],
      subnetworks: [item('regions/us-central1/subnetworks/lab-gke', { network: LAB_NET })],
      clusters: [{ name: 'lab-gke', location: 'us-central1-b' }],
      firewalls: [
        item('global/firewalls/k8s-fw-l7--4f2a9c1d0e5b6a7c', { network: LAB_NET }),
        item('global/firewalls/gkegw1-x7k2-l7-lab-gke-global', { network: LAB_NET }),
        item('global/firewalls/gke-lab-gke-1a2b3c4d-all', { network: LAB_NET }),
        item('global/firewalls/lab-gke-health-checks', { network: LAB_NET }),
      ],
      instanceGroups: [
        item('zones/us-central1-b/instanceGroups/k8s-ig--4f2a9c1d0e5b6a7c', { network: LAB_NET }),
        item('zones/us-central1-b/instanceGroups/gke-lab-gke-nodes-grp', { network: LAB_NET }),
      ],
      negs: [item('zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', { network: LAB_NET })],
    };
    const ids = (scope: GcpEnvironment['scope']) => classify(inventory, { scope }).map((l) => l.id.split('/').pop());
    expect(ids('controller')).toEqual(['k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', 'k8s-ig--4f2a9c1d0e5b6a7c', 'gkegw1-x7k2-l7-lab-gke-global', 'k8s-fw-l7--4f2a9c1d0e5b6a7c']);
    expect(ids('environment')).toHaveLength(10);
  });

  test('GIVEN the same resource in a global and a regional list THEN the first reason it was found for is kept, and it is listed once', () => {
    const neg = item('zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d', { network: LAB_NET });
    const service = item('global/backendServices/k8s1-4f2a9c1d-x', { backends: [{ group: neg.selfLink }], network: LAB_NET });
    expect(found(classify({ negs: [neg], backendServices: [service, { ...service }] }))).toEqual([
      `compute:backend-service ${P}/global/backendServices/k8s1-4f2a9c1d-x (backends are NEGs or instance groups of the environment)`,
      `compute:network-endpoint-group ${P}/zones/us-central1-b/networkEndpointGroups/k8s1-4f2a9c1d-hoplab-echo-80-0a1b2c3d (in network lab-gke)`,
    ]);
  });
});
