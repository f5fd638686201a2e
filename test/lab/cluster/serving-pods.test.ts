/**
 * Which of the app's Pods serve, as `watch --endpoints` reads them: from Pod
 * objects (Ready, not being deleted, on a node), what left between two reads
 * (and why), and the read itself against a loopback Kubernetes API over TLS
 * with recorded Pods: the app's labels, the API server's cache, the host's
 * token, and an API that refuses.
 */
import { KubernetesClient } from '../../../lib/kit/kubernetes/kubernetes-client';
import { APP_POD_SELECTOR, readServingPods, servingChange, servingOf } from '../../../lib/lab/cluster/serving-pods';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, serveKubernetesApi } from '../../support/kubernetes-api';

const pod = (name: string, options: { node?: string; ready?: boolean; deleting?: boolean } = {}) => ({
  metadata: { name, ...(options.deleting ? { deletionTimestamp: '2026-12-07T10:00:00Z' } : {}) },
  spec: options.node === '' ? {} : { nodeName: options.node ?? `node-${name}` },
  status: {
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: options.ready === false ? 'False' : 'True' },
    ],
  },
});

describe('servingOf', () => {
  test('GIVEN Pods ready, terminating (still Ready), not ready and unscheduled THEN only the ready one not being deleted serves, on its node', () => {
    const pods = servingOf([pod('a'), pod('b', { deleting: true }), pod('c', { ready: false }), pod('d', { node: '', ready: true }), { metadata: {} }]);
    expect(Object.fromEntries(pods.serving)).toEqual({ a: 'node-a' });
    expect(Object.fromEntries(pods.notServing)).toEqual({ b: 'terminating', c: 'not ready', d: 'on no node' });
  });
});

describe('servingChange', () => {
  const before = servingOf([pod('a', { node: 'n1' }), pod('b', { node: 'n2' }), pod('c', { node: 'n2' }), pod('d', { node: 'n3' })]);

  test('GIVEN Pods deleted, terminating and not ready THEN each left, saying why; a node left only once none of its Pods serves', () => {
    const after = servingOf([pod('a', { node: 'n1' }), pod('b', { node: 'n2', deleting: true }), pod('c', { node: 'n2' }), pod('e', { node: 'n4', ready: false })]);
    expect(servingChange(before, after)).toEqual({
      podsLeft: [
        { pod: 'b', node: 'n2', why: 'terminating' },
        { pod: 'd', node: 'n3', why: 'deleted' },
      ],
      nodesLeft: ['n3'],
    });
  });

  test('GIVEN the same Pods THEN nothing left', () => {
    expect(servingChange(before, before)).toEqual({ podsLeft: [], nodesLeft: [] });
  });

  test('GIVEN a Pod not ready, then its node drained of the other THEN the node is left once both are out', () => {
    const oneOut = servingOf([pod('a', { node: 'n1' }), pod('b', { node: 'n2', ready: false }), pod('c', { node: 'n2' }), pod('d', { node: 'n3' })]);
    expect(servingChange(before, oneOut).nodesLeft).toEqual([]);
    const bothOut = servingOf([pod('a', { node: 'n1' }), pod('d', { node: 'n3' })]);
    expect(servingChange(oneOut, bothOut)).toEqual({ podsLeft: [{ pod: 'c', node: 'n2', why: 'deleted' }], nodesLeft: ['n2'] });
  });
});

describe('readServingPods against a loopback Kubernetes API over TLS', () => {
  let api: KubernetesApi;
  beforeAll(async () => {
    api = await serveKubernetesApi({
      objects: { '/api/v1/namespaces/hoplab/pods': { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [pod('echo-a'), pod('echo-b', { deleting: true })] } as never },
    });
  });
  afterAll(() => api.close());

  test('GIVEN the host’s token THEN one list of the app’s Pods, from the API server’s cache, says which serve', async () => {
    const pods = await readServingPods(new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: HOST_TOKEN }));
    expect(Object.fromEntries(pods.serving)).toEqual({ 'echo-a': 'node-echo-a' });
    expect(Object.fromEntries(pods.notServing)).toEqual({ 'echo-b': 'terminating' });
    const request = api.requests.at(-1)!;
    expect([request.path, request.query.get('labelSelector'), request.query.get('resourceVersion'), request.user]).toEqual(['/api/v1/namespaces/hoplab/pods', APP_POD_SELECTOR, '0', 'host']);
    expect(APP_POD_SELECTOR).toBe('app.kubernetes.io/name=hoplab-echo,app.kubernetes.io/part-of=hoplab');
  });

  test('GIVEN the resourceVersion of the list before THEN the read asks the cache for nothing older, and says the new list’s', async () => {
    const versioned = await serveKubernetesApi({
      objects: { '/api/v1/namespaces/hoplab/pods': { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '4712' }, items: [pod('echo-a')] } as never },
    });
    try {
      const client = new KubernetesClient({ server: versioned.base, caCertificate: LOOPBACK_CA, token: HOST_TOKEN });
      expect((await readServingPods(client)).resourceVersion).toBe('4712');
      expect((await readServingPods(client, '4711')).resourceVersion).toBe('4712');
      const [first, next] = versioned.requests.map((r) => Object.fromEntries(r.query));
      expect(first).toEqual({ labelSelector: APP_POD_SELECTOR, resourceVersion: '0' });
      expect(next).toEqual({ labelSelector: APP_POD_SELECTOR, resourceVersion: '4711', resourceVersionMatch: 'NotOlderThan' });
    } finally {
      await versioned.close();
    }
  });

  test('GIVEN a token the API refuses THEN the read fails saying which request and why', async () => {
    const read = readServingPods(new KubernetesClient({ server: api.base, caCertificate: LOOPBACK_CA, token: 'not-a-token' }));
    await expect(read).rejects.toThrow(
      `GET ${api.base}/api/v1/namespaces/hoplab/pods?labelSelector=app.kubernetes.io%2Fname%3Dhoplab-echo%2Capp.kubernetes.io%2Fpart-of%3Dhoplab&resourceVersion=0 answered 401`,
    );
  });
});
