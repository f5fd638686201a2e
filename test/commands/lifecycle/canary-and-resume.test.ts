/**
 * deploy's canary and a deploy run again, in-process with everything real but
 * Terraform: a stand-in on the PATH that logs each call (`<stack>
 * <subcommand>`) and keeps a local state file per stack (LOGGING_TERRAFORM), a
 * loopback echo server behind the canary's exposure, and a fixed wall clock.
 * Two attendees, both clouds, cluster and lb stacks: the order of the calls
 * is the order of the deploy (the emulator shows the cluster stack's order with
 * real Terraform, test/emulator/shard-emulator.test.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { deploy, DeployDeps } from '../../../lib/commands/lifecycle/deploy';
import { noOrphans } from '../../support/account-lookup';
import { runLifecycle } from '../../../lib/commands/lifecycle/lifecycle';
import { runCanary } from '../../../lib/commands/lifecycle/canary';
import { chooseCanary } from '../../../lib/lab/selection/canary';
import { runVerify } from '../../../lib/commands/verify/verify';
import { estimateCost } from '../../../lib/lab/estimate/cost-estimate';
import { WallClock } from '../../../lib/kit/cli/wall-clock';
import { fakeTerraformOnPath, LOGGING_TERRAFORM } from '../../support/fake-terraform';
import { RunningServer, startEchoServer } from '../../support/echo-servers';

const NOW = new Date('2026-12-07T10:00:00Z');
const CLOCK: WallClock = { now: () => NOW };
/** A fixed date, and credentials for both clouds as verify asks for them (none exist here; the stand-in Terraform needs none). */
const DEPS: DeployDeps = { clock: CLOCK, credentials: async () => ({}), awsLookup: noOrphans };
const ENVS = ['ann', 'bob'];
const CIDRS = ['203.0.113.0/24'];
/** Both clouds; an exposure without the Gateway (GKE's Gateway CRD wait needs Google credentials) whose claims the echo server keeps. */
const CONFIG = {
  attendees: ENVS,
  exposures: ['nodeport-local'],
  aws: { endpointPublicAccessCidrs: CIDRS },
  gcp: { project: 'acme-lab-1', masterAuthorizedCidrs: CIDRS },
  workshop: { name: 'canary-test', expiresAt: '2026-12-08T18:00:00Z' },
};

