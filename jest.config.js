/** Jest in ESM mode with ts-jest; run through `npm test` (which sets --experimental-vm-modules). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }]
  },
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  // Links the agent CLIs where the unprivileged test users can run them, wherever the clone is.
  globalSetup: '<rootDir>/__tests__/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/__tests__/setup/global-teardown.mjs',
  testTimeout: 120000,
  maxWorkers: 2,
  verbose: false
}
