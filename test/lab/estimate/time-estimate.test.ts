import { APPLIED_MINUTES, estimateTime, exposuresPerEnvironment, formatTimeEstimate, scheduleMinutes, STACK_TIMES, verifyTime } from '../../../lib/lab/estimate/time-estimate';

const ALL = ['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb'] as const;
const attendees = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);

describe('deploy-time estimate', () => {
  test('GIVEN one environment WHEN deployed with room to spare THEN the longer cloud chain (EKS cluster then lb)', () => {
    expect(scheduleMinutes(['lab'], 'deploy', ALL, 4, STACK_TIMES)).toBe(20 + 5);
    expect(scheduleMinutes(['lab'], 'destroy', ALL, 4, STACK_TIMES)).toBe(12 + 4);
  });

  test('GIVEN one stack at a time WHEN deployed THEN the sum of all stacks', () => {
    expect(scheduleMinutes(['ann', 'bob'], 'deploy', ALL, 1, STACK_TIMES)).toBe(2 * (20 + 5 + 10 + 6));
  });

  test('GIVEN two environments and two at a time WHEN deployed THEN the schedule runGraph follows (ready stacks start in graph order)', () => {
    // ann-aws-cluster 0-20 and ann-gcp-cluster 0-10; ann-gcp-lb 10-16; bob-aws-cluster 16-36;
    // ann-aws-lb 20-25; bob-gcp-cluster 25-35; bob-gcp-lb 35-41; bob-aws-lb 36-41
    expect(scheduleMinutes(['ann', 'bob'], 'deploy', ALL, 2, STACK_TIMES)).toBe(41);
  });

  test('GIVEN 100 attendees WHEN split into 10 shards THEN the slowest shard of 10 sets the time, a tenth of one runner', () => {
    const one = estimateTime('deploy', { envs: attendees(100), parallelism: 4 });
    // The shard jobs' deploys alone (each job's verify after it is counted in "each shard job's verify" below).
    const ten = estimateTime('deploy', { envs: attendees(100), parallelism: 4, shards: 10, jobsVerify: false });
    expect(one).toMatchObject({ stacks: 400, environments: 100, shards: 1, largestShard: 100, criticalPathMinutes: 25 });
    expect(ten).toMatchObject({ stacks: 400, shards: 10, largestShard: 10 });
    // 4 stacks at a time: at least the work over 4; a shard of 10 environments is 410 stack-minutes
    expect(one.minutes).toBeGreaterThanOrEqual((100 * 41) / 4);
    expect(ten.minutes).toBeGreaterThanOrEqual((10 * 41) / 4);
    expect(ten.minutes).toBeLessThan(one.minutes / 9);
  });

  test('GIVEN only aws-cluster stacks WHEN estimated THEN only their time counts', () => {
    expect(estimateTime('deploy', { envs: ['lab'], kinds: ['aws-cluster'], parallelism: 4 }).minutes).toBe(20);
    expect(estimateTime('destroy', { envs: [], parallelism: 4 })).toMatchObject({ minutes: 0, stacks: 0, criticalPathMinutes: 0 });
  });

  test('GIVEN estimates WHEN formatted THEN each direction, the shards and every stack figure with its source', () => {
    const envs = attendees(20);
    const lines = formatTimeEstimate([estimateTime('deploy', { envs, parallelism: 8, shards: 2 }), estimateTime('destroy', { envs, parallelism: 8, shards: 2 })]);
    expect(lines.slice(0, 2)).toEqual(['Estimated wall time (2 shards side by side (at most 10 environments each), 8', '  stacks at a time per shard):']);
    expect(lines[2]).toMatch(/^ {2}deploy +\d+ (h \d\d )?min for 80 stacks of 20 environments \(one alone: 25 min\)$/);
    // The deploy's shard jobs verify their shards after their deploys: a line says the slowest job's (10 environments: 40 plans).
    expect(lines[3]).toBe("  verify       46 min of it: after the slowest shard job's deploy, at its worst");
    expect(lines[4]).toMatch(/^ {2}teardown +\d+ (h \d\d )?min for 80 stacks of 20 environments \(one alone: 16 min\)$/);
    const aws = lines.findIndex((l) => l.startsWith('    aws-cluster'));
    expect(lines.slice(aws, aws + 4)).toEqual([
      '    aws-cluster 20 / 12 min  EKS control plane 15 min (documented:',
      '                             aws/containers-roadmap#1227) + managed node group',
      '                             and VPC/NAT gateway about 5 (estimate); destroy:',
      '                             estimate',
    ]);
    // The terminal's 80 columns, every line.
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });
});

