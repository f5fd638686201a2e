/**
 * The firewall cleanup teardown runs between `<env>-gcp-lb` and
 * `<env>-gcp-cluster`: against the leftover fixtures (lab's network holds the
 * Gateway controller's gkegw1 rule, the Ingress controller's k8s-fw-l7 rule and
 * two per-Service k8s2 rules; bob's network and the default network hold
 * Gateway rules of their own), served on loopback with firewalls.delete and
 * globalOperations.get.
 */
import { removeGkeControllerFirewalls } from '../../../lib/commands/lifecycle/gke-firewall-cleanup';
import { gatewayFirewallPattern, gkeControllerFirewall } from '../../../lib/lab/leftovers/gke-firewall-rules';
import { Answer, fixture, FIXTURE_PROJECT as PROJECT, FIXTURE_TOKEN as TOKEN, FixtureApi, googleError, serveGoogleFixtures } from '../../support/google-api';

const COMPUTE = `/compute/v1/projects/${PROJECT}`;
const BASE = `https://www.googleapis.com/compute/v1/projects/${PROJECT}`;
const GATEWAY = 'gkegw1-x7k2-l7-lab-gke-global';
const INGRESS = 'k8s-fw-l7--4f2a9c1d7e3b8a60';
const GATEWAY_WHY = "the GKE Gateway controller's rule for network lab-gke: one per cluster and network, it outlives the Gateways";
const INGRESS_WHY = "the GKE Ingress controller's rule, shared by every Ingress of the cluster";
const NO_NETWORK = 'a network with a rule on it cannot be deleted: deleting it';

let api: FixtureApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function cleanup(answers: Record<string, Answer> = {}, extra: { quotaProject?: string; operationTimeoutMs?: number } = {}) {
  api = await serveGoogleFixtures('leftovers', answers);
  const lines: string[] = [];
  const removed = await removeGkeControllerFirewalls({
    project: PROJECT,
    networkName: 'lab-gke',
    accessToken: TOKEN,
    computeApi: api.compute,
    pollMs: 10,
    write: (line) => lines.push(line.replace(/deleted in \d+\.\d s/, 'deleted in N s')),
    ...extra,
  });
  return { removed, lines, requests: api.requests };
}

/** The DONE operation the fixtures hold for a rule's delete. */
const doneOperation = (rule: string) => {
  const pending = fixture('leftovers', `${COMPUTE}/global/firewalls/${rule}.DELETE`);
  return { name: pending.name as string, done: fixture('leftovers', `${COMPUTE}/global/operations/${pending.name}`) };
};

