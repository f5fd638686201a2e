/**
 * How soon watch reports a change, on the fake clock with exposures that
 * change at a known time, the window at its default of 10 s: at the default
 * rate (5 requests per second, a snapshot every second) errors starting or
 * stopping, a Pod or node appearing and a client-IP verdict flipping show
 * within 2 s of the change, at any moment of the second it happens in. What
 * takes longer, a Pod or node gone and a flip away from a mixed verdict, is
 * pinned to its bound, and steady exposures make no change up.
 */
import { CHANCE, ExposureChanges, LEARN_REPLIES, repliesToGone, Timed } from '../../../lib/commands/watch/changes';
import { WatchEvent, watchTargets } from '../../../lib/commands/watch/watch';
import { Sample } from '../../../lib/lab/probe/probe';
import { FakeClock } from '../../support/fake-clock';
import { Fake, fakeSend, fakeTarget, POD_NODES, PROBER } from '../../support/fake-exposure';
import { ServingPoller } from '../../../lib/commands/watch/serving-poller';
import { ServingPods } from '../../../lib/lab/cluster/serving-pods';
import { ClusterTarget } from '../../../lib/lab/cluster/cluster-access';

const RATE = 5;
const SETTINGS = { rate: RATE, maxRate: 2000, intervalMs: 1000, windowMs: 10_000, timeoutMs: 2000, myIp: PROBER };
/** When in its second the change happens: just after a snapshot and a request, just before them, and between. */
const OFFSETS = [1, 99, 201, 455, 799, 999];

interface Scenario {
  readonly start: Partial<Fake>;
  /** Changes before the one measured (e.g. the outage errors-stopped ends), at these times. */
  readonly before?: readonly [number, Partial<Fake>][];
  readonly change: Partial<Fake>;
}

/**
 * The cluster's API as `watch --endpoints` reads it: which Pods serve now (a test changes it while
 * the watch runs), each read answered after `latencyMs` on the clock.
 */
interface FakeCluster {
  latencyMs: number;
  serving: readonly string[];
}

/** A ServingPods of `pods` on their nodes (POD_NODES), the rest of `all` terminating. */
const servingPodsOf = (pods: readonly string[], all: readonly string[] = Object.keys(POD_NODES)): ServingPods => ({
  serving: new Map(pods.map((pod) => [pod, POD_NODES[pod]])),
  notServing: new Map(all.filter((pod) => !pods.includes(pod)).map((pod) => [pod, 'terminating'])),
});

/**
 * Watches one exposure that starts as `start`, changes at `changeAt` ms, and runs 15 s more; the events.
 * With `cluster`, its API is read as `watch --endpoints` reads it (ServingPoller), and the change changes it too.
 */
async function eventsAround(
  scenario: Scenario & { readonly cluster?: { readonly start: FakeCluster; readonly before?: readonly [number, Partial<FakeCluster>][]; readonly change: Partial<FakeCluster> } },
  changeAt: number,
  mode: 'nodeport-local' | 'nodeport-l4' = 'nodeport-local',
): Promise<WatchEvent[]> {
  const clock = new FakeClock();
  const target = fakeTarget(mode, 1);
  const fake: Fake = { latencyMs: 20, fail: null, snat: false, pods: ['echo-a', 'echo-b'], ...scenario.start };
  const fakes = new Map([[(target.url as URL).href, fake]]);
  const cluster = scenario.cluster ? { ...scenario.cluster.start } : undefined;
  const script = async () => {
    const steps: [number, () => void][] = [
      ...[...(scenario.before ?? []), [changeAt, scenario.change] as const].map(([at, change]): [number, () => void] => [at, () => Object.assign(fake, change)]),
      ...[...(scenario.cluster?.before ?? []), [changeAt, scenario.cluster?.change ?? {}] as const].map(([at, change]): [number, () => void] => [at, () => Object.assign(cluster ?? {}, change)]),
    ];
    for (const [at, step] of steps.sort(([a], [b]) => a - b)) {
      await clock.sleep(at - clock.now());
      step();
    }
  };
  const stop = new AbortController();
  const poller = cluster
    ? new ServingPoller({
        clusters: [{ key: 'env1/aws', env: target.env, cloud: target.cloud, target: {} as ClusterTarget }],
        read: async () => {
          const serving = cluster.serving;
          await clock.sleep(cluster.latencyMs, stop.signal);
          return servingPodsOf(serving);
        },
        now: () => clock.now(),
      })
    : undefined;
  const polling = poller?.run(clock, stop.signal);
  const watching = watchTargets([target], {
    ...SETTINGS,
    durationMs: changeAt + 15_000,
    clock,
    send: fakeSend(clock, fakes),
    ...(poller ? { clusterNews: () => poller.take() } : {}),
  }).finally(() => stop.abort());
  const [result] = await Promise.all([watching, script(), polling]);
  return [...result.events];
}

