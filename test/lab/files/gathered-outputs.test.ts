/**
 * The CI route with no local `cdktf output`: a workshop of 30 attendees deployed
 * in 3 shards, each shard's job writing `compare --shard K/3 --format json`, the
 * last job gathering them with `pipeline --gather` into hoplab-compare.json; that
 * one file is then fed to handout, watch and explain, as a host does after
 * downloading the artifact. Every command runs in-process; the exposures are
 * loopback echo servers; watch runs on a fake clock.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { validConfig } from '../../../lib/config/load';
import { addPlacedLab } from '../../../lib/lab/placement/placed-lab';
import { runCompare } from '../../../lib/commands/compare/compare-cli';
import { pipeline } from '../../../lib/commands/pipeline/pipeline';
import { handout } from '../../../lib/commands/handout/handout';
import { runWatch } from '../../../lib/commands/watch/watch-cli';
import { runExplain } from '../../../lib/commands/explain/explain-cli';
import { attendeeNames } from '../../support/placed-lab';
import { labOutputs, offered } from '../../support/lab-outputs';
import { RunningServer, startEchoServer } from '../../support/echo-servers';
import { FakeClock } from '../../support/fake-clock';

const NAMES = attendeeNames(30);
const SHARDS = 3;
const config = validConfig({ attendees: NAMES }, 'test');
const dir = mkdtempSync(join(tmpdir(), 'hoplab-gathered-'));
const synthDir = join(dir, 'cdktf.out');
const gathered = join(dir, 'hoplab-compare.json');
let echo: RunningServer;
const urlOf = (env: string, cloud: string, mode: string) => `${echo.url}${env}/${cloud}/${mode}`;

beforeAll(async () => {
  echo = await startEchoServer('client-address');
  // The synthesized app the jobs synthesize too (explain and handout read the lab's anatomy from it).
  const app = new App({ outdir: synthDir, stackTraces: false });
  addPlacedLab(app, config);
  app.synth();
  // Each shard's job: compare --shard K/N --format json over its outputs (cdktf output of the lab's stacks).
  writeFileSync(join(dir, 'cdktf-outputs.json'), JSON.stringify(labOutputs(NAMES, urlOf)));
  mkdirSync(join(dir, 'compare'));
  for (let k = 1; k <= SHARDS; k += 1) {
    let out = '';
    const code = await runCompare(['--outputs', join(dir, 'cdktf-outputs.json'), '--shard', `${k}/${SHARDS}`, '--format', 'json'], {
      out: (t) => (out += t),
      err: () => undefined,
      progress: { write: () => undefined, isTTY: false },
      environments: () => NAMES,
    });
    expect(code).toBe(0);
    writeFileSync(join(dir, 'compare', `hoplab-compare-${k}.json`), out);
  }
  // The pipeline's last job. The local cdktf outputs go: only the gathered file is left.
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    expect(await pipeline(['--gather', join(dir, 'compare'), '--shards', String(SHARDS), '--out', gathered])).toBe(0);
  } finally {
    log.mockRestore();
  }
  rmSync(join(dir, 'cdktf-outputs.json'));
});

afterAll(async () => {
  await echo.close();
  rmSync(dir, { recursive: true, force: true });
});

test('GIVEN the gathered file THEN it holds all 30 environments from the 3 shards', () => {
  const doc = JSON.parse(readFileSync(gathered, 'utf8')) as { schema: string; environments: { env: string }[] };
  expect(doc.schema).toBe('hoplab.compare/v1');
  expect(doc.environments.map((e) => e.env)).toEqual(NAMES);
});

test('GIVEN the gathered file WHEN handout reads it THEN one handout per attendee, each with its own exposures’ URLs', async () => {
  let err = '';
  let out = '';
  // As the pipeline's handouts job runs it: no kubeconfig (its artifact must never hold one), so no cluster is asked for a token.
  const code = await handout(['--outputs', gathered, '--dir', synthDir, '--out', join(dir, 'handouts'), '--format', 'markdown', '--no-kubeconfigs'], {
    out: (t) => (out += t),
    err: (t) => (err += t),
    config: () => config,
  });
  expect([code, err]).toEqual([0, '']);
  expect(out).toBe(`hoplab handout: wrote 30 handouts (markdown), index.html to ${join(dir, 'handouts')}/\n`);
  const files = readdirSync(join(dir, 'handouts')).filter((f) => f.endsWith('.md'));
  expect(files).toHaveLength(30);
  for (const env of [NAMES[0], NAMES[16], NAMES[29]]) {
    const text = readFileSync(join(dir, 'handouts', files.find((f) => f.includes(env))!), 'utf8');
    for (const cloud of ['aws', 'gcp'] as const) for (const mode of offered(cloud)) expect(text).toContain(urlOf(env, cloud, mode));
    expect(text).toContain(`${env}-eks`);
  }
});

test('GIVEN the gathered file WHEN watch reads it THEN every exposure of the 30 environments is watched and answers, and nothing goes to stderr', async () => {
  let err = '';
  let out = '';
  const code = await runWatch(['--outputs', gathered, '--duration', '3', '--timeout', '60000', '--format', 'json'], {
    stdout: { write: (t: string) => ((out += t), true) },
    err: (t) => (err += t),
    env: {},
    clock: new FakeClock(),
  });
  expect([code, err]).toEqual([0, '']);
  const summary = JSON.parse(out.trim().split('\n').at(-1)!) as { exposures: { label: string; sent: number; ok: number; failed: number }[] };
  expect(summary.exposures).toHaveLength(30 * (offered('aws').length + offered('gcp').length));
  expect(summary.exposures.filter((e) => e.sent === 0 || e.ok !== e.sent)).toEqual([]);
});

test('GIVEN the gathered file WHEN compare reads it THEN the same 30 environments, with their clusters', async () => {
  let out = '';
  const code = await runCompare(['--outputs', gathered, '--format', 'json'], { out: (t) => (out += t), err: () => undefined, progress: { write: () => undefined, isTTY: false } });
  const doc = JSON.parse(out) as { environments: { env: string; clusters: { aws?: { cluster_name: string } } }[] };
  expect([code, doc.environments.map((e) => e.env)]).toEqual([0, NAMES]);
  expect(doc.environments[4].clusters.aws?.cluster_name).toBe(`${NAMES[4]}-eks`);
});

test('GIVEN the gathered file WHEN explain reads it THEN each environment’s URLs are shown', () => {
  for (const env of [NAMES[0], NAMES[29]]) {
    let out = '';
    let err = '';
    const code = runExplain(['--dir', synthDir, '--outputs', gathered, '--env', env, '--format', 'markdown'], { out: (t) => (out += t), err: (t) => (err += t) });
    expect([code, err]).toEqual([0, '']);
    for (const cloud of ['aws', 'gcp'] as const) for (const mode of offered(cloud)) expect(out).toContain(urlOf(env, cloud, mode));
  }
  expect(existsSync(gathered)).toBe(true);
});
