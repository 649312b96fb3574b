/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { main } from '../../runtime/cli/scenario';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { Chat } from './harness';
import { greetingOf, greetingTest } from './split-fixture';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-split-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]) {
	let out = '';
	let err = '';
	const io = {
		lines: (async function* () {})(),
		out: (t: string) => (out += t),
		err: (t: string) => (err += t),
		interactive: false,
	};
	const code = await main(args, io);
	return { code, out, err };
}

describe('stats: split tests', () => {
	it('prints each variant with its clients, goal, conversion, interval and the verdict', async () => {
		const file = path.join(dir, 'state.sqlite');
		const chat = new Chat([greetingTest()], {
			openStore: (now) => new SqliteStore(file, now),
			engine: { scope: '@test' },
		});
		const today = new Date().toISOString().slice(0, 10);
		chat.time = Date.parse(`${today}T00:10:00Z`);
		const counts = { short: { clients: 0, goal: 0 }, warm: { clients: 0, goal: 0 } };
		for (let i = 0; i < 20; i++) {
			const variant = greetingOf(await chat.say('hi', `cl_${i}`));
			counts[variant].clients++;
			if (i % 4 === 0) {
				await chat.say('yes', `cl_${i}`);
				counts[variant].goal++;
			}
		}
		await chat.store.close();
		const { code, out, err } = await run(['stats', '--store', file]);
		expect(err).toBe('');
		expect(code).toBe(0);
		const from = new Date(Date.parse(today) - 6 * 86_400_000).toISOString().slice(0, 10);
		const table = out.slice(out.indexOf('split test'));
		const lines = table.split('\n');
		expect(lines[0]).toBe(
			`split test greeting of test, ${from} to ${today} (conversations of @test)`,
		);
		expect(lines[1]).toMatch(/^variant\s+clients\s+goal\s+conversion\s+95% interval\s+best$/);
		for (const [i, variant] of (['short', 'warm'] as const).entries()) {
			const { clients, goal } = counts[variant];
			const conversion = `${((100 * goal) / clients).toFixed(1)}%`;
			expect(lines[2 + i]).toMatch(
				new RegExp(
					`^${variant}\\s+${clients}\\s+${goal}\\s+${conversion.replace('.', '\\.')}\\s+\\d+\\.\\d% to \\d+\\.\\d%\\s+\\d+\\.\\d%$`,
				),
			);
		}
		expect(lines[4]).toMatch(
			/^verdict: not enough data yet \(about [\d,]+ more clients needed to tell a difference of 5 points\)$/,
		);
	});
});
