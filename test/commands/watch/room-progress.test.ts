/**
 * The live page's progress (room-progress.ts) against loopback Kubernetes APIs over TLS holding
 * recorded objects (test/support/lab-cluster.ts), the time given by the test: each cluster read
 * when due and never twice at once, one that does not answer holding up no other, what was done
 * staying done, missing credentials said once per cluster, and the cells and panels the page shows.
 */
import { readFileSync } from 'node:fs';
import { validConfig } from '../../../lib/config/load';
import { labEnvironments } from '../../../lib/config/environments';
import { HostTokens } from '../../../lib/lab/cluster/cluster-access';
import { parseOutputs } from '../../../lib/lab/files/outputs';
import { planProgress } from '../../../lib/lab/progress/progress';
import { ProgressPoller } from '../../../lib/commands/watch/room-progress';
import { fixture } from '../../support/fixtures';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, refusingApi, serveKubernetesApi } from '../../support/kubernetes-api';
import { labClusterAnswers, LabClusterState } from '../../support/lab-cluster';

const CONFIG = validConfig({ attendees: ['ann', 'bob', 'cy', 'dee'] }, 'test');
const CA = Buffer.from(LOOPBACK_CA).toString('base64');
const FIXTURE = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const TOKENS: HostTokens = { token: async () => HOST_TOKEN };

const servers: KubernetesApi[] = [];
/** ann has done every exercise (snat: the Service flipped and back; a node drained now); bob is half-way. */
const AT_START: Readonly<Record<string, LabClusterState>> = {
  ann: { cloud: 'aws', scaledWithKubectl: true, restarted: { updated: 2, gatesTrue: true }, patchedWithKubectl: true, cordoned: ['node-b'] },
  bob: { cloud: 'aws', replicas: 1, scaledWithKubectl: true, localPolicy: 'Cluster', patchedWithKubectl: true },
};
/** Each attendee's cluster as it answers now: a test changes it between reads. */
const now: Record<string, LabClusterState> = {};
beforeEach(() => Object.assign(now, AT_START));
let refused: string;
/** dee's cluster: it never answers, until the test closes it. */
let dee: KubernetesApi;

/** A cluster whose recorded objects are `now[env]`'s at each request. */
async function cluster(env: string): Promise<string> {
  const api = await serveKubernetesApi({ objects: labClusterAnswers(() => now[env]) });
  servers.push(api);
  return api.base;
}

