/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: loads the built files in a fresh process, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const BUDGET = 'dist/lib/budget.js';
const users = [
	'dist/nodes/MessagingBot/MessagingBot.node.js',
	'dist/nodes/MessagingBotScenario/MessagingBotScenario.node.js',
];

// The service's limit is per API key: every node in one n8n must draw on one budget per key.
// The built node files share it by requiring one file, dist/lib/budget.js, so the process holds
// one copy of its registry.
describe('one request budget registry for every built node file', () => {
	it('is one module instance that both node files required, in a fresh process', () => {
		const result = JSON.parse(
			execFileSync(
				process.execPath,
				[
					'-e',
					`
			const path = require('path');
			const files = ${JSON.stringify(users)}.map((f) => path.resolve(f));
			for (const f of files) require(f);
			const budgetFile = path.resolve(${JSON.stringify(BUDGET)});
			const copies = Object.values(require.cache).filter((m) => m.filename === budgetFile);
			const budget = require(budgetFile);
			const clock = { now: () => 0, sleep: async () => undefined };
			const a = budget.sharedBudget('key-hash', clock, { limit: 10, windowMs: 1000 });
			const b = require(budgetFile).sharedBudget('key-hash', clock, { limit: 10, windowMs: 1000 });
			process.stdout.write(JSON.stringify({
				copies: copies.length,
				requiredBy: files.map((f) => require.cache[f].children.some((c) => c === copies[0])),
				same: a === b,
			}));
		`,
				],
				{ cwd: root, encoding: 'utf8' },
			),
		) as { copies: number; requiredBy: boolean[]; same: boolean };
		expect(result).toEqual({ copies: 1, requiredBy: [true, true], same: true });
	});

	it('is not also inlined into a node file', () => {
		for (const file of users) {
			const code = readFileSync(path.join(root, file), 'utf8');
			expect(code).toContain('require("../../lib/budget.js")');
			expect(code).not.toMatch(/function sharedBudget\(/);
		}
	});
});
