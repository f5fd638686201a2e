/**
 * deploy shows each running stack with its elapsed time and the resource
 * Terraform waits on: runLifecycle with a stand-in `terraform` on the PATH
 * that creates one resource and holds it until the test lets go, and a clock
 * the test moves. Off a terminal: one line per stack per minute; on a
 * terminal: the block redrawn in place.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { runLifecycle } from '../../../lib/commands/lifecycle/lifecycle';
import { stripAnsi } from '../../../lib/kit/terminal/terminal';
import { FakeClock, FakeStream } from '../../support/fake-terminal';
import { noOrphans } from '../../support/account-lookup';

const TERRAFORM = `#!/bin/sh
case "$1" in
  init) echo "Terraform has been successfully initialized!" ;;
  apply|destroy)
    echo "aws_eks_cluster.eks_cluster_1: Creating..."
    while [ ! -f "$HOPLAB_TEST_RELEASE" ]; do sleep 0.05; done
    echo "aws_eks_cluster.eks_cluster_1: Creation complete after 9m3s [id=lab-eks]"
    echo "Apply complete! Resources: 1 added, 0 changed, 0 destroyed." ;;
esac
`;

describe('deploy progress', () => {
  const saved = { PATH: process.env.PATH, release: process.env.HOPLAB_TEST_RELEASE };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hoplab-progress-'));
    writeFileSync(join(dir, 'terraform'), TERRAFORM);
    chmodSync(join(dir, 'terraform'), 0o755);
    process.env.PATH = `${dir}:${saved.PATH}`;
    process.env.HOPLAB_TEST_RELEASE = join(dir, 'release');
  });
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.release === undefined) delete process.env.HOPLAB_TEST_RELEASE;
    else process.env.HOPLAB_TEST_RELEASE = saved.release;
  });

  const config = () => validConfig({ aws: { endpointPublicAccessCidrs: ['203.0.113.0/24'] } }, 'test');
  /** Resolves once the stand-in Terraform has said it is creating the cluster (read from the stack's log). */
  const creating = async () => {
    const log = join(dir, '.hoplab', 'logs', 'lab-aws-cluster.deploy.log');
    while (!(existsSync(log) && readFileSync(log, 'utf8').includes('Creating...'))) await new Promise((r) => setTimeout(r, 20));
  };

  test('GIVEN a stack creating an EKS cluster off a terminal WHEN a minute passes THEN one line names the stack, its time and the resource it waits on; none in between', async () => {
    const clock = new FakeClock(1_000_000);
    const lines: string[] = [];
    const run = runLifecycle('deploy', { config: config(), kinds: ['aws-cluster'], cwd: dir, write: (l) => lines.push(l), clock, awsLookup: noOrphans });
    await creating();
    clock.advance(59_000);
    expect(lines.filter((l) => l.startsWith('  ...'))).toEqual([]);
    clock.advance(1000);
    expect(lines.filter((l) => l.startsWith('  ...'))).toEqual(['  ... lab-aws-cluster: apply 1m00s, waiting on aws_eks_cluster.eks_cluster_1 (creating, 1m0s)']);
    clock.advance(30_000);
    expect(lines.filter((l) => l.startsWith('  ...'))).toHaveLength(1);
    writeFileSync(process.env.HOPLAB_TEST_RELEASE!, '');
    const result = await run;
    expect(result.ok).toBe(true);
    expect(lines).toEqual([
      'deploy: 1 stack of 1 environment, 4 at a time (logs: .hoplab/logs/)',
      '  start  lab-aws-cluster (apply; 1 running)',
      '  ... lab-aws-cluster: apply 1m00s, waiting on aws_eks_cluster.eks_cluster_1 (creating, 1m0s)',
      expect.stringMatching(/^ {2}done {3}lab-aws-cluster in \d+\.\d s$/),
    ]);
  });

  test('GIVEN a terminal WHEN the stack runs THEN the block under the lines shows it with its elapsed time and the resource, and is gone at the end', async () => {
    const clock = new FakeClock(0);
    const stream = new FakeStream(true, 120);
    const lines: string[] = [];
    const run = runLifecycle('deploy', { config: config(), kinds: ['aws-cluster'], cwd: dir, write: (l) => lines.push(l), clock, progressStream: stream, awsLookup: noOrphans });
    await creating();
    clock.advance(75_000);
    const frame = stripAnsi(stream.writes[stream.writes.length - 1]);
    expect(frame).toBe(
      '\r\x1b[2A\x1b[Jdeploy: 1 running (1m15s so far)\n  lab-aws-cluster  apply  1m15s  waiting on aws_eks_cluster.eks_cluster_1 (creating, 1m15s)\n'.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''),
    );
    writeFileSync(process.env.HOPLAB_TEST_RELEASE!, '');
    expect((await run).ok).toBe(true);
    // Off the block, the ordinary lines went to the stream, not to write; the last write erases the block.
    expect(lines).toEqual([]);
    expect(stripAnsi(stream.text)).toContain('  start  lab-aws-cluster (apply; 1 running)\n');
    expect(stream.writes[stream.writes.length - 1]).toMatch(/^\r\x1b\[2A\x1b\[J {2}done {3}lab-aws-cluster in \d+\.\d s\n$/);
  });
});
