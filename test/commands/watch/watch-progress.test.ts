/**
 * `watch --serve --progress` in-process on a fake clock (exposures answered on it,
 * test/support/fake-exposure.ts), reading loopback Kubernetes APIs over TLS with recorded
 * objects: the served state carries each attendee's progress; a cluster that refuses shows
 * "could not check", and one that does not answer holds up neither the watch nor the other
 * clusters' reads, and shows "could not check" when its read ends (the test ends it by closing
 * that server: a bound of real time would race the answering clusters on a busy machine); each
 * cluster is read at most every --progress-interval seconds of the watch's clock, never twice at
 * once; and the command line's rules.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../lib/kit/cli/cli';
import { ClusterTarget, HostTokens } from '../../../lib/lab/cluster/cluster-access';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { RoomPageState } from '../../../lib/commands/watch/room-page';
import { WATCH_COMMAND } from '../../../lib/commands/watch/command';
import { FakeClock } from '../../support/fake-clock';
import { Fake, PROBER } from '../../support/fake-exposure';
import { HOST_TOKEN, KubernetesApi, refusingApi, serveKubernetesApi } from '../../support/kubernetes-api';
import { labClusterObjects } from '../../support/lab-cluster';
import { watchLabConfig, watchLabIo, watchLabOutputs } from '../../support/watch-lab';

const CONFIG = watchLabConfig(['ann', 'cy', 'dee']);
const dir = mkdtempSync(join(tmpdir(), 'hoplab-watch-progress-'));
const servers: KubernetesApi[] = [];
let outputsFile: string;
let fakes: Map<string, Fake>;

beforeAll(async () => {
  const ann = await serveKubernetesApi({
    objects: labClusterObjects({ cloud: 'aws', scaledWithKubectl: true, restarted: { updated: 2, gatesTrue: true }, patchedWithKubectl: true, cordoned: ['node-b'] }) as never,
  });
  const dee = await serveKubernetesApi({ route: () => 'hang' });
  servers.push(ann, dee);
  ({ outputsFile, fakes } = watchLabOutputs(dir, [
    ['ann', ann.base],
    ['cy', await refusingApi()],
    ['dee', dee.base],
  ]));
});
afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The served state now, once there is one. */
async function stateOf(url: string): Promise<RoomPageState | null> {
  return (await (await fetch(`${url}state`)).json()) as RoomPageState | null;
}

