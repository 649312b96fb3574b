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
	// Says at the end which n8n versions the end-to-end tests ran, and on which Node.js.
	reporters: ['default', '<rootDir>/test/e2e/n8n-versions-reporter.js'],
};
