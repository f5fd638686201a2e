import { stackGraph } from '../../../lib/lab/selection/stack-graph';

describe('stackGraph', () => {
  test('GIVEN one environment WHEN deploying THEN each cloud applies its cluster stack before its lb stack, and the clouds are independent', () => {
    expect(stackGraph(['lab'], 'deploy').map((t) => [t.stack, t.after])).toEqual([
      ['lab-aws-cluster', []],
      ['lab-aws-lb', ['lab-aws-cluster']],
      ['lab-gcp-cluster', []],
      ['lab-gcp-lb', ['lab-gcp-cluster']],
    ]);
  });

  test('GIVEN one environment WHEN destroying THEN each lb stack goes before its cluster stack', () => {
    expect(stackGraph(['lab'], 'destroy').map((t) => [t.stack, t.after])).toEqual([
      ['lab-aws-cluster', ['lab-aws-lb']],
      ['lab-aws-lb', []],
      ['lab-gcp-cluster', ['lab-gcp-lb']],
      ['lab-gcp-lb', []],
    ]);
  });

  test('GIVEN two attendees WHEN deploying THEN their stacks never wait on each other', () => {
    const tasks = stackGraph(['ann', 'bob'], 'deploy');
    expect(tasks).toHaveLength(8);
    for (const task of tasks) {
      expect(task.after.every((dependency) => dependency.startsWith(`${task.env}-`))).toBe(true);
    }
  });

  test('GIVEN only the cluster kinds WHEN destroying THEN no task waits on a stack outside the selection', () => {
    expect(stackGraph(['lab'], 'destroy', ['aws-cluster', 'gcp-cluster']).map((t) => [t.stack, t.after])).toEqual([
      ['lab-aws-cluster', []],
      ['lab-gcp-cluster', []],
    ]);
  });
});
