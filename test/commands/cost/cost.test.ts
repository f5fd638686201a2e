/**
 * `npm run cost` honours --stacks and --env in the cost as in the time
 * estimate (`--stacks aws-cluster,aws-lb` prints no GCP cost), and has one
 * flag style: `--format json`, with `--json` kept as its alias.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cost } from '../../../lib/commands/cost/cost';
import { placedAwsState, writeState } from '../../support/tf-state';

describe('npm run cost', () => {
  const saved = process.env.HOPLAB_CONFIG;
  let printed: string[];
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-cost-'));
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify({ attendees: ['ann', 'bob', 'cy'] }));
    process.env.HOPLAB_CONFIG = join(dir, 'hoplab.config.json');
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.HOPLAB_CONFIG;
    else process.env.HOPLAB_CONFIG = saved;
  });
  beforeEach(() => {
    printed = [];
    jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(...String(text).split('\n')));
  });
  afterEach(() => jest.restoreAllMocks());

  test('GIVEN --stacks aws-cluster,aws-lb WHEN run THEN the cost names no GCP item or price, as the time estimate names no GCP stack', async () => {
    expect(await cost(['--stacks', 'aws-cluster,aws-lb'])).toBe(0);
    expect(printed.filter((l) => /gcp|GCP|GKE|Google/.test(l))).toEqual([]);
    expect(printed.find((l) => l.startsWith('  3 environments: '))).toMatch(/^ {2}3 environments: AWS \$\d+\.\d\d\/h$/);
  });

  test('GIVEN --env ann,cy --stacks gcp-cluster --json WHEN run THEN the JSON prices 2 environments of GCP clusters only', async () => {
    expect(await cost(['--env', 'ann,cy', '--stacks', 'gcp-cluster', '--json'])).toBe(0);
    const json = JSON.parse(printed.join('\n'));
    expect([json.environments, json.stacks, json.hour.aws]).toEqual([2, ['gcp-cluster'], 0]);
    // Per region (one here): its environments and their lines.
    expect(json.regions.map((r: { cloud: string; region: string; environments: number }) => [r.cloud, r.region, r.environments])).toEqual([['gcp', 'us-central1', 2]]);
    expect([...new Set(json.regions.flatMap((r: { lines: { stack: string }[] }) => r.lines.map((l) => l.stack)))]).toEqual(['gcp-cluster']);
    expect(json.hour.gcp).toBeGreaterThan(0);
  });

  test('GIVEN --env naming an environment the config does not have WHEN run THEN a usage error names it and the ones there are', async () => {
    await expect(cost(['--env', 'zed'])).rejects.toThrow('--env: "zed" not in this config; environments: ann, bob, cy');
  });
});

async function printedBy(argv: string[]): Promise<{ code: number; out: string }> {
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
    const format = await printedBy(['--format', 'json']);
    const alias = await printedBy(['--json']);
    expect(format.code).toBe(0);
    expect(JSON.parse(format.out)).toEqual(JSON.parse(alias.out));
  });

  test('GIVEN --format table WHEN run THEN the table is printed, not JSON', async () => {
    const table = await printedBy(['--format', 'table']);
    expect(table.out).not.toMatch(/^\{/);
    expect(table.out).toBe((await printedBy([])).out);
  });

  test.each([
    [['--format', 'yaml'], '--format: "yaml" is not one of table, json'],
    [['--json', '--format', 'table'], '--json and --format table contradict each other; give one of them'],
  ])('GIVEN %j WHEN run THEN a usage error says what is allowed', async (argv, message) => {
    await expect(cost(argv)).rejects.toThrow(message);
  });
});

describe('npm run cost with placement', () => {
  const saved = process.env.HOPLAB_CONFIG;
  let printed: string[];
  const useConfig = (config: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'hoplab-cost-'));
    writeFileSync(join(dir, 'hoplab.config.json'), JSON.stringify(config));
    process.env.HOPLAB_CONFIG = join(dir, 'hoplab.config.json');
  };
  beforeEach(() => {
    printed = [];
    jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(...String(text).split('\n')));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    if (saved === undefined) delete process.env.HOPLAB_CONFIG;
    else process.env.HOPLAB_CONFIG = saved;
  });

  test('GIVEN a config without placement WHEN run THEN neither form says anything of placement (the output is as before)', async () => {
    useConfig({ attendees: ['ann', 'bob', 'cy'] });
    expect(await cost(['--json'])).toBe(0);
    expect(JSON.parse(printed.join('\n'))).not.toHaveProperty('placement');
    printed = [];
    expect(await cost([])).toBe(0);
    expect(printed.filter((l) => /[Pp]lacement/.test(l))).toEqual([]);
  });

  test('GIVEN a config that places environments WHEN run THEN the table ends with the placement and the JSON has it', async () => {
    useConfig({ attendees: ['ann', 'bob', 'cy', 'dee', 'eve'], aws: { regions: ['us-east-1', 'us-east-2'] } });
    expect(await cost(['--json'])).toBe(0);
    const json = JSON.parse(printed.join('\n'));
    expect(json.placement.slots.filter((s: { cloud: string }) => s.cloud === 'aws').map((s: { slot: string; environments: string[] }) => [s.slot, s.environments])).toEqual([
      ['host/us-east-1', ['ann', 'bob', 'cy', 'dee']],
      ['host/us-east-2', ['eve']],
    ]);
    printed = [];
    expect(await cost([])).toBe(0);
    expect(printed).toContain('Placement of 5 environments:');
    expect(printed.find((l) => l.startsWith('| host/us-east-2'))).toMatch(/^\| host\/us-east-2 \| 1\/4 +\| eve +\| 2\/5 +\| 2\/5 +\| 6 +\|$/);
  });

  test('GIVEN an environment deployed where the config would no longer put it (its local state says us-east-2) WHEN run THEN it is priced and placed where it is, as deploy and teardown see it', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hoplab-cost-state-'));
    const before = process.cwd();
    // Placed by the config alone, ann would go to the first slot with room: host/us-east-1.
    writeState(join(cwd, 'terraform.ann-aws-cluster.tfstate'), placedAwsState({ slot: 'host/us-east-2', account: 'host', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'] }));
    useConfig({ attendees: ['ann', 'bob'], aws: { regions: ['us-east-1', 'us-east-2'] } });
    process.chdir(cwd);
    try {
      expect(await cost(['--json'])).toBe(0);
    } finally {
      process.chdir(before);
    }
    const json = JSON.parse(printed.join('\n'));
    expect(json.placement.slots.filter((s: { cloud: string }) => s.cloud === 'aws').map((s: { slot: string; environments: string[] }) => [s.slot, s.environments])).toEqual([
      ['host/us-east-1', ['bob']],
      ['host/us-east-2', ['ann']],
    ]);
  });
});
