/** `npm run test:studio`: the Scenario Studio in a real browser, apart from `npm test` (it needs Chromium). */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/studio'],
	testMatch: ['**/*.browser.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	testTimeout: 60_000,
	maxWorkers: 1,
};
