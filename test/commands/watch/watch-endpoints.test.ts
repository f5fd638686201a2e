/**
 * `watch --endpoints` in-process on a fake clock (exposures answered on it,
 * test/support/fake-exposure.ts) reading loopback Kubernetes APIs over TLS with
 * recorded Pods: a Pod that leaves the endpoints while its replies go on (its
 * load balancer still sends to it) is reported gone from the cluster's API,
 * with its node, naming the attendee; a cluster that refuses is named at the
 * end; --help says what it does. How soon (within 2 s) is pinned on the fake
 * clock alone in changes.test.ts, and measured in npm run bench.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { WATCH_COMMAND } from '../../../lib/commands/watch/command';
import { FakeClock } from '../../support/fake-clock';
import { POD_NODES, PROBER } from '../../support/fake-exposure';
import { KubernetesApi, refusingApi, serveKubernetesApi } from '../../support/kubernetes-api';
import { watchLabIo, watchLabOutputs } from '../../support/watch-lab';

const PODS = '/api/v1/namespaces/hoplab/pods';
const pod = (name: string, deleting: boolean) => ({
  metadata: { name, ...(deleting ? { deletionTimestamp: '2026-12-07T10:00:00Z' } : {}) },
  spec: { nodeName: POD_NODES[name] },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

/**
 * Runs watch with `argv` on a fake clock over ann (her API: echo-b terminating from its third read on;
 * both Pods answer all along) and cy (an API that refuses) until `done(stdout so far)`; the exit code and what it wrote.
 */
async function runUntil(argv: readonly string[], done: (out: string, ann: KubernetesApi) => boolean): Promise<{ code: number; out: string; err: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-watch-endpoints-'));
  const ann = await serveKubernetesApi({ objects: { [PODS]: ((count: number) => ({ kind: 'PodList', items: [pod('echo-a', false), pod('echo-b', count >= 2)] })) as never } });
  const { outputsFile, fakes } = watchLabOutputs(
    dir,
    [
      ['ann', ann.base],
      ['cy', await refusingApi()],
    ],
    'random',
  );
  const clock = new FakeClock();
  const stop = new AbortController();
  let out = '';
  let err = '';
  try {
    const io = watchLabIo({
      clock,
      fakes,
      signal: stop.signal,
      attendees: ['ann', 'cy'],
      stdout: {
        write: (text: string) => {
          out += text;
          if (done(out, ann)) stop.abort();
          return true;
        },
      },
      err: (text) => (err += text),
    });
    const code = await runWatch(['--outputs', outputsFile, '--endpoints', '--my-ip', PROBER, ...argv], io);
    return { code, out, err };
  } finally {
    await ann.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('watch --endpoints on a fake clock', () => {
  let code: number;
  let out: string;
  let err: string;

  beforeAll(async () => {
    // Ends once every exposure of ann's has said echo-b is gone, and cy's cluster was tried.
    ({ code, out, err } = await runUntil(['--format', 'json'], (text, ann) => (text.match(/"kind":"pod-gone"/g) ?? []).length >= 3 && ann.requests.length >= 3));
  });

  test('GIVEN echo-b terminating while it still answers THEN each of ann’s exposures reports it and its node gone, from the cluster API, and nothing of cy’s', () => {
    const events = out
      .split('\n')
      .filter((l) => l.includes('"type":"event"'))
      .map((l) => JSON.parse(l) as { label: string; kind: string; text: string });
    const gone = events.filter((e) => e.kind === 'pod-gone' || e.kind === 'node-gone');
    expect(new Set(gone.map((e) => e.label))).toEqual(new Set(['ann aws native', 'ann aws nodeport', 'ann aws nodeport-local']));
    expect(new Set(gone.map((e) => e.text))).toEqual(new Set(['Pod echo-b left the endpoints: terminating (cluster API)', 'node ip-10-0-33-41.ec2.internal has no serving Pod left (cluster API)']));
    expect(events.filter((e) => e.label.startsWith('cy '))).toEqual([]);
    expect(code).toBe(0);
  });

  test('GIVEN cy’s cluster that refuses THEN the watch says so when it ends, and what that means', () => {
    expect(err).toContain("hoplab watch: --endpoints: reading the app's Pods of 2 clusters every 0.5 s\n");
    expect(err).toMatch(
      /hoplab watch: --endpoints: 1 of 2 clusters could not be read at the end \(cy\/aws: GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/hoplab\/pods\?\S+ failed: .*ECONNREFUSED.*\); a Pod or node gone there showed only once the replies made it certain\n/,
    );
  });

  test('GIVEN --help THEN --endpoints is described', () => {
    const help = WATCH_COMMAND.help();
    expect(help).toMatch(/\n {2}--endpoints +also read each watched cluster's serving Pods twice a\n +second: a Pod or node gone shows within 2 s \(above\)\n/);
    expect(help).toContain('--endpoints also reads, twice a second, which of the app');
  });
});

describe('watch --endpoints --room', () => {
  test('GIVEN cy’s cluster that refuses THEN the room’s header says how many clusters are not read, while the watch goes on', async () => {
    const { code, out } = await runUntil(['--room'], (text) => text.includes('not read (--endpoints)') && text.includes('left the endpoints'));
    // Wrapped at the 80 columns the room is laid out in.
    expect(out).toMatch(/\nhoplab watch: 2 attendees, 6 exposures at 5 req\/s; \d+ s; Ctrl-C ends it; 1 of 2\nclusters not read \(--endpoints\)\n/);
    expect(out).toContain('ann aws native: Pod echo-b left the endpoints: terminating (cluster API)');
    expect(code).toBe(0);
  });
});