describe("deploy's canary, and a deploy run again", () => {
  const saved = { cwd: process.cwd(), env: { ...process.env } };
  let echo: RunningServer;
  let dir: string;
  let restorePath: () => void;
  let out: string[];
  let err: string[];

  beforeAll(async () => {
    echo = await startEchoServer('client-address');
  });
  afterAll(async () => {
    await echo.close();
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hoplab-canary-'));
    process.chdir(dir);
    for (const name of ['HOPLAB_CONFIG', 'HOPLAB_AWS_ENDPOINT', 'HOPLAB_PROVIDER_MIRROR']) delete process.env[name];
    Object.assign(process.env, {
      HOPLAB_TF_LOG: join(dir, 'terraform-calls.log'),
      HOPLAB_TF_STATE: dir,
      HOPLAB_TF_FAIL: join(dir, 'fail'),
      HOPLAB_TF_DRIFT: join(dir, 'drift'),
      HOPLAB_TF_OUTPUTS: join(dir, 'outputs'),
    });
    restorePath = fakeTerraformOnPath('hoplab-canary-tf-', LOGGING_TERRAFORM).restore;
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify(CONFIG));
    // Each environment's AWS exposure answers on loopback as it claims (the client's own address, no SNAT).
    mkdirSync(join(dir, 'outputs'));
    for (const env of ENVS) {
      const value = {
        mode: 'nodeport-local',
        cloud: 'aws',
        url: echo.url,
        lb_kind: 'nlb',
        target_type: 'instance',
        expected_hops: 1,
        source_nat: false,
        client_ip_via: 'tcp-source',
        client_ip_preserved: true,
      };
      writeFileSync(join(dir, 'outputs', `${env}-aws-lb.json`), JSON.stringify({ exposure_nodeport_local: { value } }));
      writeFileSync(join(dir, 'outputs', `${env}-aws-cluster.json`), JSON.stringify({ cloud: { value: 'aws' }, pod_address_range: { value: ['10.0.0.0/19', '10.0.32.0/19'] } }));
    }
    out = [];
    err = [];
    jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(...String(line).split('\n')));
    jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(...String(line).split('\n')));
  });

  afterEach(() => {
    jest.restoreAllMocks();
    restorePath();
    process.chdir(saved.cwd);
    for (const name of Object.keys(process.env)) if (!(name in saved.env)) delete process.env[name];
    Object.assign(process.env, saved.env);
    rmSync(dir, { recursive: true, force: true });
  });

  /** The stand-in's calls, in order: `<stack> <subcommand>`. */
  const calls = () => readFileSync(join(dir, 'terraform-calls.log'), 'utf8').trim().split('\n');
  const at = (list: string[], call: string) => {
    const i = list.indexOf(call);
    if (i < 0) throw new Error(`no call "${call}" in:\n${list.join('\n')}`);
    return i;
  };
  const stacksOf = (env: string) => ['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb'].map((k) => `${env}-${k}`);
  const run = (...flags: string[]) => deploy(['--yes', '--skip-preflight', '--my-ip', '127.0.0.1', ...flags], DEPS);

  test('GIVEN two environments WHEN deployed THEN the first is applied end to end on both clouds, verified, and only then the other starts', async () => {
    expect(await run()).toBe(0);
    const log = calls();
    const applies = (env: string) => stacksOf(env).map((s) => at(log, `${s} apply`));
    // The canary: every stack of ann applied, each cloud's cluster before its lb stack.
    expect(at(log, 'ann-aws-cluster apply')).toBeLessThan(at(log, 'ann-aws-lb init'));
    expect(at(log, 'ann-gcp-cluster apply')).toBeLessThan(at(log, 'ann-gcp-lb init'));
    // Then verify of ann: a plan of each of its stacks, after all its applies...
    const plans = stacksOf('ann').map((s) => at(log, `${s} plan`));
    expect(Math.min(...plans)).toBeGreaterThan(Math.max(...applies('ann')));
    // ...and nothing of bob before the last of them.
    const firstOther = log.findIndex((c) => c.startsWith('bob-'));
    expect(firstOther).toBeGreaterThan(Math.max(...plans, at(log, 'ann-aws-lb output')));
    expect(log.filter((c) => !c.startsWith('ann-') && c.endsWith(' plan'))).toEqual([]);
    expect(at(log, 'bob-aws-cluster apply')).toBeLessThan(at(log, 'bob-aws-lb init'));
    expect(at(log, 'bob-gcp-cluster apply')).toBeLessThan(at(log, 'bob-gcp-lb init'));
    expect(log.filter((c) => c.endsWith(' apply')).sort()).toEqual([...ENVS.flatMap(stacksOf)].map((s) => `${s} apply`).sort());

    expect(out).toContain('  canary       35 min of it: ann, verified before the other one');
    expect(out).toContain('canary: ann first, end to end, then verify; the other environment (bob) waits for it');
    expect(out).toContain('deploy: 4 stacks of 1 environment, 4 at a time (logs: .hoplab/logs/)');
    expect(out).toContain('canary: ann applied; verify ann before the others');
    expect(out).toContainEqual(expect.stringMatching(/^canary: verify of ann PASSED \(report: .*\/\.hoplab\/verify\/verify-[\dT-]+Z\.md\); now the other environment \(bob\)$/));
    expect(out).toContain('deploy: 4 stacks of 1 environment, 4 at a time (logs: .hoplab/logs/)');
    expect(out.at(-1)).toBe('hoplab deploy: every stack applied; see the outputs with npm run compare');
    expect(err).toEqual([]);
  });

  test('GIVEN the canary drifts right after its apply WHEN deployed THEN deploy stops with the verify report and what it costs while it stands; the others never start', async () => {
    writeFileSync(join(dir, 'drift'), 'ann-aws-cluster\n');
    expect(await run()).toBe(1);
    expect(calls().filter((c) => c.startsWith('bob-'))).toEqual([]);
    expect(out).toContain('hoplab verify: FAILED (ann)');
    expect(out).toContain('  drift   ann-aws-cluster: DRIFT');
    expect(out).toContain('            would change: aws_vpc.vpc update (tags)');
    const { hour: cost, asOf } = estimateCost(validConfig(CONFIG, 'test'), { envs: ['ann'] });
    const usd = (n: number) => `$${n.toFixed(2)}/h`;
    expect(err).toEqual([
      expect.stringMatching(/^hoplab deploy: stopped after the canary: verify of ann FAILED \(report: .*\.md\); the other environment \(bob\) was not started\.$/),
      `  ann stands and costs about ${usd(cost.total)} (AWS ${usd(cost.aws)} + GCP ${usd(cost.gcp)}) at list prices read ${asOf} while it does: ` +
        'fix the cause and deploy again (what applied shows no changes, the rest continue), or remove it: npx hoplab teardown --env ann',
    ]);
    expect(out.join('\n')).not.toContain('every stack applied');
  });

  test('GIVEN a stack of the canary fails WHEN deployed, then deployed again once it is fixed THEN the first stops at the canary, and the second continues: applied stacks say no changes, the failed one and the others apply', async () => {
    writeFileSync(join(dir, 'fail'), 'ann-gcp-lb apply\n');
    expect(await run()).toBe(1);
    expect(calls().filter((c) => c.startsWith('bob-'))).toEqual([]);
    expect(calls().filter((c) => c.endsWith(' plan'))).toEqual([]);
    expect(err[0]).toBe('hoplab deploy: stopped after the canary: not every stack of ann applied (see above and .hoplab/logs); the other environment (bob) was not started.');
    expect(err[1]).toMatch(/^ {2}ann stands and costs up to \$\d+\.\d\d\/h \(AWS .*\) at list prices read \S+ \(all its stacks\) while it does: /);

    rmSync(join(dir, 'fail'));
    writeFileSync(join(dir, 'terraform-calls.log'), '');
    out.length = 0;
    err.length = 0;
    expect(await run()).toBe(0);
    for (const stack of ['ann-aws-cluster', 'ann-aws-lb', 'ann-gcp-cluster']) {
      expect(out).toContainEqual(expect.stringMatching(new RegExp(`^ {2}done {3}${stack} in \\d+\\.\\d s \\(no changes, already applied\\)$`)));
    }
    expect(out).toContainEqual(expect.stringMatching(/^ {2}done {3}ann-gcp-lb in \d+\.\d s$/));
    expect(out).toContainEqual(expect.stringMatching(/^ {2}done {3}bob-aws-cluster in \d+\.\d s$/));
    expect(out.at(-1)).toBe('hoplab deploy: every stack applied (3 stacks already applied: no changes); see the outputs with npm run compare');
    // Every stack was planned again (apply plans first); only ann's verify came between the canary and the others.
    expect(calls().filter((c) => c.endsWith(' apply'))).toHaveLength(8);
  });

  test("GIVEN the canary's exposure outside what this machine may reach WHEN deployed THEN its verify is INCOMPLETE, said, and the other environment goes ahead", async () => {
    // app.allowedSourceCidrs narrowed, this machine (--my-ip) outside it, the exposure's address not loopback: left out, not waited for.
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ ...CONFIG, app: { allowedSourceCidrs: ['203.0.113.0/24'] } }));
    const value = { mode: 'nodeport-local', cloud: 'aws', url: 'http://198.51.100.80/', lb_kind: 'nlb', target_type: 'instance', expected_hops: 1, source_nat: false, client_ip_via: 'tcp-source' };
    writeFileSync(join(dir, 'outputs', 'ann-aws-lb.json'), JSON.stringify({ exposure_nodeport_local: { value } }));
    expect(await deploy(['--yes', '--skip-preflight', '--my-ip', '192.0.2.9'], DEPS)).toBe(0);
    expect(out).toContainEqual(
      expect.stringMatching(/^canary: verify of ann INCOMPLETE: nothing that ran failed, but 2 checks could not run \(report: .*\.md\); going on with the other environment \(bob\)$/),
    );
    expect(calls().filter((c) => c === 'bob-aws-lb apply')).toHaveLength(1);
  });

  test("GIVEN Ctrl-C during the canary's verify WHEN it ends THEN the others are not started, and the exit is 130", async () => {
    const config = validConfig(CONFIG, 'test');
    const abort = new AbortController();
    const errors: string[] = [];
    const code = await runCanary({
      env: 'ann',
      others: ['bob'],
      apply: (envs) => runLifecycle('deploy', { config, envs: [...envs], write: () => undefined, signal: abort.signal, now: NOW, awsLookup: noOrphans }),
      // The real verify; Ctrl-C comes while it runs.
      verify: async (env) => {
        abort.abort();
        return runVerify({
          config,
          envs: [env],
          waitMs: 0,
          probe: { count: 1, concurrency: 1, timeoutMs: 1000, myIp: '127.0.0.1' },
          progress: () => undefined,
          credentials: DEPS.credentials,
        });
      },
      costPerHour: '$0.66/h',
      write: () => undefined,
      error: (line) => errors.push(line),
      signal: abort.signal,
    });
    expect(code).toBe(130);
    expect(errors[0]).toMatch(/^hoplab deploy: stopped after the canary: interrupted during verify of ann \(report: .*\.md\); the other environment \(bob\) was not started\.$/);
    expect(calls().filter((c) => c.startsWith('bob-'))).toEqual([]);
  });

  test("GIVEN no credentials for the canary's verify WHEN deployed THEN verify checks nothing, and deploy stops there rather than take that for a pass", async () => {
    const missing = { aws: 'aws: no usable credentials', gcp: 'gcp: no credentials' };
    expect(await deploy(['--yes', '--skip-preflight', '--my-ip', '127.0.0.1'], { clock: CLOCK, credentials: async () => missing, awsLookup: noOrphans })).toBe(1);
    expect(out).toContain('hoplab verify: INCOMPLETE (ann)');
    expect(err[0]).toMatch(/^hoplab deploy: stopped after the canary: verify of ann could check nothing \(report: .*\.md\); the other environment \(bob\) was not started\.$/);
    expect(calls().filter((c) => c.startsWith('bob-'))).toEqual([]);
  });

  test('GIVEN --no-canary WHEN deployed THEN it says so loudly, nothing is verified, and every environment applies in one run', async () => {
    expect(await run('--no-canary')).toBe(0);
    expect(out).toContain('hoplab deploy: --no-canary: NO CANARY. All 2 environments are applied at once and none is verified first: a mistake they share is paid 2 times over.');
    expect(out).toContain('deploy: 8 stacks of 2 environments, 4 at a time (logs: .hoplab/logs/)');
    expect(out.filter((l) => l.startsWith('canary') || l.startsWith('  canary'))).toEqual([]);
    expect(calls().filter((c) => c.endsWith(' plan'))).toEqual([]);
  });

  test('GIVEN workshop.expiresAt before the clock WHEN deployed THEN it is refused before anything runs, with an example from the same clock', async () => {
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ ...CONFIG, workshop: { expiresAt: '2026-12-01T18:00:00Z' } }));
    await expect(run()).rejects.toThrow(
      'workshop.expiresAt ("2026-12-01T18:00:00Z") has passed (it is 2026-12-07T10:00Z now): every resource would be tagged hoplab-expires with a time gone by, due for deletion the moment it exists; ' +
        'set workshop.expiresAt to when this workshop ends, e.g. "2026-12-08T18:00:00Z"',
    );
    expect(() => calls()).toThrow();
  });
});

