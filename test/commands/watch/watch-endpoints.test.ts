/**
 * `watch --endpoints` in-process on a fake clock (exposures answered on it,
 * test/support/fake-exposure.ts) reading loopback Kubernetes APIs over TLS with
 * recorded Pods: a Pod that leaves the endpoints while its replies go on (its
 * load balancer still sends to it) is reported gone from the cluster's API,
 * with its node, naming the attendee; a cluster that refuses is named at the
 * end; --help says what it does. How soon (within 2 s) is pinned on the fake
 * clock alone in changes.test.ts, and measured in npm run bench.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { HostTokens } from '../../../lib/lab/cluster/cluster-access';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { WATCH_COMMAND } from '../../../lib/commands/watch/command';
import { FakeClock } from '../../support/fake-clock';
import { Fake, fakeSend, POD_NODES, PROBER } from '../../support/fake-exposure';
import { fixture } from '../../support/fixtures';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, refusingApi, serveKubernetesApi } from '../../support/kubernetes-api';

const CONFIG = validConfig({ attendees: ['ann', 'cy'] }, 'test');
const CA = Buffer.from(LOOPBACK_CA).toString('base64');
const FIXTURE = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
const PODS = '/api/v1/namespaces/hoplab/pods';
const pod = (name: string, deleting: boolean) => ({
  metadata: { name, ...(deleting ? { deletionTimestamp: '2026-12-07T10:00:00Z' } : {}) },
  spec: { nodeName: POD_NODES[name] },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

/** Loopback clusters and fake exposures for ann (her API: echo-b terminating from its third read on) and cy (an API that refuses). */
async function lab(dir: string): Promise<{ outputsFile: string; ann: KubernetesApi; fakes: Map<string, Fake> }> {
  // Both Pods answer all along.
  const ann = await serveKubernetesApi({ objects: { [PODS]: ((count: number) => ({ kind: 'PodList', items: [pod('echo-a', false), pod('echo-b', count >= 2)] })) as never } });
  const refused = await refusingApi();
  const fakes = new Map<string, Fake>();
  const outputs: Record<string, unknown> = {};
  for (const [env, server] of [
    ['ann', ann.base],
    ['cy', refused],
  ]) {
    outputs[`${env}-aws-cluster`] = { ...FIXTURE['lab-aws-cluster'], cluster_name: `${env}-eks`, cluster_endpoint: server, cluster_ca_certificate: CA };
    outputs[`${env}-aws-lb`] = Object.fromEntries(
      Object.entries(FIXTURE['lab-aws-lb']).map(([name, exposure]) => {
        const url = `http://${env}.${exposure.mode as string}.example/`;
        fakes.set(url, { latencyMs: 40, fail: null, snat: exposure.source_nat === true, proxy: exposure.client_ip_via === 'x-forwarded-for', pods: ['echo-a', 'echo-b'], pick: 'random' });
        return [name, { ...exposure, url }];
      }),
    );
  }
  const outputsFile = join(dir, 'outputs.json');
  writeFileSync(outputsFile, JSON.stringify(outputs));
  return { outputsFile, ann, fakes };
}

/** Runs watch with `argv` over the lab on a fake clock until `done(stdout so far)`; the exit code and what it wrote. */
async function runUntil(argv: readonly string[], done: (out: string, ann: KubernetesApi) => boolean): Promise<{ code: number; out: string; err: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-watch-endpoints-'));
  const { outputsFile, ann, fakes } = await lab(dir);
  const clock = new FakeClock();
  const stop = new AbortController();
  const tokens: HostTokens = { token: async () => HOST_TOKEN };
  let out = '';
  let err = '';
  try {
    const code = await runWatch(['--outputs', outputsFile, '--endpoints', '--my-ip', PROBER, ...argv], {
      stdout: {
        write: (text: string) => {
          out += text;
          if (done(out, ann)) stop.abort();
          return true;
        },
      },
      err: (text) => (err += text),
      env: {},
      clock,
      send: fakeSend(clock, fakes),
      signal: stop.signal,
      config: () => CONFIG,
      tokens,
    });
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
