/**
 * `npm run deploy` and `npm run teardown` against the AWS emulator: the command
 * lines they refuse, and the question they ask, before any Terraform runs.
 * (Split from lifecycle-emulator.test.ts so jest runs them beside its long
 * deploy-and-teardown flow, in another worker.)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emulator } from '../../lib/commands/local/moto';
import { expiryAhead, runCommand, sharedEmulator } from './harness';

describe('deploy and teardown command lines against the AWS emulator', () => {
  let moto: Emulator;
  let cwd: string;

  beforeAll(async () => {
    moto = await sharedEmulator();
    cwd = mkdtempSync(join(tmpdir(), 'hoplab-lifecycle-cli-'));
    writeFileSync(join(cwd, 'hoplab.config.json'), JSON.stringify({ attendees: ['ws1'], workshop: { name: 'itest', expiresAt: expiryAhead() } }));
    // Something "deployed" (a resource in the emulator's local state), so teardown gets as far as its question.
    mkdirSync(join(cwd, '.hoplab', 'emulator'), { recursive: true });
    writeFileSync(join(cwd, '.hoplab', 'emulator', 'terraform.ws1-aws-cluster.tfstate'), JSON.stringify({ version: 4, resources: [{ type: 'aws_vpc', name: 'vpc' }] }));
  });
  afterAll(async () => {
    await moto?.stop();
  });

  const run = (command: string, args: string[]) => runCommand(command, args, { cwd, env: { HOPLAB_AWS_ENDPOINT: moto.endpoint } });

  test.each([
    [
      ['--stacks', 'aws-lb'],
      1,
      "hoplab: HOPLAB_AWS_ENDPOINT is set (emulator mode; state in .hoplab/emulator/ or the emulator's S3, never the real state): only the aws-cluster stacks can run against the emulator; add --stacks aws-cluster to run them there, or unset HOPLAB_AWS_ENDPOINT for the real clouds",
      true,
    ],
    [['--stacks', 'eks'], 2, 'hoplab teardown: --stacks: "eks" is not one of aws-cluster, aws-lb, gcp-cluster, gcp-lb (see npx hoplab teardown --help)', false],
    [['--env', 'nobody', '--stacks', 'aws-cluster'], 2, 'hoplab teardown: --env: "nobody" not in this config; environments: ws1 (see npx hoplab teardown --help)', true],
    [['--parallelism', '0', '--stacks', 'aws-cluster'], 2, 'hoplab teardown: --parallelism: "0" is not a whole number from 1 to 32, or auto (see npx hoplab teardown --help)', false],
    [['--bogus'], 2, 'hoplab teardown: --bogus: unknown flag (see npx hoplab teardown --help)', false],
  ])('GIVEN teardown %j WHEN run THEN it exits %i with %p', async (args, code, message, afterConfig) => {
    const result = await run('teardown', args);
    expect(result).toExitWith(code);
    // A refusal found once the config was read is followed by which file that was (runCli's sayOnRefusal line).
    const read = `hoplab teardown: config read: ${join(cwd, 'hoplab.config.json')}`;
    expect(
      result.out
        .trim()
        .split('\n')
        .slice(afterConfig ? -2 : -1),
    ).toEqual(afterConfig ? [message, read] : [message]);
  });

  test.each(['deploy', 'teardown'])('GIVEN %s without --yes and without a terminal WHEN run THEN nothing is done', async (command) => {
    const result = await run(command, ['--stacks', 'aws-cluster']);
    expect(result).toExitWith(1);
    expect(result.out).toContain(`hoplab ${command}: not on a terminal; add --yes to ${command} without the question`);
    expect(result.out).not.toContain('start ');
  });
});
