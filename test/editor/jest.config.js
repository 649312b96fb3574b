/** `npm run test:editor`: the editor test in a real browser, apart from `npm test` (it needs Chromium). */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/editor'],
	testMatch: ['**/*.browser.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }],
	},
	testTimeout: 120_000,
	maxWorkers: 1,
};