describe("deploy's canary in the estimate", () => {
  test('GIVEN three environments and a canary WHEN estimated THEN the canary alone and its verify come first, then the other two, and the lines name it', () => {
    const envs = ['ann', 'bob', 'cy'];
    const plain = estimateTime('deploy', { envs, parallelism: 4 });
    const staged = estimateTime('deploy', { envs, parallelism: 4, canary: 'ann' });
    // ann alone: 25 min (the EKS chain), its verify at its worst 10; then bob and cy at 4 stacks at a time.
    expect(staged.canary).toEqual({ env: 'ann', minutes: 25 + 10, others: 2, verify: verifyTime(4, 11) });
    expect(staged.minutes).toBe(35 + scheduleMinutes(['bob', 'cy'], 'deploy', ALL, 4, STACK_TIMES));
    expect(staged.minutes).toBeGreaterThan(plain.minutes);
    expect(plain.canary).toBeUndefined();
    const lines = formatTimeEstimate([staged]);
    expect(lines[2]).toBe('  canary       35 min of it: ann, verified before the other 2');
    expect(lines.slice(-4)).toEqual([
      "    verify      10      min  the canary's at worst: 4 plans, one after another",
      '                             (1 min each, an estimate), then every exposure at',
      '                             once: waited for up to --wait and a last attempt',
      '                             (305 s), probed (at most 30 s)',
    ]);
    // Within 80 columns with the longest attendee name (20 characters) and 200 others.
    const long = formatTimeEstimate([estimateTime('deploy', { envs: ['a'.repeat(20), ...attendees(200)], parallelism: 1, canary: 'a'.repeat(20) })]);
    expect(long[2]).toMatch(/^ {2}canary +51 min of it: a{20}, verified before the other 200$/);
    expect(long[2].length).toBeLessThanOrEqual(80);
  });

  test("GIVEN the canary's verify WHEN counted THEN at its worst: a plan per stack (the estimate), then one --wait for every exposure side by side, not one per exposure, and the probe's bound", () => {
    // 2 plans of 1 min, the default --wait (300 s) and its last attempt (5 s), its own address (5 s) and the probe: 20 requests, 4 at a time, 5 s each (25 s).
    expect(verifyTime(2, 11)).toMatchObject({ minutes: Math.ceil((2 * 60 + 300 + 5 + 5 + 25) / 60) });
    expect(verifyTime(4, 11).minutes).toBe(Math.ceil((4 * 60 + 335) / 60));
    // Every stack kind's plan adds a minute; the exposures (up to 11 per environment) add nothing: they are waited for together.
    expect(verifyTime(4, 11).minutes - verifyTime(2, 11).minutes).toBe(2);
  });

  test.each([
    ['one environment', { envs: ['ann'], canary: 'ann' }],
    ['one environment in shards (the pipelines have no canary job then)', { envs: ['ann'], canary: 'ann', shards: 2 }],
    ['an environment not selected', { envs: ['bob', 'cy'], canary: 'ann' }],
  ])('GIVEN %s WHEN estimated THEN no canary is counted', (_name, input) => {
    expect(estimateTime('deploy', { parallelism: 4, ...input }).canary).toBeUndefined();
    expect(estimateTime('destroy', { envs: ['ann', 'bob'], parallelism: 4, canary: 'ann' }).canary).toBeUndefined();
  });
});