/** Milliseconds from the change to the first event of `kind` after it (fails when there is none). */
function delay(events: readonly WatchEvent[], kind: WatchEvent['kind'], changeAt: number): number {
  const event = events.find((e) => e.kind === kind && e.t_ms >= changeAt);
  if (!event) throw new Error(`no ${kind} after ${changeAt} ms; events: ${JSON.stringify(events)}`);
  return event.t_ms - changeAt;
}

describe('a change shows within 2 s at the default rate, whatever the window', () => {
  const cases: [string, WatchEvent['kind'], Scenario, string?][] = [
    ['errors start (HTTP 503)', 'errors-started', { start: {}, change: { fail: 'HTTP 503' } }, 'errors started: HTTP 503'],
    ['errors stop after a 4 s outage', 'errors-stopped', { start: {}, before: [[8000, { fail: 'connection refused' }]], change: { fail: null } }, 'errors stopped'],
    ['a Pod appears (scaled to 3)', 'pod-appeared', { start: {}, change: { pods: ['echo-a', 'echo-b', 'echo-c'] } }, 'Pod echo-c answers'],
    ['a node appears (its Pod answers)', 'node-appeared', { start: {}, change: { pods: ['echo-a', 'echo-b', 'echo-c'] } }, 'node ip-10-0-2-200.ec2.internal answers'],
    ['the verdict flips Local -> Cluster (every reply SNATed)', 'verdict-changed', { start: { snat: false }, change: { snat: true } }, 'client IP tcp-source/no-snat -> none/snat'],
    ['the verdict flips Cluster -> Local', 'verdict-changed', { start: { snat: true }, change: { snat: false } }, 'client IP none/snat -> tcp-source/no-snat'],
    [
      'the verdict flips Local -> Cluster under Cilium (mixed: a third of the replies keep the client address)',
      'verdict-changed',
      { start: { snat: false, pick: 'random' }, change: { snat: 2 / 3 } },
      'client IP tcp-source/no-snat -> none/snat',
    ],
  ];
  for (const [what, kind, scenario, text] of cases) {
    test.each(OFFSETS)(`GIVEN ${what} at 12 s + %d ms WHEN watched with --window 10 THEN ${kind} within 2 s`, async (offset) => {
      const changeAt = 12_000 + offset;
      const events = await eventsAround(scenario, changeAt);
      const ms = delay(events, kind, changeAt);
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(2000);
      expect(events.find((e) => e.kind === kind && e.t_ms >= changeAt)!.text).toBe(text);
      // Nothing before the change.
      expect(events.filter((e) => e.t_ms < changeAt && !(scenario.before ?? []).some(([at]) => e.t_ms >= at))).toEqual([]);
    });
  }
});

describe('with --endpoints, a Pod or node gone shows within 2 s, from the cluster API', () => {
  // A read of the cluster's API takes 300 ms here (a far region's round trips; loopback takes a few).
  const cluster = { start: { latencyMs: 300, serving: ['echo-a', 'echo-b'] }, change: { serving: ['echo-a'] } };

  test.each(OFFSETS)('GIVEN one of two Pods gone (scaled to 1) at 12 s + %d ms WHEN its cluster is read THEN Pod and node gone within 2 s', async (offset) => {
    const changeAt = 12_000 + offset;
    const events = await eventsAround({ start: { pick: 'random' }, change: { pods: ['echo-a'] }, cluster }, changeAt);
    for (const kind of ['pod-gone', 'node-gone'] as const) {
      expect(delay(events, kind, changeAt)).toBeLessThanOrEqual(2000);
    }
    expect(events.map((e) => e.text)).toEqual(['Pod echo-b left the endpoints: terminating (cluster API)', 'node ip-10-0-33-41.ec2.internal has no serving Pod left (cluster API)']);
  });

  test('GIVEN a Pod that left the endpoints and still answers for 10 s (its load balancer deregisters it, its preStop sleeps) THEN it is gone within 2 s and its late replies do not bring it back', async () => {
    const changeAt = 12_345;
    const events = await eventsAround({ start: { pick: 'random' }, before: [[changeAt + 10_000, { pods: ['echo-a'] }]], change: {}, cluster }, changeAt);
    expect(delay(events, 'pod-gone', changeAt)).toBeLessThanOrEqual(2000);
    expect(events.map((e) => e.kind)).toEqual(['pod-gone', 'node-gone']);
  });

  test('GIVEN a Pod that left (not ready) and answers on, then serves again (ready) THEN it is gone, and back once the API says it serves', async () => {
    const changeAt = 12_345;
    const events = await eventsAround(
      {
        start: { pick: 'random' },
        change: {},
        cluster: { start: { latencyMs: 300, serving: ['echo-a', 'echo-b'] }, before: [[8000, { serving: ['echo-a'] }]], change: { serving: ['echo-a', 'echo-b'] } },
      },
      changeAt,
    );
    // echo-b answers all along: while the API says it does not serve, its replies do not count; once it serves, they do.
    expect(events.map((e) => `${e.t_ms < changeAt ? 'before' : 'after'} ${e.text}`)).toEqual([
      'before Pod echo-b left the endpoints: terminating (cluster API)',
      'before node ip-10-0-33-41.ec2.internal has no serving Pod left (cluster API)',
      'after Pod echo-b answers',
      'after node ip-10-0-33-41.ec2.internal answers',
    ]);
    expect(delay(events, 'pod-appeared', changeAt)).toBeLessThanOrEqual(2000);
  });

  test('GIVEN a cluster read that does not change THEN no event; the replies alone still find a Pod gone the API does not know of', async () => {
    const events = await eventsAround({ start: { pick: 'random' }, change: { pods: ['echo-a'] }, cluster: { start: { latencyMs: 300, serving: ['echo-a', 'echo-b'] }, change: {} } }, 12_345);
    expect(events.map((e) => e.text)).toEqual(['Pod echo-b no longer answers', 'node ip-10-0-33-41.ec2.internal no longer answers']);
  });
});

