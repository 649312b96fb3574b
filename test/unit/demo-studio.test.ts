/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary folders, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { SqliteStore } from '../../runtime/stores/sqlite';
import { TOKEN_HEADER } from '../../runtime/studio/server/guard';
import { startDemoStudio } from '../../scripts/lib/demo-studio';
import { Chat, compiled, example } from '../scenarios/harness';

/**
 * `npm start`'s studio shows the traffic of the conversations the demo's n8n keeps: the store in
 * n8n's user folder, written after the studio started (as the demo's n8n writes it), read back
 * through the studio's own API.
 */
const userFolder = mkdtempSync(path.join(tmpdir(), 'mb-demo-studio-'));
afterAll(() => rmSync(userFolder, { recursive: true, force: true }));

it("shows the traffic of the store the demo's n8n writes, from the studio's start", async () => {
	const { studio, store } = await startDemoStudio(userFolder, 0);
	try {
		expect(store).toBe(path.join(userFolder, '.n8n', 'messaging-bot', 'state.sqlite'));
		// The demo's n8n: the order-status bot's conversations in that store, after the studio began.
		const chat = new Chat([example('order-status')]);
		// Today, on an engine begun now: the studio reads the days the counters are kept for.
		chat.time = Date.now();
		const written = new SqliteStore(store, chat.clock.now);
		chat.engine = chat.newEngine([compiled(example('order-status'))], chat.api, {}, written);
		expect(await chat.say('hi', 'cl_ada')).toHaveLength(1);
		expect(await chat.say('hi', 'cl_grace')).toHaveLength(1);
		await written.close();
		const day = new Date(chat.time).toISOString().slice(0, 10);
		const asked = await fetch(
			`${studio.origin}/api/traffic?scenario=order-status&from=${day}&to=${day}`,
			{ headers: { [TOKEN_HEADER]: studio.token } },
		);
		expect(asked.status).toBe(200);
		const traffic = (await asked.json()) as { states: Record<string, { entered: number }> };
		expect(traffic.states.welcome?.entered).toBe(2);
	} finally {
		await studio.close();
	}
});
