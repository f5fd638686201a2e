/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
  // The emulator integration test applies and destroys real Terraform; give it room.
  testTimeout: 30_000,
};
