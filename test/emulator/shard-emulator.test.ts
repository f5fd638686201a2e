/**
 * A sharded workshop against the AWS emulator: two environments in two shards,
 * each shard deployed and torn down by `npm run deploy|teardown -- --shard K/2`
 * with real Terraform, their state in one S3 bucket (the `s3` backend, which
 * emulator mode points at moto's own S3), then the all-environment leftover check.
 *
 * How the test copes with moto's one EKS OIDC issuer per process: every cluster
 * in one moto gets the same issuer URL, so a second cluster's IAM OIDC provider
 * fails with EntityAlreadyExists while the first exists. The shards must share
 * one bucket, which lives in one moto, so one emulator serves both shards one
 * after the other: shard 1 deploys and tears down, then shard 2 does, in the
 * same bucket, and the last job checks both environments. Two apply/destroy cycles.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emulator, startMoto } from '../../lib/commands/local/moto';
import { assignShards, selectShard } from '../../lib/lab/selection/shard';
import { runCommand } from './harness';

describe('a sharded deploy and teardown against the AWS emulator', () => {
  let moto: Emulator;
  let cwd: string;
  const attendees = ['ann', 'bob'];
  const bucket = 'acme-workshop-state';

  beforeAll(async () => {
    moto = await startMoto();
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-shards-'));
    writeFileSync(
      join(cwd, 'hoplab.config.json'),
      JSON.stringify({ attendees, backend: { type: 's3', bucket, region: 'us-east-1', keyPrefix: 'dec' }, workshop: { name: 'itest', expiresAt: '2026-12-01T18:00:00Z' } }),
    );
  });
  afterAll(async () => {
    await moto?.stop();
  });

  const run = (command: string, args: string[]) => runCommand(command, args, { cwd, env: { HOPLAB_AWS_ENDPOINT: moto.endpoint } });
  /** State keys in the bucket (moto answers an unsigned listing). */
  const stateKeys = async () => [...(await (await fetch(`${moto.endpoint}/${bucket}/`)).text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]).sort();

  test('GIVEN two attendees and an s3 backend WHEN each of 2 shards deploys and tears down its part THEN every environment is applied once, its state is in the shared bucket, and the final check over all is clean', async () => {
    const shards = [1, 2].map((k) => selectShard(attendees, { index: k, total: 2 }));
    // Two environments in two shards: one each (a shard holds at most ceil(2/2)).
    expect(shards.map((s) => s.length)).toEqual([1, 1]);
    const applied: string[] = [];
    for (const [i, [env]] of shards.entries()) {
      const other = attendees.find((a) => a !== env)!;
      const shard = `${i + 1}/2`;

      const deployed = await run('deploy', ['--shard', shard, '--stacks', 'aws-cluster', '--yes']);
      expect(deployed.out).toContain('Estimated wall time (4 stacks at a time):');
      expect(deployed.out).toContain('deploy: 1 stack of 1 environment');
      expect(deployed.out).toMatch(new RegExp(` {2}done {3}${env}-aws-cluster in \\d+\\.\\d s`));
      expect(deployed.out).not.toContain(`${other}-aws-cluster`);
      expect(deployed).toExitWith(0);
      applied.push(...[...deployed.out.matchAll(/ {2}done {3}(\S+) in/g)].map((m) => m[1]));
      // The state went to the shared bucket under the stack's key, nowhere local.
      expect(await stateKeys()).toEqual(
        shards
          .slice(0, i + 1)
          .map(([e]) => `dec/${e}-aws-cluster.tfstate`)
          .sort(),
      );
      expect(readdirSync(cwd).filter((f) => f.endsWith('.tfstate'))).toEqual([]);
      expect(existsSync(join(cwd, '.hoplab', 'emulator', `terraform.${env}-aws-cluster.tfstate`))).toBe(false);

      const tornDown = await run('teardown', ['--shard', shard, '--stacks', 'aws-cluster', '--yes']);
      expect(tornDown.out).toMatch(new RegExp(` {2}done {3}${env}-aws-cluster in \\d+\\.\\d s`));
      // The shard's leftover check covers the shard's environments only.
      expect(tornDown.out).toContain(`leftovers: none in aws for ${env}\n`);
      expect(tornDown.out).toContain('hoplab teardown: every stack destroyed and nothing left');
      expect(tornDown).toExitWith(0);
    }
    expect(applied.sort()).toEqual(['ann-aws-cluster', 'bob-aws-cluster']);
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