describe('what a cluster API says, to whom', () => {
  test('GIVEN one attendee’s EKS and GKE exposures and the GKE cluster saying a Pod left THEN only the GKE exposure reports it', async () => {
    const clock = new FakeClock();
    const aws = fakeTarget('nodeport-local', 1);
    const gcp = { ...fakeTarget('nodeport-local', 2, undefined, aws.env), cloud: 'gcp' as const, label: `${aws.env} gcp nodeport-local` };
    const fake = (): Fake => ({ latencyMs: 20, fail: null, snat: false, pods: ['echo-a', 'echo-b'], pick: 'random' });
    const fakes = new Map([
      [(aws.url as URL).href, fake()],
      [(gcp.url as URL).href, fake()],
    ]);
    let told = false;
    const result = await watchTargets([aws, gcp], {
      ...SETTINGS,
      durationMs: 15_000,
      clock,
      send: fakeSend(clock, fakes),
      // Both Pods answer all along; at 8 s the GKE cluster's API says echo-b is terminating.
      clusterNews: () => {
        if (told || clock.now() < 8000) return [];
        told = true;
        return [{ env: aws.env, cloud: 'gcp', change: { podsLeft: [{ pod: 'echo-b', node: POD_NODES['echo-b'], why: 'terminating' }], nodesLeft: [] }, serving: servingPodsOf(['echo-a']) }];
      },
    });
    expect(result.events.map((e) => `${e.label}: ${e.text}`)).toEqual([`${aws.env} gcp nodeport-local: Pod echo-b left the endpoints: terminating (cluster API)`]);
  });
});

describe('what takes longer than 2 s, and is bounded', () => {
  // A reply every 200 ms: k replies without a thing take k x 200 ms after its last one, and the snapshot up to a second more.
  const bound = (replies: number) => replies * (1000 / RATE) + 1000 + 20;

  test.each(OFFSETS)('GIVEN one of two Pods gone (scaled to 1) at 12 s + %d ms THEN Pod and node gone once 27 or more replies came without them', async (offset) => {
    const changeAt = 12_000 + offset;
    const events = await eventsAround({ start: { pick: 'random' }, change: { pods: ['echo-a'] } }, changeAt);
    // Half the replies each: 27 replies in a row without one has a chance of 2^-27, under one in 10^8. Picked at
    // random, a Pod's share of the window's 50 replies is 0.4-0.6, and a smaller share takes more replies (37 at 0.4).
    expect(repliesToGone(0.5, CHANCE.member)).toBe(27);
    for (const kind of ['pod-gone', 'node-gone'] as const) {
      expect(delay(events, kind, changeAt)).toBeGreaterThan(2000);
      expect(delay(events, kind, changeAt)).toBeLessThanOrEqual(bound(repliesToGone(0.4, CHANCE.member)));
    }
    expect(events.filter((e) => e.kind === 'pod-gone').map((e) => e.text)).toEqual(['Pod echo-b no longer answers']);
  });

  test.each(OFFSETS)('GIVEN a mixed verdict (Cilium, Cluster) flipped to Local at 12 s + %d ms THEN the flip shows once 13 replies in a row kept the client address', async (offset) => {
    const changeAt = 12_000 + offset;
    const events = await eventsAround({ start: { snat: 2 / 3, pick: 'random' }, change: { snat: false } }, changeAt, 'nodeport-l4');
    // The SNATed replies were about two thirds: 13 replies without one have a chance of (1/3)^13, under one in a million.
    expect(repliesToGone(2 / 3, CHANCE.state)).toBe(13);
    expect(delay(events, 'verdict-changed', changeAt)).toBeLessThanOrEqual(bound(14));
    expect(events.filter((e) => e.kind === 'verdict-changed').map((e) => e.text)).toEqual(['client IP none/snat -> tcp-source/no-snat']);
  });
});