let outputs: ReturnType<typeof parseOutputs>;
beforeAll(async () => {
  refused = await refusingApi();
  const hanging = await serveKubernetesApi({ route: () => 'hang' });
  dee = hanging;
  const endpoints: Record<string, string> = {
    ann: await cluster('ann'),
    bob: await cluster('bob'),
    cy: refused,
    dee: dee.base,
  };
  outputs = parseOutputs(
    Object.fromEntries(
      Object.entries(endpoints).flatMap(([env, server]) => [
        [`${env}-aws-cluster`, { ...FIXTURE['lab-aws-cluster'], cluster_name: `${env}-eks`, cluster_endpoint: server, cluster_ca_certificate: CA }],
        [`${env}-aws-lb`, FIXTURE['lab-aws-lb']],
      ]),
    ),
    'test',
  );
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** A poller of `envs` on the test's time (`clock.t`, ms since the watch began), and a wait for reads of a cluster to end. */
function poller(envs: readonly string[], options: { tokens?: HostTokens } = {}) {
  const clock = { t: 0 };
  const ended = new Map<string, number>();
  const waiting: { key: string; count: number; resolve: () => void }[] = [];
  const { plans, clusters } = planProgress({ outputs, config: CONFIG, environments: labEnvironments(CONFIG).filter((e) => envs.includes(e.name)) });
  const p = new ProgressPoller({
    plans,
    clusters,
    facts: { replicas: CONFIG.app.replicas },
    intervalMs: 30_000,
    tokens: options.tokens ?? TOKENS,
    now: () => clock.t,
    onRead: (key) => {
      ended.set(key, (ended.get(key) ?? 0) + 1);
      for (const w of waiting.filter((x) => x.key === key && (ended.get(key) ?? 0) >= x.count)) w.resolve();
    },
  });
  /** Resolves once `n` reads of `env`'s EKS cluster have ended (no deadline: jest's is the safety net). */
  const readsEnded = (env: string, n: number) => new Promise<void>((resolve) => ((ended.get(`${env}/aws`) ?? 0) >= n ? resolve() : waiting.push({ key: `${env}/aws`, count: n, resolve })));
  /** Once the first read of each of `envs` has ended. */
  const firstReads = () => Promise.all(envs.map((env) => readsEnded(env, 1)));
  return { p, clock, readsEnded, firstReads };
}

/** Each attendee's cells as `code state`. */
const cells = (p: ProgressPoller, env: string) => {
  const view = p.view();
  return view.cells(env).map((c, i) => `${view.columns[i].code} ${c.state || '(none)'}`);
};

describe('the progress poller', () => {
  test('GIVEN three clusters WHEN first read THEN not read yet, then done, not yet and could not check, each cell saying why', async () => {
    const { p, firstReads } = poller(['ann', 'bob', 'cy']);
    expect(p.view().note).toBe("Progress: reading each attendee's clusters (then every 30 s, as npx hoplab progress)...");
    p.tick();
    expect(cells(p, 'ann')).toEqual(['snat checking', 'hc checking', 'rg checking', 'drn checking']);
    await firstReads();
    const view = p.view();
    expect(view.columns).toEqual([
      { id: 'snat', code: 'snat' },
      { id: 'local-health-check', code: 'hc' },
      { id: 'readiness-gates', code: 'rg' },
      { id: 'drain', code: 'drn' },
    ]);
    expect(cells(p, 'ann')).toEqual(['snat done', 'hc done', 'rg done', 'drn done']);
    expect(cells(p, 'bob')).toEqual(['snat not yet', 'hc not yet', 'rg not yet', 'drn not yet']);
    expect(cells(p, 'cy')).toEqual(['snat could not check', 'hc could not check', 'rg could not check', 'drn could not check']);
    expect(view.cells('bob')[1]).toEqual({ state: 'not yet', glyph: '·', text: 'local-health-check (EKS nodeport-local): not yet: echo is at 1 replica: scale it back to 2' });
    expect(view.cells('cy')[1].text).toMatch(
      /^local-health-check \(EKS nodeport-local\): could not check: GET https:\/\/127\.0\.0\.1:\d+\/apis\/apps\/v1\/namespaces\/hoplab\/deployments\/echo failed: .*ECONNREFUSED/,
    );
    expect(view.note).toBe("Progress: each attendee's clusters read every 30 s (as npx hoplab progress); last read 00:00");
  });

  test('GIVEN the interval WHEN time passes THEN each cluster is read again only once 30 s have passed since its last read began', async () => {
    const { p, clock, readsEnded, firstReads } = poller(['ann', 'bob']);
    p.tick();
    await firstReads();
    for (const t of [1_000, 10_000, 29_999]) {
      clock.t = t;
      p.tick();
    }
    expect(Object.fromEntries(p.started)).toEqual({ 'ann/aws': 1, 'bob/aws': 1 });
    clock.t = 30_000;
    p.tick();
    expect(Object.fromEntries(p.started)).toEqual({ 'ann/aws': 2, 'bob/aws': 2 });
    await Promise.all([readsEnded('ann', 2), readsEnded('bob', 2)]);
    clock.t = 59_999;
    p.tick();
    expect(Object.fromEntries(p.started)).toEqual({ 'ann/aws': 2, 'bob/aws': 2 });
  });

  test('GIVEN a cluster that does not answer THEN it is not read again while its read is under way, the others are; when it ends, could not check, and it is read again', async () => {
    const { p, clock, readsEnded } = poller(['ann', 'dee']);
    p.tick();
    await readsEnded('ann', 1);
    // ann is read again every 30 s while dee's first read is still under way: dee is not.
    for (const [t, reads] of [
      [30_000, 2],
      [60_000, 3],
    ]) {
      clock.t = t;
      p.tick();
      expect([p.started.get('ann/aws'), p.started.get('dee/aws')]).toEqual([reads, 1]);
      await readsEnded('ann', reads);
    }
    expect(cells(p, 'ann')).toEqual(['snat done', 'hc done', 'rg done', 'drn done']);
    expect(cells(p, 'dee')).toEqual(['snat checking', 'hc checking', 'rg checking', 'drn checking']);
    // Its server goes once it holds the read's four requests: the read ends without an answer (the bound, 20 s, is another way; watch-progress.test.ts).
    while (dee.requests.length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
    await dee.close();
    await readsEnded('dee', 1);
    expect(p.view().cells('dee')[1].text).toMatch(/^local-health-check \(EKS nodeport-local\): could not check: GET \S+\/deployments\/echo failed: /);
    p.tick();
    expect([p.started.get('ann/aws'), p.started.get('dee/aws')]).toEqual([3, 2]);
    p.stop();
  });

  test('GIVEN a drain seen done WHEN the node is put back THEN it stays done, seen earlier; and what bob finished shows done at the next read', async () => {
    const { p, clock, readsEnded, firstReads } = poller(['ann', 'bob']);
    p.tick();
    await firstReads();
    now.ann = { ...now.ann, cordoned: [] };
    now.bob = { ...now.bob, replicas: 2, localPolicy: 'Local' };
    clock.t = 30_000;
    p.tick();
    await Promise.all([readsEnded('ann', 2), readsEnded('bob', 2)]);
    expect(cells(p, 'ann')).toEqual(['snat done', 'hc done', 'rg done', 'drn done']);
    expect(p.view().cells('ann')[3].text).toBe('drain (EKS nodeport): done: node-b drained (no app Pod left on it); kubectl uncordon puts it back (seen earlier)');
    expect(cells(p, 'bob')).toEqual(['snat done', 'hc done', 'rg not yet', 'drn not yet']);
  });

  test('GIVEN no credentials THEN each cluster could not be checked, saying so once, and the note says why the panel is empty', async () => {
    const tokens: HostTokens = {
      token: async () => {
        throw new Error('no Google credentials: run gcloud auth application-default login (the identity that deployed)');
      },
    };
    const { p, firstReads } = poller(['ann', 'bob'], { tokens });
    p.tick();
    await firstReads();
    expect(p.view().note).toBe(
      "Progress: each attendee's clusters read every 30 s (as npx hoplab progress); last read 00:00; 2 of 2 clusters could not be read, e.g. no token for ann-eks: no Google credentials: run gcloud auth application-default login (the identity that deployed)",
    );
    expect(p.panels('bob')[0].rows.map((r) => `${r.state} ${r.label}: ${r.text}`)).toEqual([
      'unknown snat (EKS nodeport-local): could not check: no token for bob-eks: no Google credentials: run gcloud auth application-default login (the identity that deployed)',
      'unknown local-health-check (EKS nodeport-local): could not check: no token for bob-eks: no Google credentials: run gcloud auth application-default login (the identity that deployed)',
      'unknown readiness-gates (EKS native): could not check: no token for bob-eks: no Google credentials: run gcloud auth application-default login (the identity that deployed)',
      'neutral extra-hop (EKS nodeport): not checkable: requests only: nothing changes in the cluster (compare --probe measures it)',
      'unknown drain (EKS nodeport): could not check: no token for bob-eks: no Google credentials: run gcloud auth application-default login (the identity that deployed)',
      "neutral datapath (EKS nodeport-local): not checkable: reading a node's rules changes nothing in the cluster",
    ]);
  });

  test("GIVEN an attendee's detail THEN a panel lists every exercise of their handout, done ones good; an environment the config lacks says so", async () => {
    const { p, firstReads } = poller(['ann']);
    p.tick();
    await firstReads();
    const [panel] = p.panels('ann');
    expect(panel.title).toBe("Progress through the handout's exercises (read every 30 s)");
    expect(panel.rows.filter((r) => r.state === 'good').map((r) => r.label)).toEqual([
      'snat (EKS nodeport-local)',
      'local-health-check (EKS nodeport-local)',
      'readiness-gates (EKS native)',
      'drain (EKS nodeport)',
    ]);
    expect(p.panels('zed')[0].rows).toEqual([{ label: 'zed', state: 'unknown', text: 'not an environment of this config: progress reads the config’s environments' }]);
    expect(
      p
        .view()
        .cells('zed')
        .map((c) => c.state),
    ).toEqual(['', '', '', '']);
  });
});
