/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { compileScenario } from '../../runtime/scenarios';
import { conversationScope } from '../../runtime/scenarios/engine/scope';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { Chat, runCli, scenario } from './harness';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-cli-versions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const v1 = scenario(
	{
		welcome: { messages: ['v1 welcome'], on: [{ match: { equals: 'go' }, target: 'ask' }] },
		ask: { messages: ['v1 ask'], fallback: 'v1 fallback' },
	},
	{ id: 'flow', version: 1 },
);
const v2 = scenario(
	{
		welcome: { messages: ['v2 welcome'], on: [{ match: { equals: 'go' }, target: 'question' }] },
		question: { messages: ['v2 question'], fallback: 'v2 fallback' },
	},
	{ id: 'flow', version: 2 },
);

describe('CLI: versions, move and rollback', () => {
	const storeFile = path.join(dir, 'state.sqlite');
	const file = path.join(dir, 'flow.json');

	beforeAll(async () => {
		const chat = new Chat([v1], { openStore: (now) => new SqliteStore(storeFile, now) });
		// The CLI reads on the real clock: the records must not have expired by then.
		chat.time = Date.now();
		const store = chat.store;
		const scope = { scope: conversationScope('flow') };
		chat.engine = chat.newEngine([compileScenario(v1)], undefined, scope);
		for (const client of ['cl_ada', 'cl_grace']) {
			await chat.say('hi', client);
			await chat.say('go', client);
		}
		await chat.say('hi', 'cl_alan');
		chat.engine = chat.newEngine([compileScenario(v2)], undefined, scope);
		await chat.say('hi', 'cl_katherine');
		await store.close();
		writeFileSync(file, JSON.stringify(v2));
	});

	it('lists the versions the store has seen, with their live conversations', async () => {
		const { code, out } = await runCli(['versions', file, '--store', storeFile]);
		expect(code).toBe(0);
		const rows = out.trim().split('\n');
		expect(rows[0]).toMatch(
			/^scenario\s+version\s+in FILE\s+conversations\s+first seen\s+last seen\s+hash$/,
		);
		expect(rows[1]).toMatch(/^flow\s+2\s+yes\s+1\s+\d{4}-/);
		// Not the file's version: that column is blank.
		expect(rows[2]).toMatch(/^flow\s+1\s{6,}3\s+\d{4}-/);
		expect(rows).toHaveLength(3);
	});

	it('previews a move, then moves with --apply, each once', async () => {
		const args = ['move', file, '--store', storeFile, '--from', '1', '--map', 'ask=question'];
		const preview = await runCli(args);
		expect(preview.code).toBe(0);
		expect(preview.out).toContain('Preview: 3 live conversations of "flow" version 1 → version 2');
		expect(preview.out).toMatch(/ask\s+2\s+moves to question/);
		expect(preview.out).toMatch(/welcome\s+1\s+finishes on version 1/);
		const applied = await runCli([...args, '--apply']);
		expect(applied).toMatchObject({ code: 0 });
		expect(applied.out).toContain('Moved 2, left on version 1 1, started over 0, not moved 0');
		expect((await runCli([...args, '--apply'])).out).toContain('Moved 0');
		const bad = await runCli([...args.slice(0, -1), 'ask=nowhere']);
		expect(bad).toMatchObject({ code: 1 });
		expect(bad.err).toContain('State Map: "nowhere" (for "ask") is not a state of version 2');
	});

	it("rolls the file back to a version's content, saved as a new version", async () => {
		const { code, out } = await runCli(['rollback', file, '--store', storeFile, '--to', '1']);
		expect(code).toBe(0);
		expect(out).toContain("version 1's content saved as version 3");
		expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...v1, version: 3 });
		const missing = await runCli(['rollback', file, '--store', storeFile, '--to', '7']);
		expect(missing).toMatchObject({ code: 1 });
		expect(missing.err).toContain('The store has no version 7 of "flow"');
	});
});
