/**
 * Two projects: `unit` (everything but test/emulator) and `emulator`
 * (test/emulator: real Terraform against moto). The emulator project's
 * global setup starts one moto for the whole run, and only when a test of it is
 * selected (see test/emulator/harness.ts).
 *
 * Order: test/sequencer.cjs runs the emulator files first, slowest first, so
 * the longest Terraform flow never queues behind other files.
 *
 * Workers: `npm test` (scripts/test.mjs) runs the two projects as two jest
 * processes, the emulator one with a worker per emulator file at a lower CPU
 * priority, the unit one with two workers. Run directly (`npx jest`), both
 * projects share HOPLAB_JEST_WORKERS workers, 4 by default: jest's own default
 * on this 2-core machine is cores - 1 = 1, and the emulator files, which mostly
 * wait on Terraform's and the provider's waiters, would run one after the other.
 */
const shared = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
};

/** @type {import('jest').Config} */
module.exports = {
  // A safety net for a unit test that hangs, not a speed limit. It is global: jest ignores a project's own
  // testTimeout, so the unit tests ran with jest's default of 5 s until now (and the emulator project sets
  // its own, in test/emulator/setup.ts). Under two concurrent `npm test` runs on this 2-core machine every
  // unit test passed within those 5 s but the ones that wait on purpose (a probe's timeout, a stand-in
  // emulator starting slowly), which take up to about 25 s.
  testTimeout: 120_000,
  maxWorkers: Number(process.env.HOPLAB_JEST_WORKERS) || 4,
  testSequencer: '<rootDir>/test/sequencer.cjs',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/emulator/'],
      // One chromium for every browser test of the run, started only when one is selected (test/support/browser.ts).
      globalSetup: '<rootDir>/test/support/browser-global-setup.ts',
      globalTeardown: '<rootDir>/test/support/browser-global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'emulator',
      roots: ['<rootDir>/test/emulator'],
      testMatch: ['**/*.test.ts'],
      // test/emulator/setup.ts sets the emulator tests' timeout: a safety net behind the watchdog on their progress.
      setupFilesAfterEnv: ['<rootDir>/test/setup.ts', '<rootDir>/test/emulator/setup.ts'],
      globalSetup: '<rootDir>/test/emulator/global-setup.ts',
      globalTeardown: '<rootDir>/test/emulator/global-teardown.ts',
    },
  ],
};
