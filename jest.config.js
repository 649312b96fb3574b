/** Tests run under the Node 24 that npm scripts put first on PATH (the `node` dev dependency). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/runtime', '<rootDir>/nodes'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
		// github-slugger ships ES modules only; compiled to CommonJS for the documentation link test.
		'/node_modules/github-slugger/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true } }],
	},
	transformIgnorePatterns: ['/node_modules/(?!github-slugger/)'],
	testTimeout: 30_000,
	// Two cores: one worker runs suites that start servers without starving them.
	maxWorkers: 2,
	// The longest end-to-end suites first (test/sequencer.js says why).
	testSequencer: '<rootDir>/test/sequencer.js',
	// Says at the end which n8n versions the end-to-end tests ran, and on which Node.js.
	reporters: ['default', '<rootDir>/test/e2e/n8n-versions-reporter.js'],
};