describe('removeGkeControllerFirewalls', () => {
  test("GIVEN lab's network after its lb stack is gone WHEN cleaned THEN exactly the Gateway and Ingress controllers' per-cluster rules are deleted, each printed, each operation followed to DONE", async () => {
    const { removed, lines, requests } = await cleanup();
    expect(removed).toEqual([
      { name: GATEWAY, why: GATEWAY_WHY },
      { name: INGRESS, why: INGRESS_WHY },
    ]);
    expect(lines).toEqual([
      `firewall rule ${GATEWAY} in network lab-gke: ${GATEWAY_WHY}; ${NO_NETWORK}`,
      `firewall rule ${GATEWAY}: deleted in N s`,
      `firewall rule ${INGRESS} in network lab-gke: ${INGRESS_WHY}; ${NO_NETWORK}`,
      `firewall rule ${INGRESS}: deleted in N s`,
    ]);
    const writes = requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    expect(writes).toEqual([`DELETE ${COMPUTE}/global/firewalls/${GATEWAY}`, `DELETE ${COMPUTE}/global/firewalls/${INGRESS}`]);
    expect(requests.filter((r) => r.path.includes('/global/operations/')).map((r) => r.path)).toEqual([GATEWAY, INGRESS].map((rule) => `${COMPUTE}/global/operations/${doneOperation(rule).name}`));
  });

  test("GIVEN bob's Gateway rule, the default network's, and lab's per-Service k8s2 rules WHEN lab is cleaned THEN none of them is deleted", async () => {
    const { requests } = await cleanup();
    const deleted = requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').pop());
    for (const untouched of [
      'gkegw1-m3n4-l7-bob-gke-global',
      'gkegw1-l7-default-global',
      'k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e',
      'k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e-fw',
    ]) {
      expect(deleted).not.toContain(untouched);
    }
  });

  test("GIVEN a rule named like lab-gke's Gateway rule but on bob's network WHEN lab is cleaned THEN it is not touched: the network URL decides, not the name", async () => {
    const page = fixture('leftovers', `${COMPUTE}/global/firewalls`);
    const impostor = { ...page.items[0], name: 'gkegw1-q5r6-l7-lab-gke-global', network: `${BASE}/global/networks/bob-gke`, selfLink: `${BASE}/global/firewalls/gkegw1-q5r6-l7-lab-gke-global` };
    const { requests } = await cleanup({ [`${COMPUTE}/global/firewalls`]: { status: 200, body: { ...page, items: [...page.items, impostor] } } });
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').pop())).toEqual([GATEWAY, INGRESS]);
  });

  test('GIVEN a delete that takes a while (PENDING, RUNNING, RUNNING, DONE) WHEN cleaned THEN it reads the operation until DONE', async () => {
    const { name, done } = doneOperation(GATEWAY);
    const running = { ...done, status: 'RUNNING', progress: 0 };
    const { lines, requests } = await cleanup({
      [`${COMPUTE}/global/operations/${name}`]: [
        { status: 200, body: running },
        { status: 200, body: running },
        { status: 200, body: done },
      ],
    });
    expect(requests.filter((r) => r.path === `${COMPUTE}/global/operations/${name}`)).toHaveLength(3);
    expect(lines).toContain(`firewall rule ${GATEWAY}: deleted in N s`);
  });

  test('GIVEN a rule gone by the time it is deleted (404) WHEN cleaned THEN it says so and goes on', async () => {
    const { lines, removed } = await cleanup({
      [`DELETE ${COMPUTE}/global/firewalls/${GATEWAY}`]: {
        status: 404,
        body: googleError(404, 'NOT_FOUND', `The resource 'projects/${PROJECT}/global/firewalls/${GATEWAY}' was not found`, 'notFound'),
      },
    });
    expect(lines.slice(0, 2)).toEqual([`firewall rule ${GATEWAY} in network lab-gke: ${GATEWAY_WHY}; ${NO_NETWORK}`, `firewall rule ${GATEWAY}: already gone`]);
    expect(removed.map((r) => r.name)).toEqual([GATEWAY, INGRESS]);
  });

  test('GIVEN the deployer may not delete firewall rules (403) WHEN cleaned THEN it rejects naming the rule, the request and Google’s message', async () => {
    const message = `Required 'compute.firewalls.delete' permission for 'projects/${PROJECT}/global/firewalls/${GATEWAY}'`;
    const run = cleanup({ [`DELETE ${COMPUTE}/global/firewalls/${GATEWAY}`]: { status: 403, body: googleError(403, 'PERMISSION_DENIED', message, 'forbidden') } });
    await expect(run).rejects.toThrow(
      new RegExp(
        `^could not delete firewall rule ${GATEWAY} of network lab-gke: DELETE http://127\\.0\\.0\\.1:\\d+${COMPUTE}/global/firewalls/${GATEWAY} answered 403 \\(PERMISSION_DENIED\\): ${message.replace(
          /[.*+?^${}()|[\]\\]/g,
          '\\$&',
        )}$`,
      ),
    );
  });

  test('GIVEN an operation that ends with an error WHEN cleaned THEN it rejects with the operation’s error', async () => {
    const { name, done } = doneOperation(GATEWAY);
    const failed = { ...done, error: { errors: [{ code: 'RESOURCE_IN_USE_BY_ANOTHER_RESOURCE', message: 'The firewall is in use' }] } };
    await expect(cleanup({ [`${COMPUTE}/global/operations/${name}`]: { status: 200, body: failed } })).rejects.toThrow(
      `deleting firewall rule ${GATEWAY} failed: RESOURCE_IN_USE_BY_ANOTHER_RESOURCE: The firewall is in use`,
    );
  });

  test('GIVEN an operation that never finishes WHEN cleaned with a bound THEN it rejects at the bound, naming the operation', async () => {
    const { name, done } = doneOperation(GATEWAY);
    await expect(cleanup({ [`${COMPUTE}/global/operations/${name}`]: { status: 200, body: { ...done, status: 'RUNNING' } } }, { operationTimeoutMs: 200 })).rejects.toThrow(
      `deleting firewall rule ${GATEWAY}: operation ${name} still RUNNING after 0 s`,
    );
  });

  test('GIVEN a quota project WHEN cleaned THEN the list, the deletes and the operation reads all send it', async () => {
    const { requests } = await cleanup({}, { quotaProject: 'billing-proj' });
    expect(requests.length).toBeGreaterThan(4);
    expect(requests.filter((r) => r.userProject !== 'billing-proj')).toEqual([]);
  });
});

