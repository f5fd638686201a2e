/**
 * `progress` in-process against loopback Kubernetes APIs over TLS, one per cluster, holding
 * recorded objects at points of the attendees' exercises (test/support/lab-cluster.ts):
 * ann has done everything on EKS; bob is half-way on GKE; cy's cluster refuses connections;
 * dee's never answers (read on its own, with a short bound); eve has no outputs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { progress, ProgressIo } from '../../../lib/commands/progress/progress';
import { PROGRESS_COMMAND } from '../../../lib/commands/progress/command';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, serveKubernetesApi } from '../../support/kubernetes-api';
import { labClusterObjects } from '../../support/lab-cluster';
import { fixture } from '../../support/fixtures';

const CONFIG = validConfig({ attendees: ['ann', 'bob', 'cy', 'dee', 'eve'], gcp: { project: 'acme-lab' } }, 'test');
const CA = Buffer.from(LOOPBACK_CA).toString('base64');
const FIXTURE = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8')) as Record<string, Record<string, unknown>>;

const servers: KubernetesApi[] = [];
let dir: string;
let outputsFile: string;
let refused: string;

beforeAll(async () => {
  const serve = async (objects: Record<string, unknown>) => {
    const api = await serveKubernetesApi({ objects: objects as never });
    servers.push(api);
    return api.base;
  };
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refused = `https://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const ann = await serve(labClusterObjects({ cloud: 'aws', scaledWithKubectl: true, restarted: { updated: 2, gatesTrue: true }, patchedWithKubectl: true, cordoned: ['node-b'] }));
  const bob = await serve(labClusterObjects({ cloud: 'gcp', replicas: 1, scaledWithKubectl: true, localPolicy: 'Cluster', patchedWithKubectl: true, restarted: { updated: 1, gatesTrue: false } }));
  const hanging = await serve({
    '/apis/apps/v1/namespaces/hoplab/deployments/echo': () => 'hang',
    '/api/v1/namespaces/hoplab/services': () => 'hang',
    '/api/v1/nodes': () => 'hang',
    '/api/v1/namespaces/hoplab/pods': () => 'hang',
  });
  const cluster = (env: string, cloud: 'aws' | 'gcp', server: string) => ({
    [`${env}-${cloud}-cluster`]: { ...FIXTURE[`lab-${cloud}-cluster`], cluster_name: `${env}-${cloud === 'aws' ? 'eks' : 'gke'}`, cluster_endpoint: server, cluster_ca_certificate: CA },
  });
  const lb = (env: string, cloud: 'aws' | 'gcp') => ({ [`${env}-${cloud}-lb`]: FIXTURE[`lab-${cloud}-lb`] });
  const outputs = {
    ...cluster('ann', 'aws', ann),
    ...lb('ann', 'aws'),
    ...cluster('ann', 'gcp', refused),
    ...lb('ann', 'gcp'),
    // bob: GKE only, so every check looks at GKE.
    ...cluster('bob', 'gcp', bob),
    ...lb('bob', 'gcp'),
    ...cluster('cy', 'aws', refused),
    ...lb('cy', 'aws'),
    ...cluster('dee', 'aws', hanging),
    ...lb('dee', 'aws'),
  };
  dir = mkdtempSync(join(tmpdir(), 'hoplab-progress-'));
  outputsFile = join(dir, 'outputs.json');
  writeFileSync(outputsFile, JSON.stringify(outputs));
});
afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const io: ProgressIo = { out: (t) => (out += t), err: (t) => (err += t), config: () => CONFIG, tokens: { token: async () => HOST_TOKEN }, now: () => new Date('2026-12-07T10:00:00Z') };
  const code = await progress(['--outputs', outputsFile, ...argv], io);
  return { code, out, err };
}

type Row = { id: string; cloud: string; mode: string; status: string; why: string };
const statuses = (report: { attendees: { env: string; exercises: Row[]; why?: string }[] }, env: string) => {
  const attendee = report.attendees.find((a) => a.env === env)!;
  return attendee.why ? attendee.why : attendee.exercises.map((e) => `${e.id} ${e.cloud} ${e.status}: ${e.why}`);
};

describe('progress', () => {
  let json: { code: number; out: string; err: string };
  let report: { schema: string; checked_at: string; attendees: { env: string; attendee: string; exercises: Row[]; why?: string }[] };
  beforeAll(async () => {
    // Clusters that answer get the default bound (a busy machine answers late, never wrong); dee's, which hangs, is read apart.
    json = await run('--format', 'json', '--env', 'ann,bob,cy,eve');
    report = JSON.parse(json.out);
  });

  test('GIVEN ann, who did every exercise on EKS THEN each checkable one is done, and the ones that leave no trace are not checkable, never guessed', () => {
    expect(statuses(report, 'ann')).toEqual([
      'snat aws done: echo-nodeport-local flipped and back on Local (kubectl-patch)',
      'local-health-check aws done: echo scaled and back at 2 replicas, all ready (kubectl-scale)',
      "readiness-gates aws done: rolled out; every Pod's readiness gate is True (2 Pods)",
      'extra-hop aws not checkable: requests only: nothing changes in the cluster (compare --probe measures it)',
      'drain aws done: node-b drained (no app Pod left on it); kubectl uncordon puts it back',
      "datapath aws not checkable: reading a node's rules changes nothing in the cluster",
      "datapath gcp not checkable: reading a node's rules changes nothing in the cluster",
    ]);
  });

  test('GIVEN bob half-way on GKE THEN not yet, each saying what is left to do', () => {
    expect(statuses(report, 'bob')).toEqual([
      'snat gcp not yet: echo-nodeport-local is flipped to Cluster: flip it back to Local',
      'local-health-check gcp not yet: echo is at 1 replica: scale it back to 2',
      'readiness-gates gcp not yet: readiness gate not yet True on echo-7d9f-0',
      'extra-hop gcp not checkable: requests only: nothing changes in the cluster (compare --probe measures it)',
      'drain gcp not yet: no node is cordoned now (put back, a drained node leaves no trace)',
      "datapath gcp not checkable: reading a node's rules changes nothing in the cluster",
    ]);
  });

  test('GIVEN cy’s cluster that refuses connections THEN could not check, saying why, for the checks that read it; eve without outputs too', () => {
    const cy = statuses(report, 'cy') as string[];
    expect(cy.filter((s) => s.includes('could not check')).length).toBe(4);
    expect(cy[0]).toMatch(/^snat aws could not check: GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/hoplab\/services\?labelSelector=hoplab\.dev%2Fexposure failed: .*ECONNREFUSED/);
    expect(statuses(report, 'eve')).toBe('no outputs for environment eve (not deployed, or not in the outputs read)');
    expect(json.code).toBe(1);
    expect(report.checked_at).toBe('2026-12-07T10:00:00.000Z');
    // Named as every other JSON report is.
    expect(Object.keys(report)).toEqual(['schema', 'checked_at', 'attendees']);
    expect(report.schema).toBe('hoplab.progress/v1');
  });

  test('GIVEN dee’s cluster that never answers WHEN read with --timeout 1 THEN could not check: no answer within the bound', async () => {
    const hung = await run('--format', 'json', '--env', 'dee', '--timeout', '1');
    const dee = statuses(JSON.parse(hung.out), 'dee') as string[];
    expect(dee[1]).toMatch(/^local-health-check aws could not check: GET \S+\/deployments\/echo failed: no answer within 1000 ms$/);
    expect(hung.code).toBe(1);
  });

  test('GIVEN --env and the table THEN only those attendees, in 80 columns, with a summary per exercise; exit 0 when every check ran', async () => {
    const table = await run('--env', 'ann,bob');
    expect(table.code).toBe(0);
    for (const line of table.out.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(table.out).toMatch(/^\| ann +\| snat \(EKS +\| done +\| echo-nodeport-local/m);
    expect(table.out).not.toMatch(/\bcy\b|\bdee\b/);
    expect(table.out).toContain(
      [
        '2 attendees:',
        '  snat: 1 of 2 done',
        '  local-health-check: 1 of 2 done',
        '  readiness-gates: 1 of 2 done',
        '  extra-hop: not checkable',
        '  drain: 1 of 2 done',
        '  datapath: not checkable',
        '',
      ].join('\n'),
    );
  });

  test('GIVEN outputs of environments the config does not name WHEN run THEN exit 1 naming the ones the outputs hold and the ones the config names; no cluster read', async () => {
    let out = '';
    let err = '';
    let asked = 0;
    const io: ProgressIo = {
      out: (t) => (out += t),
      err: (t) => (err += t),
      config: () => validConfig({ attendees: ['zoe', 'yan'] }, 'test'),
      tokens: {
        token: async () => {
          asked += 1;
          return HOST_TOKEN;
        },
      },
    };
    expect(await progress(['--outputs', outputsFile], io)).toBe(1);
    expect([out, err, asked]).toEqual([
      '',
      `hoplab progress: ${outputsFile} holds environments ann, bob, cy, dee; the config names none of them (it names zoe, yan): run where the config that deployed them is, or point HOPLAB_CONFIG at it\n`,
      0,
    ]);
  });

  test('GIVEN an environment the config lacks WHEN asked THEN a usage error naming it', async () => {
    await expect(run('--env', 'zed')).rejects.toThrow('--env: "zed" not in this config; environments: ann, bob, cy, dee, eve');
  });

  test('GIVEN --help THEN the usage', async () => {
    expect((await run('--help')).out).toBe(PROGRESS_COMMAND.help());
  });
});
