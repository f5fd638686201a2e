/**
 * `watch --endpoints`' reads of the clusters (ServingPoller), on the real
 * clock against loopback Kubernetes APIs over TLS with recorded Pods: the
 * first read is what is there, a Pod that then leaves is news with its node,
 * a cluster that does not answer holds up no other and is never read twice at
 * once, and one that refuses, or cannot be reached from the outputs, is a
 * failure saying why. The waits poll for what they wait for, with no deadline
 * of their own (jest's is the safety net).
 */
import { REAL_WAIT_CLOCK } from '../../../lib/kit/cli/wait-clock';
import { ClusterTarget, hostClusterClient, HostTokens } from '../../../lib/lab/cluster/cluster-access';
import { readServingPods } from '../../../lib/lab/cluster/serving-pods';
import { ENDPOINTS_READ_MS, ServingPoller } from '../../../lib/commands/watch/serving-poller';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, refusingApi, serveKubernetesApi } from '../../support/kubernetes-api';

const pod = (name: string, node: string, deleting = false) => ({
  metadata: { name, ...(deleting ? { deletionTimestamp: '2026-12-07T10:00:00Z' } : {}) },
  spec: { nodeName: node },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});
const PODS = '/api/v1/namespaces/hoplab/pods';
const target = (env: string, server: string): ClusterTarget => ({
  env,
  cloud: 'gcp',
  clusterName: `${env}-gke`,
  server,
  caCertificateData: Buffer.from(LOOPBACK_CA).toString('base64'),
  region: 'europe-west1',
  location: 'europe-west1-b',
  owner: 'hoplab-test',
});
const tokens: HostTokens = { token: async () => HOST_TOKEN };
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
};

/** ann's cluster at `api`, read by a ServingPoller on the real clock until `done` (given the reads the API has answered); the poller, stopped. */
async function annPolled(api: KubernetesApi, done: (reads: number, poller: ServingPoller) => boolean): Promise<ServingPoller> {
  const poller = new ServingPoller({
    clusters: [{ key: 'ann/gcp', env: 'ann', cloud: 'gcp', target: target('ann', api.base) }],
    read: (t, notOlderThan) => readServingPods(hostClusterClient(t, tokens, 60_000), notOlderThan),
    now: () => REAL_WAIT_CLOCK.now(),
  });
  const stop = new AbortController();
  const running = poller.run(REAL_WAIT_CLOCK, stop.signal);
  await until(() => done(api.requests.filter((r) => r.path === PODS).length, poller));
  stop.abort();
  await running;
  return poller;
}

