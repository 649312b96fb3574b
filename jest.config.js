/** Tests run under the Node 24 that npm scripts put first on PATH (the `node` dev dependency). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/runtime', '<rootDir>/nodes'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	testTimeout: 30_000,
	// Two cores: one worker runs suites that start servers without starving them.
	maxWorkers: 2,
};
