/**
 * Two projects: `unit` (everything but test/integration) and `emulator`
 * (test/integration: real Terraform against moto). The emulator project's
 * global setup starts one moto for the whole run, and only when a test of it is
 * selected (see test/integration/harness.ts).
 *
 * Workers: jest's default on this 2-core machine is cores - 1 = 1 worker, so the
 * emulator suites, which mostly wait on Terraform's and the provider's waiters
 * (EKS delete: a random 0-60 s delay, then three 10 s polls), ran one after the
 * other and nothing ran beside them. Four workers run the emulator files side by
 * side while the unit files share what CPU is left. HOPLAB_JEST_WORKERS overrides.
 */
const shared = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
  // The emulator tests apply and destroy real Terraform; they set their own, longer timeouts.
  testTimeout: 30_000,
};

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: Number(process.env.HOPLAB_JEST_WORKERS) || 4,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/integration/'],
    },
    {
      ...shared,
      displayName: 'emulator',
      roots: ['<rootDir>/test/integration'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
    },
  ],
};