describe('ServingPoller against loopback Kubernetes APIs', () => {
  const servers: KubernetesApi[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  test('GIVEN a cluster whose Pod leaves after two reads, one that does not answer, one that refuses and one not in the outputs THEN the leaving Pod is news, the others failures, and the silent one is read once', async () => {
    const ann = await serveKubernetesApi({
      objects: {
        [PODS]: ((count: number) => ({ kind: 'PodList', items: [pod('echo-a', 'node-1'), pod('echo-b', 'node-2', count >= 2)] })) as never,
      },
    });
    const dee = await serveKubernetesApi({ route: () => 'hang' });
    servers.push(ann, dee);
    const refused = await refusingApi();
    const poller = new ServingPoller({
      clusters: [
        { key: 'ann/gcp', env: 'ann', cloud: 'gcp', target: target('ann', ann.base) },
        { key: 'dee/gcp', env: 'dee', cloud: 'gcp', target: target('dee', dee.base) },
        { key: 'cy/gcp', env: 'cy', cloud: 'gcp', target: target('cy', refused) },
        { key: 'bo/gcp', env: 'bo', cloud: 'gcp', target: { why: 'no outputs of bo-gcp-cluster (not deployed, or not in the outputs read)' } },
      ],
      read: (t) => readServingPods(hostClusterClient(t, tokens, 60_000)),
      now: () => REAL_WAIT_CLOCK.now(),
    });
    const stop = new AbortController();
    const running = poller.run(REAL_WAIT_CLOCK, stop.signal);
    await until(() => ann.requests.filter((r) => r.path === PODS).length >= 4 && poller.failures().length === 2);
    const news = poller.take();
    stop.abort();
    await running;

    expect(poller.intervalMs).toBe(ENDPOINTS_READ_MS);
    expect(news).toHaveLength(1);
    expect(news[0].env).toBe('ann');
    expect(news[0].change).toEqual({ podsLeft: [{ pod: 'echo-b', node: 'node-2', why: 'terminating' }], nodesLeft: ['node-2'] });
    expect(Object.fromEntries(news[0].serving.serving)).toEqual({ 'echo-a': 'node-1' });
    // Taken once: the next take is empty.
    expect(poller.take()).toEqual([]);
    // dee's first read has not ended: it was not read again meanwhile, and held up nobody.
    expect(dee.requests.filter((r) => r.path === PODS)).toHaveLength(1);
    expect(poller.failures().map((f) => f.key)).toEqual(['cy/gcp', 'bo/gcp']);
    expect(poller.failures()[0].why).toMatch(new RegExp(`^GET ${refused.replace(/[.]/g, '\\.')}/api/v1/namespaces/hoplab/pods\\?\\S+ failed: .*ECONNREFUSED`));
    expect(poller.failures()[1].why).toBe('no outputs of bo-gcp-cluster (not deployed, or not in the outputs read)');
  });

  test('GIVEN two API servers, one whose cache lags and answers resourceVersion=0 with the list before, WHEN a Pod leaves THEN it is news once, never back from the lagging cache', async () => {
    // The Pods at each resourceVersion: echo-b terminating from 11 on. The lagging server answers 0 with 10.
    const at = (rv: number) => ({ kind: 'PodList', metadata: { resourceVersion: String(rv) }, items: [pod('echo-a', 'node-1'), pod('echo-b', 'node-2', rv >= 11)] });
    const api = await serveKubernetesApi({
      objects: {
        [PODS]: ((count: number, query: URLSearchParams) => {
          const current = count === 0 ? 10 : 11;
          if (query.get('resourceVersion') === '0') return at(count === 0 ? current : 10);
          // NotOlderThan: a server waits until its cache has that version (both have 11 by then).
          return at(Math.max(current, Number(query.get('resourceVersion'))));
        }) as never,
      },
    });
    servers.push(api);
    const news = (await annPolled(api, (reads) => reads >= 4)).take();
    expect(news.map((n) => [n.change.podsLeft.map((p) => p.pod), [...n.serving.serving.keys()]])).toEqual([[['echo-b'], ['echo-a']]]);
    expect(api.requests.slice(1, 4).map((r) => [r.query.get('resourceVersion'), r.query.get('resourceVersionMatch')])).toEqual([
      ['10', 'NotOlderThan'],
      ['11', 'NotOlderThan'],
      ['11', 'NotOlderThan'],
    ]);
  });

  test('GIVEN a read that fails between two that succeed WHEN a Pod left meanwhile THEN it is news, counted from the last read that succeeded', async () => {
    const api = await serveKubernetesApi({
      objects: {
        [PODS]: ((count: number) =>
          count === 1
            ? { status: 503, reason: 'ServiceUnavailable', message: 'the server is busy' }
            : { kind: 'PodList', items: [pod('echo-a', 'node-1'), pod('echo-b', 'node-2', count >= 2)] }) as never,
      },
    });
    servers.push(api);
    const poller = await annPolled(api, (reads, p) => reads >= 3 && p.failures().length === 0);
    expect(poller.take().map((n) => n.change)).toEqual([{ podsLeft: [{ pod: 'echo-b', node: 'node-2', why: 'terminating' }], nodesLeft: ['node-2'] }]);
  });
});

describe('ServingPoller’s schedule', () => {
  test('GIVEN four clusters THEN their reads are spread over the interval, not all at its start', async () => {
    let now = 0;
    const started: string[] = [];
    const poller = new ServingPoller({
      clusters: ['a', 'b', 'c', 'd'].map((env) => ({ key: `${env}/gcp`, env, cloud: 'gcp' as const, target: target(env, 'https://127.0.0.1:9') })),
      read: (t) => {
        started.push(`${t.env}@${now}`);
        return new Promise(() => undefined);
      },
      now: () => now,
    });
    for (now = 0; now < ENDPOINTS_READ_MS; now += 50) {
      poller.tick();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(started).toEqual(['a@0', 'b@150', 'c@250', 'd@400']);
  });
});
