/**
 * The preflight and verify command lines: their definitions' checks, exact messages for a
 * bad command line (exit 2 through runCli), --help.
 */
import { UsageError } from '../../../lib/kit/cli/cli';
import { parsePreflightArgs } from '../../../lib/commands/preflight/preflight-cli';
import { parseVerifyArgs } from '../../../lib/commands/verify/verify-cli';
import { PREFLIGHT_COMMAND } from '../../../lib/commands/preflight/command';
import { VERIFY_COMMAND } from '../../../lib/commands/verify/command';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectShard } from '../../../lib/lab/selection/shard';

describe('preflight and verify command lines', () => {
  test.each([
    [parsePreflightArgs, ['--format', 'xml'], '--format: "xml" is not one of table, markdown, json'],
    [parsePreflightArgs, ['--my-ip', 'home'], '--my-ip: "home" is not an IP address (e.g. 203.0.113.7)'],
    [parsePreflightArgs, ['--stacks', 'eks'], '--stacks: "eks" is not one of aws-cluster, aws-lb, gcp-cluster, gcp-lb'],
    [parsePreflightArgs, ['--bogus'], '--bogus: unknown flag'],
    [parseVerifyArgs, ['--wait', '9999'], '--wait: "9999" is not a whole number from 0 to 1800'],
    [parseVerifyArgs, ['--count', '0'], '--count: "0" is not a whole number from 1 to 1000'],
    [parseVerifyArgs, ['--format', 'html'], '--format: "html" is not one of table, markdown, json'],
  ] as const)('GIVEN %p %j WHEN parsed THEN a UsageError says %p', (parse, argv, message) => {
    let error: unknown;
    try {
      (parse as (a: readonly string[]) => unknown)(argv);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
  });

  test('GIVEN --help WHEN parsed THEN the help is printed and nothing runs', () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(parsePreflightArgs(['--help'])).toBeUndefined();
      expect(parseVerifyArgs(['-h'])).toBeUndefined();
      expect(write.mock.calls).toEqual([[PREFLIGHT_COMMAND.help()], [VERIFY_COMMAND.help()]]);
    } finally {
      write.mockRestore();
    }
  });

  describe('verify --shard', () => {
    const attendees = ['ann', 'bob', 'chen', 'dana', 'eve', 'fay'];
    const withConfig = <T>(config: object, run: () => T): T => {
      const dir = mkdtempSync(join(tmpdir(), 'hoplab-verify-shard-'));
      const file = join(dir, 'hoplab.config.json');
      writeFileSync(file, JSON.stringify(config));
      const before = process.env.HOPLAB_CONFIG;
      process.env.HOPLAB_CONFIG = file;
      try {
        return run();
      } finally {
        if (before === undefined) delete process.env.HOPLAB_CONFIG;
        else process.env.HOPLAB_CONFIG = before;
        rmSync(dir, { recursive: true, force: true });
      }
    };

    test('GIVEN an s3 backend and six attendees WHEN --shard 2/3 THEN verify selects exactly the environments deploy --shard 2/3 applies', () => {
      const parsed = withConfig({ attendees, backend: { type: 's3', bucket: 'state', region: 'us-east-1' } }, () => parseVerifyArgs(['--shard', '2/3']));
      expect(parsed?.options.envs).toEqual(selectShard(attendees, { index: 2, total: 3 }));
      expect(parsed?.options.envs?.length).toBe(2);
    });

    test('GIVEN --env and --shard WHEN parsed THEN only the named environments inside the shard remain', () => {
      const inShard = selectShard(attendees, { index: 1, total: 2 });
      const outside = attendees.find((a) => !inShard.includes(a))!;
      const parsed = withConfig({ attendees, backend: { type: 's3', bucket: 'state', region: 'us-east-1' } }, () => parseVerifyArgs(['--shard', '1/2', '--env', `${inShard[0]},${outside}`]));
      expect(parsed?.options.envs).toEqual([inShard[0]]);
    });

    test('GIVEN local state WHEN --shard 1/2 THEN a UsageError says why shards need a shared backend', () => {
      expect(() => withConfig({ attendees }, () => parseVerifyArgs(['--shard', '1/2']))).toThrow(/^--shard 1\/2: backend.type is "local", but shards run on different machines \(CI runners\)/);
    });
  });
});