describe('watch --serve --progress on a fake clock', () => {
  /** When each cluster's reads began, on the watch's clock (the token is asked first, once per read). */
  const readsAt = new Map<string, number[]>();
  let code: number;
  let err = '';
  let first: RoomPageState;
  /** The state once ann's cluster had been read three times, dee's read still under way. */
  let during: RoomPageState;
  let deeReadsDuring: number;
  let last: RoomPageState;
  /** A state served after dee's read had ended. */
  let after: RoomPageState;

  beforeAll(async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const tokens: HostTokens = {
      token: async (target: ClusterTarget) => {
        const at = readsAt.get(target.env) ?? [];
        if (at.at(-1) !== clock.now()) at.push(clock.now());
        readsAt.set(target.env, at);
        return HOST_TOKEN;
      },
    };
    let served: (url: string) => void;
    const url = new Promise<string>((resolve) => (served = resolve));
    const io = watchLabIo({
      clock,
      fakes,
      signal: stop.signal,
      attendees: ['ann', 'cy', 'dee'],
      stdout: { write: () => true },
      err: (text) => {
        err += text;
        const found = /serving the room on (http:\/\/\S+) /.exec(err)?.[1];
        if (found) served(found);
      },
      tokens,
    });
    const watching = runWatch(['--outputs', outputsFile, '--serve-address', '127.0.0.1:0', '--progress', '--progress-interval', '5', '--my-ip', PROBER], io);
    const page = await url;
    // Each wait polls the served state; no deadline: jest's is the safety net.
    const until = async (done: (s: RoomPageState) => boolean) => {
      for (;;) {
        const state = await stateOf(page);
        if (state && done(state)) return state;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const cell = (s: RoomPageState, env: string) => s.attendees.find((a) => a.env === env)!.progress[1];
    first = await until((s) => cell(s, 'ann').state === 'done');
    // ann's cluster is read again and again while dee's first read is under way.
    during = await until((s) => (readsAt.get('ann')?.length ?? 0) >= 3 && s.t_ms >= 10_000);
    deeReadsDuring = readsAt.get('dee')!.length;
    const dee = servers[1];
    while (dee.requests.length < 4) await new Promise((resolve) => setTimeout(resolve, 20));
    await dee.close();
    last = await until((s) => cell(s, 'dee').state === 'could not check');
    after = await until((s) => s.t_ms > last.t_ms);
    stop.abort();
    code = await watching;
  });

  test('GIVEN ann’s cluster THEN her exercises are done on the page, beside her row, with the progress columns, legend and note', () => {
    expect(first.progress?.columns.map((c) => c.code)).toEqual(['snat', 'hc', 'rg', 'drn']);
    expect(first.progress?.legend.map((l) => `${l.glyph} ${l.state}`)).toEqual(['✓ done', '· not yet', '? could not check', '… checking', '– not checkable']);
    expect(first.attendees.find((a) => a.env === 'ann')?.progress.map((c) => c.state)).toEqual(['done', 'done', 'done', 'done']);
    expect(first.attendees.find((a) => a.env === 'ann')?.panels[0].rows.map((r) => r.state)).toEqual(['good', 'good', 'good', 'neutral', 'good', 'neutral']);
    expect(err).toContain('hoplab watch: --progress: reading 3 clusters of 3 attendees every 5 s\n');
  });

  test('GIVEN cy’s cluster that refuses THEN could not check, saying why', () => {
    const cy = last.attendees.find((a) => a.env === 'cy')!;
    expect(cy.progress.map((c) => c.state)).toEqual(['could not check', 'could not check', 'could not check', 'could not check']);
    expect(cy.panels[0].rows[1].text).toMatch(/^could not check: GET https:\/\/127\.0\.0\.1:\d+\/apis\/apps\/v1\/namespaces\/hoplab\/deployments\/echo failed: .*ECONNREFUSED/);
  });

  test('GIVEN dee’s cluster that does not answer THEN the watch and the other clusters’ reads go on meanwhile, dee’s is not read again, and when its read ends it could not check', () => {
    const deeCells = (s: RoomPageState) => s.attendees.find((a) => a.env === 'dee')!.progress.map((c) => c.state);
    expect(deeCells(during)).toEqual(['checking', 'checking', 'checking', 'checking']);
    expect(deeReadsDuring).toBe(1);
    expect(during.attendees.find((a) => a.env === 'ann')?.cells.map((c) => c.state)).toEqual(['ok', 'ok', 'ok']);
    expect(deeCells(last)).toEqual(['could not check', 'could not check', 'could not check', 'could not check']);
    expect(last.attendees.find((a) => a.env === 'dee')!.progress[1].text).toMatch(/^local-health-check \(EKS nodeport-local\): could not check: GET \S+\/deployments\/echo failed: /);
    expect(after.t_ms).toBeGreaterThan(last.t_ms);
    expect(code).toBe(0);
  });

  test('GIVEN --progress-interval 5 THEN each cluster’s reads began at least 5 s of the watch’s clock apart, the first at its start', () => {
    expect([...readsAt.keys()].sort()).toEqual(['ann', 'cy', 'dee']);
    for (const [env, at] of readsAt) {
      expect([env, at[0]]).toEqual([env, 0]);
      for (let i = 1; i < at.length; i += 1) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(5_000);
    }
  });
});

describe('watch --progress arguments', () => {
  const run = (argv: readonly string[]) => runWatch(['--outputs', outputsFile, ...argv], { stdout: { write: () => true }, err: () => undefined, env: {}, config: () => CONFIG });
  test.each([
    [['--progress'], '--progress goes with --serve or --serve-address: progress is shown on the served page'],
    [['--serve-address', '127.0.0.1:0', '--progress-interval', '60'], '--progress-interval goes with --progress'],
    [['--serve', '--progress', '--progress-interval', '4'], '--progress-interval: "4" is not a whole number from 5 to 600'],
  ])('GIVEN %j WHEN watch runs THEN a usage error says: %s', async (argv, message) => {
    const refusal = run(argv);
    await expect(refusal).rejects.toThrow(UsageError);
    await expect(refusal).rejects.toThrow(message);
  });

  test('GIVEN --help THEN --progress and --progress-interval are described', async () => {
    const help = WATCH_COMMAND.help();
    expect(help).toMatch(/\n {2}--progress +also show each attendee's handout exercises on the\n +--serve page, read from their clusters \(above\)\n/);
    expect(help).toMatch(/\n {2}--progress-interval S\n +seconds between two reads of one cluster with --progress\n +\(5-600; default 30\)\n/);
    expect(help).toContain('--progress (with --serve) also shows, beside each attendee');
  });
});