describe("the pipelines' canary job in a sharded estimate", () => {
  // assignShards(['ann', 'bob', 'cy'], 2) puts bob in shard 1, ann and cy in shard 2.
  const envs = ['ann', 'bob', 'cy'];

  test('GIVEN shards and a canary WHEN estimated THEN the canary job (ann alone, then its verify) comes first, then the shard jobs, ann found applied in hers', () => {
    const plain = estimateTime('deploy', { envs, parallelism: 1, shards: 2 });
    const staged = estimateTime('deploy', { envs, parallelism: 1, shards: 2, canary: 'ann' });
    // One stack at a time: ann's 4 stacks (41 min) and her verify at its worst (10).
    expect(staged.canary).toEqual({ env: 'ann', minutes: 41 + 10, others: 2, verify: verifyTime(4, 11), job: true });
    // Shard 2: cy's 41 min and ann's 4 stacks again, one plan each (APPLIED_MINUTES), then the verify of both (8 plans,
    // 22 exposures: 14 min); shard 1: bob's 41, then his verify (10). Shard 2's job is the slowest.
    expect(APPLIED_MINUTES).toBe(1);
    expect(verifyTime(8, 22).minutes).toBe(14);
    expect(staged.minutes).toBe(51 + 41 + 4 * APPLIED_MINUTES + 14);
    expect(plain.minutes).toBe(2 * 41 + 14);
    expect(plain.canary).toBeUndefined();
    // Four at a time: the canary job 25 + 10, then the shards (cy's 25 beside ann's plans: 1 + 1 on the AWS chain; then the verify, 14).
    expect(estimateTime('deploy', { envs, parallelism: 4, shards: 2, canary: 'ann' }).minutes).toBe(35 + 25 + 14);
  });

  test('GIVEN jobs that do not verify (a runner outside a narrowed app.allowedSourceCidrs) WHEN estimated THEN the canary job is ann alone and the shard jobs their deploys, no verify', () => {
    const staged = estimateTime('deploy', { envs, parallelism: 1, shards: 2, canary: 'ann', jobsVerify: false });
    expect(staged.canary).toEqual({ env: 'ann', minutes: 41, others: 2, job: true });
    expect(staged.minutes).toBe(41 + 41 + 4 * APPLIED_MINUTES);
    expect(staged.shardVerify).toBeUndefined();
    // Deploy's own canary (one shard) verifies whatever the job would do.
    expect(estimateTime('deploy', { envs, parallelism: 1, canary: 'ann', jobsVerify: false }).canary?.verify).toEqual(verifyTime(4, 11));
  });

  test("GIVEN the canary job WHEN formatted THEN one line says its part, the applied plans' figure has its source, all within 80 columns", () => {
    const lines = formatTimeEstimate([estimateTime('deploy', { envs, parallelism: 1, shards: 2, canary: 'ann' })]);
    expect(lines.slice(0, 5)).toEqual([
      'Estimated wall time (2 shards side by side (at most 2 environments each), 1',
      '  stack at a time per shard):',
      '  deploy    1 h 50 min for 12 stacks of 3 environments (one alone: 25 min)',
      '  canary job   51 min of it: ann, verified, then the shards',
      "  verify       14 min of it: after the slowest shard job's deploy, at its worst",
    ]);
    // The figures, each with its source: the stacks', the canary's verify, its stacks found applied in its shard and the
    // slowest shard job's verify (cost's test pins their words).
    const figures = (out: string[]) => out.filter((l) => /^ {4}\S/.test(l)).map((l) => l.slice(4, 15).trim());
    expect(figures(lines)).toEqual(['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb', 'verify', 'applied', 'verify']);
    const quiet = formatTimeEstimate([estimateTime('deploy', { envs, parallelism: 1, shards: 2, canary: 'ann', jobsVerify: false })]);
    expect(quiet.slice(3, 5)).toEqual(['  canary job   41 min of it: ann, no verify, then the shards', '  per stack, create / destroy:']);
    expect(figures(quiet)).toEqual(['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb', 'applied']);
    // The longest name (20 characters) and the longest shard count: still one line each.
    const long = 'a'.repeat(20);
    for (const jobsVerify of [true, false]) {
      const wide = formatTimeEstimate([estimateTime('deploy', { envs: [long, ...attendees(100)], parallelism: 1, shards: 256, canary: long, jobsVerify })]);
      expect(wide[3]).toMatch(/^ {2}canary job +\d+ min of it: a{20}, (verified|no verify), then the shards$/);
      expect(wide.filter((l) => l.length > 80)).toEqual([]);
    }
  });
});