describe('the per-cluster rule names', () => {
  const lab = `${BASE}/global/networks/lab-gke`;
  test.each([
    ['gkegw1-x7k2-l7-lab-gke-global', 'gateway', 'x7k2'],
    ['gkegw1-l7-lab-gke-global', 'gateway', undefined],
    ['gkegw1-x7k2-l7-lab-gke-us-central1', 'gateway', 'x7k2'],
    ['k8s-fw-l7--4f2a9c1d7e3b8a60', 'ingress', '4f2a9c1d7e3b8a60'],
    ['k8s2-x7k2m9qp-l4-shared-hc-fw', 'l4-shared-health-check', 'x7k2m9qp'],
    ['k8s-4f2a9c1d7e3b8a60-node-http-hc', 'legacy-node-health-check', '4f2a9c1d7e3b8a60'],
  ])('GIVEN %s in network lab-gke WHEN named THEN it is the %s controller’s rule, cluster id %s', (name, owner, clusterId) => {
    const made = gkeControllerFirewall({ name, network: lab }, PROJECT, 'lab-gke');
    expect([made?.owner, made?.clusterId]).toEqual([owner, clusterId]);
  });

  test.each([
    ['gkegw1-x7k2-l7-lab-gke-global', `${BASE}/global/networks/bob-gke`, 'another network'],
    ['gkegw1-x7k2-l7-lab-gke2-global', lab, "another network's name"],
    ['gkegw1-x7k2-l7-lab-gke-us-global', lab, "network lab-gke-us's"],
    ['k8s2-x7k2m9qp-hoplab-echo-nodeport-local-5d0c3b7e-fw', lab, 'one Service’s (goes with its Service)'],
    ['k8s-fw-a3f1c8e2b7d94a5e8c1f0b6d2e9a7c43', lab, 'one legacy Service’s'],
    ['lab-gke-allow-l7-lab', lab, 'Terraform’s'],
    ['gke-lab-gke-3c5e7a91-all', lab, 'the cluster’s own (deleted with the cluster)'],
  ])('GIVEN %s (%s) WHEN named THEN it is not a per-cluster controller rule of lab-gke', (name, network) => {
    expect(gkeControllerFirewall({ name, network }, PROJECT, 'lab-gke')).toBeUndefined();
  });

  test('GIVEN a network name with regex characters WHEN the pattern is built THEN they match only themselves', () => {
    expect(gatewayFirewallPattern('a.b').test('gkegw1-l7-axb-global')).toBe(false);
    expect(gatewayFirewallPattern('a.b').test('gkegw1-l7-a.b-global')).toBe(true);
  });
});
