/**
 * The Google REST reader tries an idempotent GET again when the API is
 * overloaded or failing for a moment (429, 500, 502, 503, 504) or the
 * connection is reset, with growing, jittered waits and a bounded number of
 * attempts, honouring Retry-After; nothing else is tried again. Against the
 * loopback API of test/support/google-api.ts; the waits are recorded, not
 * waited.
 */
import { ApiError, GOOGLE_RETRY, GoogleApiReader, GoogleApiReaderOptions } from '../../../lib/kit/google/google-api-reader';
import { GOOGLE_CALLS } from '../../../lib/lab/checks/google-calls';
import { findGcpLeftovers } from '../../../lib/lab/leftovers/gcp-leftovers';
import { Answer, fixture, FIXTURE_PROJECT as PROJECT, FIXTURE_TOKEN as TOKEN, FixtureApi, googleError, serveGoogleFixtures } from '../../support/google-api';

const NETWORKS = `/compute/v1/projects/${PROJECT}/global/networks`;
const UNAVAILABLE = { status: 503, body: googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'backendError') };
const TOO_MANY = (retryAfter: string) => ({ status: 429, body: googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', 'rateLimitExceeded'), headers: { 'Retry-After': retryAfter } });
const OK = { status: 200, body: fixture('clean', NETWORKS) };

let api: FixtureApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** A reader of the loopback API answering `answers`; its waits are recorded in `waits` and take no time. */
async function reader(answers: Record<string, Answer>, options: Partial<GoogleApiReaderOptions> = {}) {
  api = await serveGoogleFixtures('clean', answers);
  const waits: number[] = [];
  const read = new GoogleApiReader({
    accessToken: TOKEN,
    timeoutMs: 5000,
    bases: { compute: api.compute, resourceManager: api.resourceManager },
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
    ...options,
  });
  const asked = (path: string) => api!.requests.filter((r) => r.path === path).length;
  return { read, waits, asked };
}

const rejection = (run: Promise<unknown>) =>
  run.then(
    () => {
      throw new Error('expected it to fail');
    },
    (error: unknown) => error as ApiError,
  );

describe('GoogleApiReader retries', () => {
  test('GIVEN a list that answers 503, then 200 WHEN read THEN it is asked again after 1-2 s and the second answer is the result', async () => {
    const { read, waits, asked } = await reader({ [NETWORKS]: [UNAVAILABLE, OK] });
    const networks = await read.list(GOOGLE_CALLS.networksList, { project: PROJECT });
    expect(networks.map((n) => n.name)).toEqual((fixture('clean', NETWORKS) as { items: { name: string }[] }).items.map((n) => n.name));
    expect(asked(NETWORKS)).toBe(2);
    // 1 s, and half of another second of jitter (random() = 0.5).
    expect(waits).toEqual([1500]);
  });

  test('GIVEN 429 with Retry-After WHEN read THEN it waits what the API asked, then again', async () => {
    const { read, waits, asked } = await reader({ [NETWORKS]: [TOO_MANY('7'), TOO_MANY('Wed, 21 Oct 2015 07:28:00 GMT'), OK] });
    await read.list(GOOGLE_CALLS.networksList, { project: PROJECT });
    expect(asked(NETWORKS)).toBe(3);
    // Seconds as asked; an HTTP date already past is no wait.
    expect(waits).toEqual([7000, 0]);
  });

  test('GIVEN an API that always answers 503 WHEN read THEN it gives up after the bounded attempts, with growing waits, and says how many it made', async () => {
    const { read, waits, asked } = await reader({ [NETWORKS]: UNAVAILABLE });
    const error = await rejection(read.list(GOOGLE_CALLS.networksList, { project: PROJECT }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    expect(error.message).toBe(`GET ${api!.compute}/projects/${PROJECT}/global/networks answered 503 (UNAVAILABLE): The service is currently unavailable. (4 attempts)`);
    expect(asked(NETWORKS)).toBe(GOOGLE_RETRY.attempts);
    expect(waits).toEqual([1500, 2500, 4500]);
  });

  test('GIVEN a Retry-After longer than it waits WHEN read THEN it stops at once and says what was asked', async () => {
    const { read, waits, asked } = await reader({ [NETWORKS]: TOO_MANY('120') });
    const error = await rejection(read.list(GOOGLE_CALLS.networksList, { project: PROJECT }));
    expect(error.message).toMatch(/ answered 429 \(RESOURCE_EXHAUSTED\): Quota exceeded\. \(1 attempt; it asked to be tried again after 120 s, longer than the 30 s hoplab waits\)$/);
    expect([asked(NETWORKS), waits.length]).toEqual([1, 0]);
  });

  test('GIVEN each of 500, 502 and 504 once WHEN read THEN each is tried again', async () => {
    const once = (status: number) => ({ status, body: googleError(status, 'INTERNAL', 'try again', 'backendError') });
    const { read, waits, asked } = await reader({ [NETWORKS]: [once(500), once(502), once(504), OK] });
    await read.list(GOOGLE_CALLS.networksList, { project: PROJECT });
    expect([asked(NETWORKS), waits.length]).toEqual([4, 3]);
  });

  test('GIVEN a connection reset under the first request WHEN read THEN it is tried again', async () => {
    const { read, waits, asked } = await reader({ [NETWORKS]: ['reset', OK] });
    await read.list(GOOGLE_CALLS.networksList, { project: PROJECT });
    expect([asked(NETWORKS), waits]).toEqual([2, [1500]]);
  });

  test('GIVEN an answer that will not change (403) WHEN read THEN it is not tried again, and the message is as before', async () => {
    const denied = { status: 403, body: googleError(403, 'PERMISSION_DENIED', "Required 'compute.networks.list' permission", 'forbidden') };
    const { read, waits, asked } = await reader({ [NETWORKS]: [denied, OK] });
    const error = await rejection(read.list(GOOGLE_CALLS.networksList, { project: PROJECT }));
    expect(error.message).toBe(`GET ${api!.compute}/projects/${PROJECT}/global/networks answered 403 (PERMISSION_DENIED): Required 'compute.networks.list' permission`);
    expect([asked(NETWORKS), waits.length]).toEqual([1, 0]);
  });

  test('GIVEN a POST (getIamPolicy) that answers 503 WHEN called THEN it is not tried again', async () => {
    const path = `/crm/v1/projects/${PROJECT}:getIamPolicy`;
    const { read, waits, asked } = await reader({ [path]: [UNAVAILABLE, { status: 200, body: { bindings: [] } }] });
    const error = await rejection(read.call(GOOGLE_CALLS.getIamPolicy, { project: PROJECT }, { body: {} }));
    expect(error.message).toMatch(/^POST \S+:getIamPolicy answered 503 \(UNAVAILABLE\): The service is currently unavailable\.$/);
    expect([asked(path), waits.length]).toEqual([1, 0]);
  });

  test('GIVEN a list whose second page answers 503 once WHEN read THEN that page is asked again and every page is read', async () => {
    const path = `/compute/v1/projects/${PROJECT}/global/firewalls`;
    const first = { status: 200, body: { kind: 'compute#firewallList', items: [{ name: 'a' }], nextPageToken: 'p2' } };
    const second = { status: 200, body: { kind: 'compute#firewallList', items: [{ name: 'b' }] } };
    const { read, waits } = await reader({ [path]: first, [`${path}?pageToken=p2`]: [UNAVAILABLE, second] });
    expect((await read.list(GOOGLE_CALLS.firewallsList, { project: PROJECT })).map((f) => f.name)).toEqual(['a', 'b']);
    expect(waits).toEqual([1500]);
  });
});

describe('the GCP leftover check with a flaky API', () => {
  const query = (a: FixtureApi, waits: number[]) => ({
    env: 'lab',
    project: PROJECT,
    networkName: 'lab-gke',
    clusterName: 'lab-gke',
    accessToken: TOKEN,
    computeApi: a.compute,
    containerApi: a.container,
    iamApi: a.iam,
    resourceManagerApi: a.resourceManager,
    sleep: async (ms: number) => void waits.push(ms),
  });

  test('GIVEN a 503 from one list WHEN checked THEN the check still answers, as on a calm API', async () => {
    api = await serveGoogleFixtures('leftovers');
    const calm = await findGcpLeftovers(query(api, []));
    await api.close();
    const waits: number[] = [];
    api = await serveGoogleFixtures('leftovers', { [NETWORKS]: [UNAVAILABLE, { status: 200, body: fixture('leftovers', NETWORKS) }] });
    expect(await findGcpLeftovers(query(api, waits))).toEqual(calm);
    expect(waits).toHaveLength(1);
  });

  test('GIVEN a list that stays at 503 WHEN checked THEN the check fails saying how many attempts it made', async () => {
    api = await serveGoogleFixtures('clean', { [NETWORKS]: UNAVAILABLE });
    await expect(findGcpLeftovers(query(api, []))).rejects.toThrow(/\/global\/networks answered 503 \(UNAVAILABLE\): The service is currently unavailable\. \(4 attempts\)$/);
  });
});