describe("each shard job's verify in a sharded estimate", () => {
  // assignShards(['ann', 'bob', 'cy'], 2) puts bob in shard 1, ann and cy in shard 2.
  const envs = ['ann', 'bob', 'cy'];
  const SLOWEST = "the slowest shard job's";

  test('GIVEN shard jobs WHEN estimated THEN each job is its deploy, then verify --shard of its environments (a plan of each stack, one after another; one wait and one probe for all its exposures), and the slowest job is in the total', () => {
    const e = estimateTime('deploy', { envs, parallelism: 4, shards: 2 });
    // Shard 2: ann and cy, 25 min side by side, then 8 plans (8 min), one --wait for their 22 exposures and its last attempt
    // (305 s), its own address and the probe (30 s): 14 min. Shard 1: bob's 25, then 4 plans and the same wait and probe: 10.
    expect(e.shardVerify).toEqual({
      minutes: 14,
      source: `${SLOWEST} at worst: 8 plans, one after another (1 min each, an estimate), then every exposure at once: waited for up to --wait and a last attempt (305 s), probed (at most 30 s)`,
    });
    expect(e.shardVerify).toEqual(verifyTime(8, 22, SLOWEST));
    expect(e.minutes).toBe(scheduleMinutes(['ann', 'cy'], 'deploy', ALL, 4, STACK_TIMES) + 14);
    expect(e.minutes).toBe(25 + 14);
    // Teardown jobs verify nothing.
    expect(estimateTime('destroy', { envs, parallelism: 4, shards: 2 })).not.toHaveProperty('shardVerify');
  });

  test('GIVEN no shards (deploy, or cost without --shards) WHEN estimated THEN no shard job verifies: the time is as before', () => {
    const e = estimateTime('deploy', { envs, parallelism: 4, canary: 'ann' });
    expect(e).not.toHaveProperty('shardVerify');
    expect(e.minutes).toBe(35 + scheduleMinutes(['bob', 'cy'], 'deploy', ALL, 4, STACK_TIMES));
  });

  test('GIVEN the pipelines with one shard (jobs: true) WHEN estimated THEN its one job verifies every environment after its deploy', () => {
    const e = estimateTime('deploy', { envs, parallelism: 4, jobs: true });
    expect(e.shardVerify).toEqual(verifyTime(12, 33, SLOWEST));
    expect(e.minutes).toBe(scheduleMinutes(envs, 'deploy', ALL, 4, STACK_TIMES) + verifyTime(12, 33).minutes);
    expect(estimateTime('deploy', { envs, parallelism: 4, jobs: true, jobsVerify: false }).minutes).toBe(scheduleMinutes(envs, 'deploy', ALL, 4, STACK_TIMES));
  });

  test("GIVEN more exposures than verify's requests in flight WHEN counted THEN the readiness wait adds their turns, and the probe its rounds past 1024 requests in flight", () => {
    // Up to 64 exposures: one --wait and a last attempt. Past it, each 64 more wait at most one request's deadline (5 s) for a turn.
    expect(verifyTime(4, 64).source).toContain('waited for up to --wait and a last attempt (305 s)');
    expect(verifyTime(4, 65).source).toContain('waited for up to --wait, a turn (65 exposures, 64 requests in flight) and a last attempt (310 s)');
    // 10 environments of 11 exposures: 40 plans (2400 s), 310 s of wait, 30 s of probe.
    expect(verifyTime(40, 110)).toEqual({
      minutes: Math.ceil((2400 + 310 + 30) / 60),
      source: `the canary's at worst: 40 plans, one after another (1 min each, an estimate), then every exposure at once: waited for up to --wait, a turn (110 exposures, 64 requests in flight) and a last attempt (310 s), probed (at most 30 s)`,
    });
    // The probe: 4 requests in flight per exposure, 1024 over all: past 256 exposures, 20 x exposures / 1024 rounds of 5 s.
    expect(verifyTime(4, 256).source).toMatch(/probed \(at most 30 s\)$/);
    expect(verifyTime(4, 257).source).toMatch(/probed \(257 exposures, 1024 requests in flight: at most 35 s\)$/);
    // 50 environments in a shard: 200 plans, 9 turns of the wait (345 s), 11 rounds of the probe and the own address (60 s).
    expect(verifyTime(200, 550, SLOWEST).minutes).toBe(Math.ceil((12000 + 345 + 60) / 60));
  });

  test("GIVEN the config's exposure modes and stack kinds WHEN counted THEN each mode its cloud offers, of the lb stacks selected", () => {
    expect(exposuresPerEnvironment(['native', 'gateway', 'nodeport', 'nodeport-l4', 'nodeport-local', 'native-l4'], ALL)).toBe(6 + 5);
    // GKE offers no native-l4.
    expect(exposuresPerEnvironment(['native', 'native-l4'], ALL)).toBe(2 + 1);
    expect(exposuresPerEnvironment(['native', 'native-l4'], ['aws-cluster', 'aws-lb'])).toBe(2);
    expect(exposuresPerEnvironment(['native'], ['aws-cluster', 'gcp-cluster'])).toBe(0);
    // The estimate takes them: 14 environments in 2 shards of 7, 77 exposures each (past 64) by default, 7 with one AWS mode.
    const fourteen = attendees(14);
    expect(estimateTime('deploy', { envs: fourteen, parallelism: 4, shards: 2 }).shardVerify).toEqual(verifyTime(28, 77, SLOWEST));
    expect(estimateTime('deploy', { envs: fourteen, parallelism: 4, shards: 2, exposures: 1 }).shardVerify).toEqual(verifyTime(28, 7, SLOWEST));
  });

  test("GIVEN 100 environments in 2 shards WHEN formatted THEN one line says the slowest job's verify, its figure keeps the minutes column with 3 digits, all within 80 columns", () => {
    const lines = formatTimeEstimate([estimateTime('deploy', { envs: attendees(100), parallelism: 4, shards: 2, canary: 'a1' })]);
    expect(lines[4]).toBe("  verify   3 h 27 min of it: after the slowest shard job's deploy, at its worst");
    const figure = lines.findIndex((l, i) => i > 4 && l.startsWith('    verify      207'));
    expect(lines.slice(figure)).toEqual([
      "    verify      207     min  the slowest shard job's at worst: 200 plans, one",
      '                             after another (1 min each, an estimate), then every',
      '                             exposure at once: waited for up to --wait, a turn',
      '                             (550 exposures, 64 requests in flight) and a last',
      '                             attempt (345 s), probed (550 exposures, 1024',
      '                             requests in flight: at most 60 s)',
    ]);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });
});

