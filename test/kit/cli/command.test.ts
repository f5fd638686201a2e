/**
 * The command definition (lib/kit/cli/command.ts): parsing into typed values,
 * every check with its exact message, and the --help made from the same flags.
 */
import { booleanFlag, choiceFlag, defineCommand, HELP_WIDTH, integerFlag, listFlag, stringFlag } from '../../../lib/kit/cli/command';
import { UsageError } from '../../../lib/kit/cli/cli';

const demo = defineCommand({
  name: 'demo',
  summary: 'a command to test the definition with',
  description:
    'Does nothing, at length: this paragraph is long enough to be wrapped at the help width, so that no line of the help is wider than the eighty columns every terminal has.\n\n' +
    'A list kept as written:\n  first   one thing\n  second  another',
  flags: {
    format: choiceFlag(['table', 'markdown', 'json'] as const, { default: 'table', description: 'what goes to stdout' }),
    count: integerFlag({ min: 1, max: 1000, default: 20, value: 'N', env: 'DEMO_COUNT', description: 'requests per exposure' }),
    parallelism: integerFlag({ min: 1, max: 32, keywords: ['auto'], defaultText: 'deploy.parallelism', description: 'stacks at once' }),
    env: listFlag({ value: 'NAME[,NAME]', repeatable: true, description: 'only these environments' }),
    stacks: listFlag({ choices: ['aws-cluster', 'aws-lb'] as const, value: 'KIND[,KIND]', description: 'only these stack kinds' }),
    outputs: stringFlag({ value: 'FILE', description: 'the outputs file' }),
    dir: stringFlag({ value: 'DIR', default: 'cdktf.out', description: 'the synthesized app' }),
    header: stringFlag({ value: 'TEXT', repeatable: true, description: 'a header to send' }),
    shard: stringFlag({
      value: 'K/N',
      description: 'one shard',
      parse: (text) => {
        const match = /^(\d+)\/(\d+)$/.exec(text);
        if (!match) throw new Error(`${JSON.stringify(text)} is not a shard; write K/N`);
        return { index: Number(match[1]), total: Number(match[2]) };
      },
    }),
    diagram: stringFlag({ value: 'DIR', optionalValue: 'diagrams', description: 'also write diagrams' }),
    probe: booleanFlag({ description: 'send requests and measure' }),
    yes: booleanFlag({ short: 'y', env: 'DEMO_YES', description: 'do not ask' }),
  },
  epilogue: 'exit codes: 0 done; 1 failed; 2 bad command line.',
});

const parse = (argv: readonly string[], env: Record<string, string> = {}) => demo.parse(argv, { env, out: () => undefined })!;

