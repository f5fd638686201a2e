import { runGraph } from '../../../lib/commands/lifecycle/run-graph';
import { stackGraph, StackTask } from '../../../lib/lab/selection/stack-graph';

/** A runner that records start and end order and how many ran at once; `fail` names stacks that reject. */
function recorder(fail: readonly string[] = [], ms = 5) {
  const events: string[] = [];
  let running = 0;
  let peak = 0;
  const run = async (task: StackTask) => {
    running += 1;
    peak = Math.max(peak, running);
    events.push(`start ${task.stack}`);
    await new Promise((r) => setTimeout(r, ms));
    running -= 1;
    events.push(`end ${task.stack}`);
    if (fail.includes(task.stack)) throw new Error(`${task.stack} broke`);
  };
  return { run, events, peak: () => peak };
}

describe('runGraph', () => {
  test('GIVEN 3 attendees and parallelism 4 WHEN deploying THEN at most 4 stacks run at once and every lb stack starts after its cluster stack ended', async () => {
    const tasks = stackGraph(['a', 'b', 'c'], 'deploy');
    const r = recorder();
    const outcomes = await runGraph(tasks, { parallelism: 4, run: r.run });
    expect(outcomes.map((o) => o.status)).toEqual(Array(12).fill('done'));
    expect(r.peak()).toBe(4);
    for (const task of tasks.filter((t) => t.kind.endsWith('-lb'))) {
      expect(r.events.indexOf(`start ${task.stack}`)).toBeGreaterThan(r.events.indexOf(`end ${task.after[0]}`));
    }
  });

  test.each([1, 2, 8])('GIVEN parallelism %i WHEN running THEN no more run at once', async (parallelism) => {
    const r = recorder();
    await runGraph(stackGraph(['a', 'b'], 'destroy'), { parallelism, run: r.run });
    expect(r.peak()).toBeLessThanOrEqual(parallelism);
  });

  test('GIVEN a cluster stack that fails WHEN deploying THEN its lb stack is skipped and the other cloud and attendee go on', async () => {
    const r = recorder(['a-aws-cluster']);
    const outcomes = await runGraph(stackGraph(['a', 'b'], 'deploy'), { parallelism: 2, run: r.run });
    expect(Object.fromEntries(outcomes.map((o) => [o.stack, o.status]))).toEqual({
      'a-aws-cluster': 'failed',
      'a-aws-lb': 'skipped',
      'a-gcp-cluster': 'done',
      'a-gcp-lb': 'done',
      'b-aws-cluster': 'done',
      'b-aws-lb': 'done',
      'b-gcp-cluster': 'done',
      'b-gcp-lb': 'done',
    });
    expect(outcomes.find((o) => o.stack === 'a-aws-lb')).toEqual({ stack: 'a-aws-lb', status: 'skipped', reason: 'a-aws-cluster failed' });
    expect(outcomes.find((o) => o.stack === 'a-aws-cluster')).toMatchObject({ error: 'a-aws-cluster broke' });
  });

  test('GIVEN an lb stack that fails to destroy WHEN tearing down THEN its cluster stack is NOT destroyed (that would strand the load balancers)', async () => {
    const r = recorder(['a-gcp-lb']);
    const outcomes = await runGraph(stackGraph(['a'], 'destroy'), { parallelism: 4, run: r.run });
    expect(outcomes.find((o) => o.stack === 'a-gcp-cluster')).toEqual({ stack: 'a-gcp-cluster', status: 'skipped', reason: 'a-gcp-lb failed' });
    expect(r.events).not.toContain('start a-gcp-cluster');
  });

  test('GIVEN an abort WHEN running THEN no new stack starts and the rest are skipped as interrupted', async () => {
    const controller = new AbortController();
    const r = recorder([], 20);
    const promise = runGraph(stackGraph(['a'], 'deploy'), { parallelism: 1, run: r.run, signal: controller.signal });
    controller.abort();
    const outcomes = await promise;
    expect(outcomes.filter((o) => o.status === 'done').map((o) => o.stack)).toEqual(['a-aws-cluster']);
    expect(outcomes.filter((o) => o.status === 'skipped').map((o) => o.stack)).toEqual(['a-aws-lb', 'a-gcp-cluster', 'a-gcp-lb']);
  });

  test('GIVEN tasks that wait on each other WHEN running THEN they are skipped as a cycle instead of hanging', async () => {
    const tasks: StackTask[] = [
      { stack: 'x', env: 'e', cloud: 'aws', kind: 'aws-cluster', after: ['y'] },
      { stack: 'y', env: 'e', cloud: 'aws', kind: 'aws-lb', after: ['x'] },
    ];
    expect((await runGraph(tasks, { parallelism: 1, run: recorder().run })).map((o) => o.status)).toEqual(['skipped', 'skipped']);
  });

  test.each([
    [0, 'runGraph: parallelism must be a whole number of at least 1, got 0'],
    [1.5, 'runGraph: parallelism must be a whole number of at least 1, got 1.5'],
  ])('GIVEN parallelism %p WHEN running THEN it throws %p', async (parallelism, message) => {
    await expect(runGraph([], { parallelism, run: recorder().run })).rejects.toThrow(message);
  });

  test('GIVEN a task after an unknown stack WHEN running THEN it throws naming both', async () => {
    const tasks: StackTask[] = [{ stack: 'x', env: 'e', cloud: 'aws', kind: 'aws-lb', after: ['ghost'] }];
    await expect(runGraph(tasks, { parallelism: 1, run: recorder().run })).rejects.toThrow('runGraph: x comes after ghost, which is not in the graph');
  });
});
