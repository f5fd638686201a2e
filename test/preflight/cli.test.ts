/**
 * The preflight and verify command lines: strict flags, exact messages for a
 * bad command line (exit 2 through runCli), --help.
 */
import { UsageError } from '../../lib/cli';
import { parsePreflightArgs, PREFLIGHT_HELP } from '../../lib/preflight/preflight-cli';
import { parseVerifyArgs, VERIFY_HELP } from '../../lib/verify/verify-cli';

describe('preflight and verify command lines', () => {
  test.each([
    [parsePreflightArgs, ['--format', 'xml'], '--format: "xml" is not one of table, markdown, json'],
    [parsePreflightArgs, ['--my-ip', 'home'], '--my-ip: "home" is not an IP address (e.g. 203.0.113.7)'],
    [parsePreflightArgs, ['--stacks', 'eks'], '--stacks: "eks" is not a list of stack kinds; allowed: aws-cluster, aws-lb, gcp-cluster, gcp-lb (comma-separated)'],
    [parsePreflightArgs, ['--bogus'], "Unknown option '--bogus'"],
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
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(parsePreflightArgs(['--help'])).toBeUndefined();
      expect(parseVerifyArgs(['-h'])).toBeUndefined();
      expect(log.mock.calls).toEqual([[PREFLIGHT_HELP], [VERIFY_HELP]]);
    } finally {
      log.mockRestore();
    }
  });
});
