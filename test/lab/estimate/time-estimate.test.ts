import { estimateTime, formatTimeEstimate, scheduleMinutes, STACK_TIMES } from '../../../lib/lab/estimate/time-estimate';

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
    const ten = estimateTime('deploy', { envs: attendees(100), parallelism: 4, shards: 10 });
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
    expect(lines[0]).toBe('Estimated wall time (2 shards side by side (at most 10 environments each), 8 stacks at a time per shard):');
    expect(lines[1]).toMatch(/^ {2}deploy +\d+ (h \d\d )?min for 80 stacks of 20 environments \(one environment alone: 25 min\)$/);
    expect(lines[2]).toMatch(/^ {2}teardown +\d+ (h \d\d )?min for 80 stacks of 20 environments \(one environment alone: 16 min\)$/);
    expect(lines).toContain(
      '    aws-cluster 20 / 12 min  EKS control plane 15 min (documented: aws/containers-roadmap#1227) + managed node group and VPC/NAT gateway about 5 (estimate); destroy: estimate',
    );
  });
});

describe("deploy's canary in the estimate", () => {
  test('GIVEN three environments and a canary WHEN estimated THEN the canary alone and its verify come first, then the other two, and the lines name it', () => {
    const envs = ['ann', 'bob', 'cy'];
    const plain = estimateTime('deploy', { envs, parallelism: 4 });
    const staged = estimateTime('deploy', { envs, parallelism: 4, canary: 'ann' });
    // ann alone: 25 min (the EKS chain), verify 5; then bob and cy at 4 stacks at a time.
    expect(staged.canary).toEqual({ env: 'ann', minutes: 25 + 5, others: 2 });
    expect(staged.minutes).toBe(30 + scheduleMinutes(['bob', 'cy'], 'deploy', ALL, 4, STACK_TIMES));
    expect(staged.minutes).toBeGreaterThan(plain.minutes);
    expect(plain.canary).toBeUndefined();
    const lines = formatTimeEstimate([staged]);
    expect(lines[2]).toBe('  canary       30 min of it: ann, verified before the other 2');
    expect(lines).toContain("    verify       5      min  the canary's; estimate: a plan of each stack, then each exposure waited for and probed");
    // Within 80 columns with the longest attendee name (20 characters) and 200 others.
    const long = formatTimeEstimate([estimateTime('deploy', { envs: ['a'.repeat(20), ...attendees(200)], parallelism: 1, canary: 'a'.repeat(20) })]);
    expect(long[2]).toMatch(/^ {2}canary +46 min of it: a{20}, verified before the other 200$/);
    expect(long[2].length).toBeLessThanOrEqual(80);
  });

  test.each([
    ['one environment', { envs: ['ann'], canary: 'ann' }],
    ['shards', { envs: ['ann', 'bob', 'cy'], canary: 'ann', shards: 2 }],
    ['an environment not selected', { envs: ['bob', 'cy'], canary: 'ann' }],
  ])('GIVEN %s WHEN estimated THEN no canary is counted', (_name, input) => {
    expect(estimateTime('deploy', { parallelism: 4, ...input }).canary).toBeUndefined();
    expect(estimateTime('destroy', { envs: ['ann', 'bob'], parallelism: 4, canary: 'ann' }).canary).toBeUndefined();
  });
});