describe('steady exposures make no change up', () => {
  test.each([
    ['two Pods picked at random', { pick: 'random' as const }],
    ['a mixed verdict (a third of the replies not SNATed), Pods at random', { snat: 2 / 3, pick: 'random' as const }],
    ['three Pods picked at random', { pick: 'random' as const, pods: ['echo-a', 'echo-b', 'echo-c'] }],
  ])('GIVEN %s for 10 minutes WHEN watched THEN no event', async (_, start) => {
    const events = await eventsAround({ start, change: {} }, 585_000);
    expect(events).toEqual([]);
  });
});

describe('ExposureChanges', () => {
  const target = fakeTarget('nodeport-local', 1);
  const ok = (at: number, pod = 'echo-a', node = 'ip-10-0-1-23.ec2.internal'): Timed => ({
    at,
    sample: { ok: true, ms: 3, status: 200, reply: { pod, node, clientAddress: PROBER } },
  });
  const failed = (at: number, error = 'connection refused'): Timed => ({ at, sample: { ok: false, ms: 3, error } as Sample });

  test('GIVEN the first snapshot with replies THEN nothing changed: it only learns what is there', () => {
    const changes = new ExposureChanges(target, PROBER);
    expect(changes.advance([ok(1), failed(2), ok(3, 'echo-b')], 3).changes).toEqual([]);
    expect(changes.failing).toBe(true);
  });

  test('GIVEN an outage THEN errors started and the Pods are not reported gone', () => {
    const changes = new ExposureChanges(target, PROBER);
    const window = [ok(1), ok(2, 'echo-b')];
    changes.advance(window, 2);
    const outage = [...window, ...Array.from({ length: 40 }, (_, i) => failed(3 + i))];
    expect(changes.advance(outage, 40).changes.map((c) => c.kind)).toEqual(['errors-started']);
  });

  test(`GIVEN a Pod no longer in the window after the first ${LEARN_REPLIES} replies THEN it is gone, whatever its share`, () => {
    const changes = new ExposureChanges(target, PROBER);
    const learned = Array.from({ length: LEARN_REPLIES }, (_, i) => ok(i, i % 2 ? 'echo-b' : 'echo-a'));
    expect(changes.advance(learned, LEARN_REPLIES).changes).toEqual([]);
    expect(changes.advance([ok(100)], 1).changes).toEqual([{ kind: 'pod-gone', text: 'Pod echo-b no longer answers' }]);
  });

  test(`GIVEN a third Pod within the first ${LEARN_REPLIES} replies THEN it is learned, not reported; after them it is reported`, () => {
    const changes = new ExposureChanges(target, PROBER);
    const first = Array.from({ length: 10 }, (_, i) => ok(i));
    expect(changes.advance(first, 10).changes).toEqual([]);
    const more = [...first, ...Array.from({ length: 10 }, (_, i) => ok(10 + i, 'echo-b', 'ip-10-0-33-41.ec2.internal'))];
    expect(changes.advance(more, 10).changes).toEqual([]);
    expect(changes.advance([...more, ok(20, 'echo-c', 'ip-10-0-2-200.ec2.internal')], 1).changes).toEqual([
      { kind: 'pod-appeared', text: 'Pod echo-c answers' },
      { kind: 'node-appeared', text: 'node ip-10-0-2-200.ec2.internal answers' },
    ]);
  });

  test.each([
    [1, 1e-6, 1],
    [0.5, 1e-6, 20],
    [0.5, 1e-8, 27],
    [2 / 3, 1e-6, 13],
    [0, 1e-6, Infinity],
  ])('GIVEN a share of %d THEN with a chance of %d it is gone after %d replies without it', (share, chance, replies) => {
    expect(repliesToGone(share, chance)).toBe(replies);
  });
});
