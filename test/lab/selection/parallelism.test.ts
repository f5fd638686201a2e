import { autoParallelism, availableMemoryMiB, resolveParallelism, stackPrivateMiB } from '../../../lib/lab/selection/parallelism';
import { validConfig } from '../../../lib/config/load';

const ALL = ['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb'] as const;

describe('auto parallelism from a memory figure', () => {
  test('GIVEN 8 GiB available and all four stack kinds WHEN chosen THEN what fits after the reserve and the shared binaries, per aws-lb stack', () => {
    const auto = autoParallelism(8192, ALL);
    // 8192 - 1024 reserved - (50 terraform + 490 aws + 80 helm + 90 kubernetes + 150 google) shared = 6308; aws-lb stack: 165 + 120 + 120 + 110 = 515 private
    expect(stackPrivateMiB('aws-lb')).toBe(515);
    expect(auto.parallelism).toBe(12);
    expect(auto.reason).toBe(
      'parallelism auto: 12 = (8192 MiB available - 1024 reserved - 860 MiB of shared provider binaries) / 515 MiB per aws-lb stack (terraform + aws + helm + kubernetes, private memory); ' +
        'helm, kubernetes, google figures are estimates, aws and terraform measured (lib/lab/selection/parallelism.ts)',
    );
  });

  test('GIVEN only aws-cluster stacks WHEN chosen THEN measured figures only, and more fit', () => {
    const auto = autoParallelism(4096, ['aws-cluster']);
    // (4096 - 1024 - 540) / (165 + 120)
    expect(auto).toEqual({
      parallelism: 8,
      reason:
        'parallelism auto: 8 = (4096 MiB available - 1024 reserved - 540 MiB of shared provider binaries) / 285 MiB per aws-cluster stack (terraform + aws, private memory); measured figures (lib/lab/selection/parallelism.ts)',
    });
  });

  test('GIVEN a big machine WHEN chosen THEN capped at 32', () => {
    expect(autoParallelism(64 * 1024, ALL).parallelism).toBe(32);
    expect(autoParallelism(64 * 1024, ALL).reason).toContain('parallelism auto: 32 (capped at 32)');
  });

  test('GIVEN too little memory WHEN chosen THEN one, with a warning', () => {
    const auto = autoParallelism(1500, ALL);
    expect(auto.parallelism).toBe(1);
    expect(auto.reason).toContain('too little memory for even one: running one anyway');
  });

  test('GIVEN a number WHEN resolved THEN it is kept; GIVEN auto THEN the memory figure is read', () => {
    expect(resolveParallelism(6, ALL, () => 1)).toEqual({ parallelism: 6, reason: 'parallelism 6 (set)' });
    expect(resolveParallelism('auto', ['aws-cluster'], () => 4096).parallelism).toBe(8);
  });

  test('GIVEN /proc/meminfo WHEN read THEN MemAvailable in MiB; without it, os.freemem', () => {
    expect(availableMemoryMiB(() => 'MemTotal:       24684000 kB\nMemFree:         2000000 kB\nMemAvailable:    8388608 kB\n')).toBe(8192);
    expect(
      availableMemoryMiB(() => {
        throw new Error('ENOENT');
      }),
    ).toBeGreaterThan(0);
  });
});

describe('deploy.parallelism in the config', () => {
  test('GIVEN "auto" WHEN validated THEN kept', () => {
    expect(validConfig({ deploy: { parallelism: 'auto' } }, 'test').deploy.parallelism).toBe('auto');
  });

  test.each([
    ['many', 'deploy.parallelism: "many" must be a whole number of stacks from 1 to 32, or "auto"'],
    [2.5, 'deploy.parallelism: 2.5 must be a whole number of stacks from 1 to 32, or "auto"'],
    [0, 'deploy.parallelism: 0 must be at least 1 (allowed: 1 to 32)'],
  ])('GIVEN %p WHEN validated THEN the error says what is allowed', (value, message) => {
    expect(() => validConfig({ deploy: { parallelism: value } }, 'test')).toThrow(message);
  });
});