describe('deploy-time estimate over slots', () => {
  // a1..a4 in us-east-1, a5..a8 in us-east-2 (AWS); every GCP environment in one project's region.
  const envs = attendees(8);
  const slotOf = (env: string, cloud: 'aws' | 'gcp') => (cloud === 'gcp' ? 'p1/us-central1' : Number(env.slice(1)) <= 4 ? 'host/us-east-1' : 'host/us-east-2');

  test('GIVEN environments in two AWS slots WHEN deployed 8 at a time THEN the time is the host’s schedule, and it says how many stacks of one slot run at once', () => {
    const plain = estimateTime('deploy', { envs, kinds: ['aws-cluster'], parallelism: 8 });
    const placed = estimateTime('deploy', { envs, kinds: ['aws-cluster'], parallelism: 8, slotOf });
    // Slots have API limits of their own: they do not slow each other, so the minutes are the same.
    expect(placed.minutes).toBe(plain.minutes);
    expect(placed.slots).toEqual({ count: 2, peak: 4, busiest: 'host/us-east-1' });
    expect(plain.slots).toBeUndefined();
  });

  test('GIVEN 4 stacks at a time in graph order WHEN the first four environments share a slot THEN all four running stacks are of that slot', () => {
    expect(estimateTime('deploy', { envs, kinds: ['aws-cluster'], parallelism: 4, slotOf }).slots).toEqual({ count: 2, peak: 4, busiest: 'host/us-east-1' });
    // Both clouds: an environment's AWS and GCP stacks are in different slots.
    expect(estimateTime('deploy', { envs, parallelism: 4, slotOf }).slots).toMatchObject({ count: 3 });
  });

  test('GIVEN shards side by side WHEN estimated THEN their stacks of one slot add up', () => {
    expect(estimateTime('deploy', { envs, kinds: ['aws-cluster'], parallelism: 4, shards: 2, slotOf }).slots).toEqual({ count: 2, peak: 4, busiest: 'host/us-east-1' });
  });

  test('GIVEN slots WHEN formatted THEN a line says they run side by side and what shares one slot’s limits, within 80 columns', () => {
    const lines = formatTimeEstimate([estimateTime('deploy', { envs, kinds: ['aws-cluster'], parallelism: 8, slotOf })], ['aws-cluster']);
    const slots = lines.slice(
      lines.findIndex((l) => l.startsWith('  slots: ')),
      lines.indexOf('  per stack, create / destroy:'),
    );
    expect(slots.map((l) => l.trim()).join(' ')).toBe(
      "slots: 2 slots (account or project x region) side by side, each with API rate limits of its own; at most 4 stacks of one slot at once (host/us-east-1), sharing its limits (throttling, which Terraform's providers retry, is not in these times)",
    );
    expect(slots.filter((l) => l.length > 80)).toEqual([]);
  });
});
