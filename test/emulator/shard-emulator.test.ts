/**
 * A sharded workshop against the AWS emulator, and deploy's canary: two
 * environments, each deployed and torn down by `npm run deploy|teardown --
 * --shard K/2` or by a deploy of both, with real Terraform, their state in one
 * S3 bucket (the `s3` backend, which emulator mode points at moto's own S3),
 * then the all-environment leftover check.
 *
 * moto gives every EKS cluster of one region the same OIDC issuer URL, so a
 * second cluster's IAM OIDC provider fails with EntityAlreadyExists while the
 * first exists: one applied environment per region of a moto. So bob is placed
 * in another region (aws.regions, a pin), and both stand at once: bob's shard
 * deploys bob; a deploy of both then applies ann first, verifies it, and only
 * then goes on to bob, already applied ("no changes"); each shard tears its
 * environment down. Two applies and two destroys, as one cycle per shard was.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emulator, startMoto } from '../../lib/commands/local/moto';
import { assignShards, selectShard } from '../../lib/lab/selection/shard';
import { expiryAhead, runCommand } from './harness';

describe('a sharded deploy and teardown against the AWS emulator, and the canary', () => {
  let moto: Emulator;
  let cwd: string;
  const attendees = ['ann', 'bob'];
  const bucket = 'acme-workshop-state';

  beforeAll(async () => {
    moto = await startMoto();
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-shards-'));
    writeFileSync(
      join(cwd, 'hoplab.config.json'),
      JSON.stringify({
        attendees: ['ann', { name: 'bob', placement: { aws: { region: 'us-west-2' } } }],
        aws: { regions: ['us-east-1', 'us-west-2'] },
        backend: { type: 's3', bucket, region: 'us-east-1', keyPrefix: 'dec' },
        workshop: { name: 'itest', expiresAt: expiryAhead() },
      }),
    );
  });
  afterAll(async () => {
    await moto?.stop();
  });

  const run = (command: string, args: string[]) => runCommand(command, args, { cwd, env: { HOPLAB_AWS_ENDPOINT: moto.endpoint } });
  /** State keys in the bucket (moto answers an unsigned listing). */
  const stateKeys = async () => [...(await (await fetch(`${moto.endpoint}/${bucket}/`)).text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]).sort();
  /** Where `line` (a whole line, or a pattern) first is in `out`; fails naming it when it is not there. */
  const lineAt = (out: string, line: RegExp) => {
    const i = out.split('\n').findIndex((l) => line.test(l));
    if (i < 0) throw new Error(`no line ${line} in:\n${out}`);
    return i;
  };

  test("GIVEN two attendees and an s3 backend WHEN bob's shard deploys, then a deploy of both, then each shard tears down THEN ann is applied and verified before bob is touched, every environment is applied once, its state is in the shared bucket, and the final check over all is clean", async () => {
    const shards = [1, 2].map((k) => selectShard(attendees, { index: k, total: 2 }));
    // Two environments in two shards: one each (a shard holds at most ceil(2/2)).
    expect(shards.map((s) => s.length)).toEqual([1, 1]);
    const shardOf = (env: string) => `${shards.findIndex((s) => s.includes(env)) + 1}/2`;

    // bob's shard: bob only.
    const bobShard = await run('deploy', ['--shard', shardOf('bob'), '--stacks', 'aws-cluster', '--yes']);
    expect(bobShard.out).toContain('Estimated wall time (4 stacks at a time):');
    expect(bobShard.out).toContain('deploy: 1 stack of 1 environment');
    expect(bobShard.out).toMatch(/ {2}done {3}bob-aws-cluster in \d+\.\d s\n/);
    expect(bobShard.out).not.toContain('ann-aws-cluster');
    expect(bobShard).toExitWith(0);
    // The state went to the shared bucket under the stack's key, nowhere local.
    expect(await stateKeys()).toEqual(['dec/bob-aws-cluster.tfstate']);
    expect(readdirSync(cwd).filter((f) => f.endsWith('.tfstate'))).toEqual([]);
    expect(existsSync(join(cwd, '.hoplab', 'emulator', 'terraform.bob-aws-cluster.tfstate'))).toBe(false);

    // Both, no shard: the canary (ann, the first) is applied and verified before bob is touched; bob is found applied.
    const both = await run('deploy', ['--stacks', 'aws-cluster', '--yes']);
    expect(both).toExitWith(0);
    expect(both.out).toMatch(/\n {2}canary +\d+ min of it: ann, verified before the other one\n/);
    const order = [
      /^canary: ann first, end to end, then verify; the other environment \(bob\) waits for it$/,
      /^deploy: 1 stack of 1 environment/,
      /^ {2}done {3}ann-aws-cluster in \d+\.\d s$/,
      /^drift: terraform plan of ann-aws-cluster$/,
      /^drift: ann-aws-cluster: no changes/,
      /^canary: verify of ann PASSED \(report: .*\); now the other environment \(bob\)$/,
      /^ {2}start {2}bob-aws-cluster /,
      /^ {2}done {3}bob-aws-cluster in \d+\.\d s \(no changes, already applied\)$/,
      /^hoplab deploy: every stack applied \(1 stack already applied: no changes\)/,
    ].map((line) => lineAt(both.out, line));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(both.out.match(/ start {2}\S+/g)).toEqual([' start  ann-aws-cluster', ' start  bob-aws-cluster']);
    expect(await stateKeys()).toEqual(['dec/ann-aws-cluster.tfstate', 'dec/bob-aws-cluster.tfstate']);

    for (const env of attendees) {
      const tornDown = await run('teardown', ['--shard', shardOf(env), '--stacks', 'aws-cluster', '--yes']);
      expect(tornDown.out).toMatch(new RegExp(` {2}done {3}${env}-aws-cluster in \\d+\\.\\d s\\n`));
      expect(tornDown.out).not.toContain(`${attendees.find((a) => a !== env)}-aws-cluster`);
      // The shard's leftover check covers the shard's environments only.
      expect(tornDown.out).toContain(`leftovers: none in aws for ${env}\n`);
      expect(tornDown.out).toContain('hoplab teardown: every stack destroyed and nothing left');
      expect(tornDown).toExitWith(0);
    }
    // Destroyed stacks keep their (empty) state object.
    expect(await stateKeys()).toEqual(['dec/ann-aws-cluster.tfstate', 'dec/bob-aws-cluster.tfstate']);

    // The pipeline's last job: no --shard, every environment.
    const final = await run('teardown', ['--leftovers-only', '--stacks', 'aws-cluster', '--yes']);
    expect(final.out).toContain('leftovers: none in aws for ann, bob');
    expect(final).toExitWith(0);
  });

  test('GIVEN a shard that holds none of the environments WHEN deployed THEN it says so and does nothing', async () => {
    // ann and bob split in 3: ann is in one shard; --env ann with another shard leaves nothing, and the --env filter is named.
    const empty = assignShards(['ann', 'bob'], 3)[0] === 3 ? 2 : 3;
    const holds = selectShard(['ann', 'bob'], { index: empty, total: 3 });
    const result = await run('deploy', ['--shard', `${empty}/3`, '--env', 'ann', '--stacks', 'aws-cluster', '--yes']);
    expect(result.out).toContain(`hoplab deploy: shard ${empty}/3 holds none of --env ann (it holds ${holds.length > 0 ? holds.join(', ') : 'no environment'}); nothing to do`);
    expect(result).toExitWith(0);
  });
});
