/** `cost`: one flag style, `--format json`, with `--json` kept as its alias. */
import { cost } from '../../../lib/commands/cost/cost';

async function printed(argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const spy = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    return { code: await cost(argv), out: lines.join('\n') };
  } finally {
    spy.mockRestore();
  }
}

describe('cost output formats', () => {
  test('GIVEN --format json and --json WHEN run THEN both print the same JSON', async () => {
    const format = await printed(['--format', 'json']);
    const alias = await printed(['--json']);
    expect(format.code).toBe(0);
    expect(JSON.parse(format.out)).toEqual(JSON.parse(alias.out));
  });

  test('GIVEN --format table WHEN run THEN the table is printed, not JSON', async () => {
    const table = await printed(['--format', 'table']);
    expect(table.out).not.toMatch(/^\{/);
    expect(table.out).toBe((await printed([])).out);
  });

  test.each([
    [['--format', 'yaml'], '--format: "yaml" is not supported; use one of table, json'],
    [['--json', '--format', 'table'], '--json and --format table contradict each other; give one of them'],
  ])('GIVEN %j WHEN run THEN a usage error says what is allowed', async (argv, message) => {
    await expect(cost(argv)).rejects.toThrow(message);
  });
});