/** The UsageError a command line gives, or a failure when it gives none. */
function problem(argv: readonly string[], env: Record<string, string> = {}): string {
  try {
    parse(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).command).toBe('demo');
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(argv)} was accepted`);
}

describe('defineCommand: parsing', () => {
  test('GIVEN no flags THEN every value is its default, typed', () => {
    const values = parse([]);
    expect(values).toEqual({
      positionals: [],
      format: 'table',
      count: 20,
      parallelism: undefined,
      env: undefined,
      stacks: undefined,
      outputs: undefined,
      dir: 'cdktf.out',
      header: [],
      shard: undefined,
      diagram: undefined,
      probe: false,
      yes: false,
    });
  });

  test('GIVEN every kind of flag THEN each is read into its type', () => {
    const values = parse([
      '--format=json',
      '--count',
      '7',
      '--parallelism',
      'auto',
      '--env',
      'ann, bob',
      '--env',
      'cy',
      '--stacks',
      'aws-lb',
      '--outputs',
      'o.json',
      '--header',
      'a',
      '--header',
      'b',
      '--shard',
      '2/5',
      '--probe',
      '-y',
    ]);
    expect(values).toMatchObject({
      format: 'json',
      count: 7,
      parallelism: 'auto',
      env: ['ann', 'bob', 'cy'],
      stacks: ['aws-lb'],
      outputs: 'o.json',
      header: ['a', 'b'],
      shard: { index: 2, total: 5 },
      probe: true,
      yes: true,
    });
    expect(parse(['--parallelism', '32']).parallelism).toBe(32);
  });

  test.each([
    [['--format', 'xml'], '--format: "xml" is not one of table, markdown, json'],
    [['--count', '0'], '--count: "0" is not a whole number from 1 to 1000'],
    [['--count', '1001'], '--count: "1001" is not a whole number from 1 to 1000'],
    [['--count', '1.5'], '--count: "1.5" is not a whole number from 1 to 1000'],
    [['--count', '-1'], '--count: "-1" is not a whole number from 1 to 1000'],
    [['--count', '1e2'], '--count: "1e2" is not a whole number from 1 to 1000'],
    [['--parallelism', '0'], '--parallelism: "0" is not a whole number from 1 to 32, or auto'],
    [['--stacks', 'aws-cluster,eks'], '--stacks: "eks" is not one of aws-cluster, aws-lb'],
    [['--env', 'ann,,bob'], '--env: "ann,,bob" has an empty item; write NAME[,NAME]'],
    [['--shard', 'two'], '--shard: "two" is not a shard; write K/N'],
    [['--bogus'], '--bogus: unknown flag'],
    [['--bogus', 'value'], '--bogus: unknown flag'],
    [['-x'], '-x: unknown flag'],
    [['--y'], '--y: unknown flag'],
    [['--outputs'], '--outputs: needs a value: --outputs FILE'],
    [['--outputs', '--probe'], '--outputs: needs a value: --outputs FILE'],
    [['--outputs', '-y'], '--outputs: needs a value: --outputs FILE'],
    [['--outputs='], '--outputs: needs a value: --outputs FILE'],
    [['--format'], '--format: needs a value: --format table|markdown|json'],
    [['--probe=yes'], '--probe: takes no value (given "yes")'],
    [['--format', 'json', '--format', 'table'], '--format: given more than once; give it once'],
    [['--probe', '--probe'], '--probe: given more than once; give it once'],
    [['--stacks', 'aws-lb', '--stacks', 'aws-lb'], '--stacks: given more than once; give it once'],
    [['extra'], '"extra": unexpected argument (demo takes flags only)'],
    [['--', '--probe'], '"--probe": unexpected argument (demo takes flags only)'],
    [['--diagram='], '--diagram: needs a value after =: --diagram=DIR, or --diagram alone for diagrams'],
  ])('GIVEN %j THEN a UsageError says %p', (argv, message) => {
    expect(problem(argv)).toBe(message);
  });

  test('GIVEN an environment variable of a flag THEN it supplies the value; the flag wins over it; a bad one names both', () => {
    expect(parse([], { DEMO_COUNT: '50' }).count).toBe(50);
    expect(parse(['--count', '3'], { DEMO_COUNT: '50' }).count).toBe(3);
    expect(parse([], { DEMO_COUNT: '' }).count).toBe(20);
    expect(problem([], { DEMO_COUNT: 'many' })).toBe('--count (from DEMO_COUNT): "many" is not a whole number from 1 to 1000');
    expect(parse([], { DEMO_YES: '1' }).yes).toBe(true);
    expect(parse([], { DEMO_YES: 'false' }).yes).toBe(false);
    expect(problem([], { DEMO_YES: 'sure' })).toBe('--yes (from DEMO_YES): "sure" is not one of 1, true, yes, 0, false, no');
  });

  test('GIVEN a flag with an optional value THEN alone it means its default value, with =VALUE or a next argument that is not a flag that value', () => {
    expect(parse(['--diagram']).diagram).toBe('diagrams');
    expect(parse(['--diagram', '--probe'])).toMatchObject({ diagram: 'diagrams', probe: true });
    expect(parse(['--diagram=out']).diagram).toBe('out');
    expect(parse(['--diagram', 'out', '--probe'])).toMatchObject({ diagram: 'out', probe: true });
    expect(parse(['--probe']).diagram).toBeUndefined();
  });

  test('GIVEN --help or -h anywhere, even beside a bad flag THEN the help is written and nothing is parsed', () => {
    for (const argv of [['--help'], ['-h'], ['--bogus', '--help'], ['--format', 'xml', '-h'], ['-yh']]) {
      let out = '';
      expect(demo.parse(argv, { out: (text) => (out += text), env: {} })).toBeUndefined();
      expect(out).toBe(demo.help());
    }
  });

  test('GIVEN a required flag and declared arguments THEN they are checked', () => {
    const command = defineCommand({
      name: 'req',
      summary: 's',
      description: 'd',
      flags: { shards: integerFlag({ min: 1, max: 256, required: true, description: 'shards' }) },
      arguments: { value: 'FILE', description: 'files to read', min: 1, max: 2 },
    });
    const values = command.parse(['--shards', '3', 'a', 'b'], { env: {} });
    expect(values).toEqual({ shards: 3, positionals: ['a', 'b'] });
    expect(() => command.parse(['a'], { env: {} })).toThrow(new UsageError('--shards: required: give --shards N'));
    expect(() => command.parse(['--shards', '1'], { env: {} })).toThrow(new UsageError('missing FILE: give at least 1'));
    expect(() => command.parse(['--shards', '1', 'a', 'b', 'c'], { env: {} })).toThrow(new UsageError('"c": unexpected argument (at most 2 FILE)'));
    expect(command.parse(['--shards', '1', '--', '-a'], { env: {} })?.positionals).toEqual(['-a']);
  });

  test('GIVEN a mistaken definition THEN defineCommand refuses it when the module loads', () => {
    const flag = booleanFlag({ description: 'x' });
    expect(() => defineCommand({ name: 'c', summary: 's', description: 'd', flags: { help: flag } })).toThrow('c: flag name "help" is reserved or not kebab-case');
    expect(() => defineCommand({ name: 'c', summary: 's', description: 'd', flags: { maxRate: flag } })).toThrow('c: flag name "maxRate" is reserved or not kebab-case');
    expect(() => defineCommand({ name: 'c', summary: 's', description: 'd', flags: { a: booleanFlag({ short: 'h', description: 'x' }) } })).toThrow('c: -h (--a) is taken or not one letter');
    expect(() => defineCommand({ name: 'c', summary: 's', description: 'd', flags: { a: booleanFlag({ description: ' ' }) } })).toThrow('c: --a has no description');
  });
});

describe('defineCommand: --help', () => {
  const help = demo.help();
  const lines = help.split('\n');

  test('GIVEN the definition THEN every line fits 80 columns and the help ends in one newline', () => {
    expect(HELP_WIDTH).toBe(80);
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
    expect(help.endsWith('\n') && !help.endsWith('\n\n')).toBe(true);
  });

  test('GIVEN the flags THEN the usage lists each, wrapped under the first, and required ones without brackets', () => {
    expect(lines.slice(0, 5)).toEqual([
      'usage: npm run demo -- [--format table|markdown|json] [--count N]',
      '                       [--parallelism N|auto] [--env NAME[,NAME]]',
      '                       [--stacks KIND[,KIND]] [--outputs FILE] [--dir DIR]',
      '                       [--header TEXT] [--shard K/N] [--diagram[=DIR]] [--probe]',
      '                       [--yes]',
    ]);
  });

  test('GIVEN each flag THEN its line says the choices not shown, the range, the default, the variable and whether it repeats', () => {
    expect(help).toContain(
      [
        'options:',
        '  --format table|markdown|json',
        '                        what goes to stdout (default table)',
        '  --count N             requests per exposure (1-1000; default 20; env',
        '                        DEMO_COUNT)',
        '  --parallelism N|auto  stacks at once (1-32; default deploy.parallelism)',
        '  --env NAME[,NAME]     only these environments (repeatable)',
        '  --stacks KIND[,KIND]  only these stack kinds (any of aws-cluster, aws-lb)',
        '  --outputs FILE        the outputs file',
        '  --dir DIR             the synthesized app (default cdktf.out)',
        '  --header TEXT         a header to send (repeatable)',
        '  --shard K/N           one shard',
        '  --diagram[=DIR]       also write diagrams (alone: diagrams)',
        '  --probe               send requests and measure',
        '  -y, --yes             do not ask (env DEMO_YES)',
        '  -h, --help            this help',
        '',
        'exit codes: 0 done; 1 failed; 2 bad command line.',
        '',
      ].join('\n'),
    );
  });

  test('GIVEN the description THEN prose is wrapped between words and an indented block is kept as written', () => {
    expect(help).toContain(
      [
        '',
        'Does nothing, at length: this paragraph is long enough to be wrapped at the help',
        'width, so that no line of the help is wider than the eighty columns every',
        'terminal has.',
        '',
        'A list kept as written:',
        '  first   one thing',
        '  second  another',
        '',
      ].join('\n'),
    );
  });

  test('GIVEN a command with no flags and its own forms THEN the usage says so', () => {
    expect(defineCommand({ name: 'bare', summary: 's', description: 'Does one thing.', flags: {} }).help()).toBe('usage: npm run bare\n\nDoes one thing.\n\noptions:\n  -h, --help  this help\n');
    const forms = defineCommand({
      name: 'pipeline',
      summary: 's',
      description: 'd',
      flags: { gather: stringFlag({ value: 'DIR', description: 'merge' }) },
      usage: ['(--github-actions | --gitlab-ci) --shards N', '--gather DIR --shards N'],
      environment: [['HOPLAB_X', 'what X does']],
    }).help();
    expect(forms).toMatch(/^usage: npm run pipeline -- \(--github-actions \| --gitlab-ci\) --shards N\n {7}npm run pipeline -- --gather DIR --shards N\n/);
    expect(forms).toContain('\nenvironment:\n  HOPLAB_X  what X does\n');
  });
});
