/**
 * `npm run cost` honours --stacks and --env in the cost as in the time
 * estimate (`--stacks aws-cluster,aws-lb` prints no GCP cost), and has one
 * flag style: `--format json`, with `--json` kept as its alias.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cost } from '../../../lib/commands/cost/cost';
import { placedAwsState, writeState } from '../../support/tf-state';

describe('npm run cost', () => {
  const saved = process.env.HOPLAB_CONFIG;
  let printed: string[];
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-cost-'));
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ attendees: ['ann', 'bob', 'cy'] }));
    process.env.HOPLAB_CONFIG = join(dir, 'hoplab.config.json');
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.HOPLAB_CONFIG;
    else process.env.HOPLAB_CONFIG = saved;
  });
  beforeEach(() => {
    printed = [];
    jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(...String(text).split('\n')));
  });
  afterEach(() => jest.restoreAllMocks());

  test('GIVEN --stacks aws-cluster,aws-lb WHEN run THEN the cost names no GCP item or price, as the time estimate names no GCP stack', async () => {
    expect(await cost(['--stacks', 'aws-cluster,aws-lb'])).toBe(0);
    expect(printed.filter((l) => /gcp|GCP|GKE|Google/.test(l))).toEqual([]);
    expect(printed.find((l) => l.startsWith('  3 environments: '))).toMatch(/^ {2}3 environments: AWS \$\d+\.\d\d\/h$/);
  });

  test('GIVEN --env ann,cy --stacks gcp-cluster --json WHEN run THEN the JSON prices 2 environments of GCP clusters only', async () => {
    expect(await cost(['--env', 'ann,cy', '--stacks', 'gcp-cluster', '--json'])).toBe(0);
    const json = JSON.parse(printed.join('\n'));
    expect([json.environments, json.stacks, json.hour.aws]).toEqual([2, ['gcp-cluster'], 0]);
    // Per region (one here): its environments and their lines.
    expect(json.regions.map((r: { cloud: string; region: string; environments: number }) => [r.cloud, r.region, r.environments])).toEqual([['gcp', 'us-central1', 2]]);
    expect([...new Set(json.regions.flatMap((r: { lines: { stack: string }[] }) => r.lines.map((l) => l.stack)))]).toEqual(['gcp-cluster']);
    expect(json.hour.gcp).toBeGreaterThan(0);
  });

  test('GIVEN --env naming an environment the config does not have WHEN run THEN a usage error names it and the ones there are', async () => {
    await expect(cost(['--env', 'zed'])).rejects.toThrow('--env: "zed" not in this config; environments: ann, bob, cy');
  });
});

async function printedBy(argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const spy = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    return { code: await cost(argv), out: lines.join('\n') };
  } finally {
    spy.mockRestore();
  }
}

describe('cost output formats', () => {
  test('GIVEN --format json and --json WHEN run THEN both print the same JSON', async () => {
    const format = await printedBy(['--format', 'json']);
    const alias = await printedBy(['--json']);
    expect(format.code).toBe(0);
    expect(JSON.parse(format.out)).toEqual(JSON.parse(alias.out));
  });

  test('GIVEN --format table WHEN run THEN the table is printed, not JSON', async () => {
    const table = await printedBy(['--format', 'table']);
    expect(table.out).not.toMatch(/^\{/);
    expect(table.out).toBe((await printedBy([])).out);
  });

  test.each([
    [['--format', 'yaml'], '--format: "yaml" is not one of table, json'],
    [['--json', '--format', 'table'], '--json and --format table contradict each other; give one of them'],
  ])('GIVEN %j WHEN run THEN a usage error says what is allowed', async (argv, message) => {
    await expect(cost(argv)).rejects.toThrow(message);
  });
});

describe('npm run cost with placement', () => {
  const saved = process.env.HOPLAB_CONFIG;
  let printed: string[];
  const useConfig = (config: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-cost-'));
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify(config));
    process.env.HOPLAB_CONFIG = join(dir, 'hoplab.config.json');
  };
  beforeEach(() => {
    printed = [];
    jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(...String(text).split('\n')));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    if (saved === undefined) delete process.env.HOPLAB_CONFIG;
    else process.env.HOPLAB_CONFIG = saved;
  });

  test('GIVEN a config without placement WHEN run THEN neither form says anything of placement (the output is as before)', async () => {
    useConfig({ attendees: ['ann', 'bob', 'cy'] });
    expect(await cost(['--json'])).toBe(0);
    expect(JSON.parse(printed.join('\n'))).not.toHaveProperty('placement');
    printed = [];
    expect(await cost([])).toBe(0);
    expect(printed.filter((l) => /[Pp]lacement/.test(l))).toEqual([]);
  });

  test('GIVEN a config that places environments WHEN run THEN the table ends with the placement and the JSON has it', async () => {
    useConfig({ attendees: ['ann', 'bob', 'cy', 'dee', 'eve'], aws: { regions: ['us-east-1', 'us-east-2'] } });
    expect(await cost(['--json'])).toBe(0);
    const json = JSON.parse(printed.join('\n'));
    expect(json.placement.slots.filter((s: { cloud: string }) => s.cloud === 'aws').map((s: { slot: string; environments: string[] }) => [s.slot, s.environments])).toEqual([
      ['host/us-east-1', ['ann', 'bob', 'cy', 'dee']],
      ['host/us-east-2', ['eve']],
    ]);
    printed = [];
    expect(await cost([])).toBe(0);
    expect(printed).toContain('Placement of 5 environments:');
    expect(printed.find((l) => l.startsWith('| host/us-east-2'))).toMatch(/^\| host\/us-east-2 \| 1\/4 +\| eve +\| 2\/5 +\| 2\/5 +\| 6 +\|$/);
  });

  test('GIVEN an environment deployed where the config would no longer put it (its local state says us-east-2) WHEN run THEN it is priced and placed where it is, as deploy and teardown see it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hoplab-cost-state-'));
    const before = process.cwd();
    // Placed by the config alone, ann would go to the first slot with room: host/us-east-1.
    writeState(join(cwd, 'terraform.ann-aws-cluster.tfstate'), placedAwsState({ slot: 'host/us-east-2', account: 'host', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'] }));
    useConfig({ attendees: ['ann', 'bob'], aws: { regions: ['us-east-1', 'us-east-2'] } });
    process.chdir(cwd);
    try {
      expect(await cost(['--json'])).toBe(0);
    } finally {
      process.chdir(before);
    }
    const json = JSON.parse(printed.join('\n'));
    expect(json.placement.slots.filter((s: { cloud: string }) => s.cloud === 'aws').map((s: { slot: string; environments: string[] }) => [s.slot, s.environments])).toEqual([
      ['host/us-east-1', ['bob']],
      ['host/us-east-2', ['ann']],
    ]);
  });
});

describe("npm run cost --shards: the pipelines' canary job before the shards, each shard job's verify after its deploy", () => {
  const saved = process.env.HOPLAB_CONFIG;
  const attendees = ['ann', 'bob', 'cy', 'dee', 'eve'];
  const useConfig = (config: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-cost-'));
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify(config));
    process.env.HOPLAB_CONFIG = join(dir, 'hoplab.config.json');
  };
  /** The time estimate's lines: from its heading to the teardown's line, and its per-stack figures after the lb stacks'. */
  const wallTime = (lines: string[]) => {
    const from = lines.findIndex((l) => l.startsWith('Estimated wall time'));
    return { head: lines.slice(from, lines.findIndex((l) => l.startsWith('  teardown')) + 1), figures: lines.slice(lines.findIndex((l) => l.startsWith('    gcp-lb')) + 2) };
  };
  afterEach(() => {
    if (saved === undefined) delete process.env.HOPLAB_CONFIG;
    else process.env.HOPLAB_CONFIG = saved;
  });

  test('GIVEN 5 environments WHEN run with --shards 2 THEN the deploy is the canary job (ann deployed, then verified) followed by the shard jobs, each its deploy then its verify, said on lines of their own', async () => {
    useConfig({ attendees });
    const run = await printedBy(['--shards', '2']);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    // The canary job: ann's stacks, 4 at a time (25 min, the EKS chain), and her verify at its worst (10). Then the shard
    // jobs: bob and dee (25 min), then their verify (8 plans, their 22 exposures at once: 14 min); ann, cy and eve (27 min:
    // ann's stacks found applied, a plan each, beside cy's and eve's), then their verify (12 plans, 33 exposures: 18 min),
    // the slowest job: 35 + 27 + 18.
    expect(wallTime(lines)).toEqual({
      head: [
        'Estimated wall time (2 shards side by side (at most 3 environments each), 4',
        '  stacks at a time per shard):',
        '  deploy    1 h 20 min for 20 stacks of 5 environments (one alone: 25 min)',
        '  canary job   35 min of it: ann, verified, then the shards',
        "  verify       18 min of it: after the slowest shard job's deploy, at its worst",
        '  teardown      27 min for 20 stacks of 5 environments (one alone: 16 min)',
      ],
      figures: [
        "    verify      10      min  the canary's at worst: 4 plans, one after another",
        '                             (1 min each, an estimate), then every exposure at',
        '                             once: waited for up to --wait and a last attempt',
        '                             (305 s), probed (at most 30 s)',
        "    applied      1      min  each of the canary's stacks again, in its shard:",
        '                             found applied, one plan with no changes (an',
        "                             estimate, as verify's)",
        "    verify      18      min  the slowest shard job's at worst: 12 plans, one",
        '                             after another (1 min each, an estimate), then every',
        '                             exposure at once: waited for up to --wait and a',
        '                             last attempt (305 s), probed (at most 30 s)',
      ],
    });
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });

  test("GIVEN 14 environments in 2 shards WHEN run THEN a shard job's verify waits for its 77 exposures taking turns (past 64 requests in flight); with one exposure mode, 14 exposures, none", async () => {
    const fourteen = Array.from({ length: 14 }, (_, i) => `a${i + 1}`);
    useConfig({ attendees: fourteen });
    const verifyFigure = (out: string) => {
      const lines = out.split('\n');
      const from = lines.findIndex((l) => l.startsWith('    verify      ') && l.includes("the slowest shard job's"));
      return lines.slice(from).join(' ').replace(/\s+/g, ' ').trim();
    };
    // 7 environments a shard, 28 plans: 1680 s, the wait and a turn (310 s), the probe (30 s): 34 min.
    expect(verifyFigure((await printedBy(['--shards', '2'])).out)).toBe(
      "verify 34 min the slowest shard job's at worst: 28 plans, one after another (1 min each, an estimate), then every exposure at once: waited for up to --wait, a turn (77 exposures, 64 requests in flight) and a last attempt (310 s), probed (at most 30 s)",
    );
    useConfig({ attendees: fourteen, exposures: ['native-l4'] });
    expect(verifyFigure((await printedBy(['--shards', '2'])).out)).toBe(
      "verify 34 min the slowest shard job's at worst: 28 plans, one after another (1 min each, an estimate), then every exposure at once: waited for up to --wait and a last attempt (305 s), probed (at most 30 s)",
    );
  });

  test('GIVEN a narrowed app.allowedSourceCidrs (the pipelines do not verify: a runner is kept out) WHEN run with --shards 2 THEN the canary job is ann deployed, no verify', async () => {
    useConfig({ attendees, app: { allowedSourceCidrs: ['203.0.113.0/24'] } });
    const run = await printedBy(['--shards', '2']);
    expect(run.code).toBe(0);
    expect(wallTime(run.out.split('\n'))).toEqual({
      // Neither the canary job nor a shard job verifies: no verify line.
      head: [
        'Estimated wall time (2 shards side by side (at most 3 environments each), 4',
        '  stacks at a time per shard):',
        '  deploy        52 min for 20 stacks of 5 environments (one alone: 25 min)',
        '  canary job   25 min of it: ann, no verify, then the shards',
        '  teardown      27 min for 20 stacks of 5 environments (one alone: 16 min)',
      ],
      figures: [
        "    applied      1      min  each of the canary's stacks again, in its shard:",
        '                             found applied, one plan with no changes (an',
        "                             estimate, as verify's)",
      ],
    });
  });

  test("GIVEN --shards 2 --json WHEN run THEN the deploy time holds the canary job and the slowest shard job's verify, the teardown neither", async () => {
    useConfig({ attendees });
    const run = await printedBy(['--shards', '2', '--json']);
    const { time } = JSON.parse(run.out);
    expect([time.deploy.minutes, time.deploy.canary.env, time.deploy.canary.minutes, time.deploy.canary.job, time.deploy.canary.verify.minutes]).toEqual([80, 'ann', 35, true, 10]);
    expect(time.deploy.shardVerify).toEqual({
      minutes: 18,
      source:
        "the slowest shard job's at worst: 12 plans, one after another (1 min each, an estimate), then every exposure at once: waited for up to --wait and a last attempt (305 s), probed (at most 30 s)",
    });
    expect(time.teardown).not.toHaveProperty('canary');
    expect(time.teardown).not.toHaveProperty('shardVerify');
    // Where the jobs do not verify, the JSON has no shard verify either.
    useConfig({ attendees, app: { allowedSourceCidrs: ['203.0.113.0/24'] } });
    expect(JSON.parse((await printedBy(['--shards', '2', '--json'])).out).time.deploy).not.toHaveProperty('shardVerify');
  });

  test("GIVEN no --shards WHEN run THEN deploy's own canary, as before: ann verified before the other 4, no canary job, no applied stacks", async () => {
    useConfig({ attendees });
    const run = await printedBy([]);
    const { head, figures } = wallTime(run.out.split('\n'));
    expect(head).toEqual([
      'Estimated wall time (4 stacks at a time):',
      '  deploy    1 h 25 min for 20 stacks of 5 environments (one alone: 25 min)',
      '  canary       35 min of it: ann, verified before the other 4',
      '  teardown      38 min for 20 stacks of 5 environments (one alone: 16 min)',
    ]);
    expect(figures.filter((l) => l.startsWith('    applied'))).toEqual([]);
    // One verify figure, the canary's; no shard job verifies.
    expect(figures.filter((l) => l.startsWith('    verify'))).toEqual(["    verify      10      min  the canary's at worst: 4 plans, one after another"]);
    const json = JSON.parse((await printedBy(['--json'])).out);
    expect(json.time.deploy.canary).not.toHaveProperty('job');
    expect(json.time.deploy).not.toHaveProperty('shardVerify');
  });
});