describe('chooseCanary', () => {
  test.each([
    ['one environment', ['ann'], {}, {}],
    ['three', ['ann', 'bob', 'cy'], {}, { env: 'ann', others: ['bob', 'cy'] }],
    [
      'a shard',
      ['bob', 'cy'],
      { shard: { index: 2, total: 3 } },
      {
        note:
          'no canary in a shard (--shard 2/3): shards run side by side, so it would hold none of the others back; ' +
          'deploy and verify one environment before the shard jobs (npx hoplab deploy --env bob --yes, then npx hoplab verify --env bob)',
      },
    ],
    ['--no-canary with one environment', ['ann'], { noCanary: true }, {}],
  ])('GIVEN %s THEN %j', (_name, envs, options, expected) => {
    expect(chooseCanary(envs, { noCanary: false, ...options })).toEqual(expected);
  });
});

describe('a teardown run again', () => {
  const saved = { env: { ...process.env } };
  let dir: string;
  let restorePath: () => void;
  afterEach(() => {
    restorePath();
    for (const name of Object.keys(process.env)) if (!(name in saved.env)) delete process.env[name];
    Object.assign(process.env, saved.env);
    rmSync(dir, { recursive: true, force: true });
  });

  test('GIVEN a stack destroyed by an earlier teardown WHEN destroyed again THEN its line says there was nothing to destroy', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hoplab-destroy-again-'));
    restorePath = fakeTerraformOnPath('hoplab-destroy-tf-', LOGGING_TERRAFORM).restore;
    // Emulator mode (its state in .hoplab/emulator), at an address nothing answers: the leftover check cannot run, said.
    const stateDir = join(dir, '.hoplab', 'emulator');
    mkdirSync(stateDir, { recursive: true });
    Object.assign(process.env, { HOPLAB_TF_LOG: join(dir, 'calls.log'), HOPLAB_TF_STATE: stateDir });
    writeFileSync(join(stateDir, 'terraform.lab-aws-cluster.tfstate'), '{"version":4,"resources":[{"type":"aws_vpc","name":"vpc"}]}');
    const destroy = async () => {
      const lines: string[] = [];
      const result = await runLifecycle('destroy', { config: validConfig({}, 'test'), kinds: ['aws-cluster'], cwd: dir, awsEndpoint: 'http://127.0.0.1:9', write: (l) => lines.push(l) });
      return { lines, result };
    };
    const first = await destroy();
    expect(first.lines).toContainEqual(expect.stringMatching(/^ {2}done {3}lab-aws-cluster in \d+\.\d s$/));
    expect(first.result.unchanged).toEqual([]);
    const again = await destroy();
    expect(again.lines).toContainEqual(expect.stringMatching(/^ {2}done {3}lab-aws-cluster in \d+\.\d s \(nothing to destroy, already gone\)$/));
    expect(again.result.unchanged).toEqual(['lab-aws-cluster']);
  });
});
