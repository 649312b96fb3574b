/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: a Redis of the test's own, never loaded by n8n */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { closeSharedRedisStores } from '../../runtime/stores/redis';
import { apiCredential, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { itemsInto, scenarioNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-redis-notice-'));
const port = 6480 + (process.pid % 40);
let server: ChildProcess;
beforeAll(async () => {
	// What a user gets by default: snapshots, no append-only file.
	server = spawn('redis-server', ['--port', String(port), '--dir', dir, '--appendonly', 'no']);
	await new Promise((resolve) => setTimeout(resolve, 300));
});
afterAll(async () => {
	await closeSharedRedisStores();
	server.kill('SIGKILL');
	rmSync(dir, { recursive: true, force: true });
});

// The Scenario node on a Redis that can lose acknowledged writes: said once per process on its
// output (and in n8n's log); refused when the node's option asks for a Redis that loses nothing.
describe('Scenario node on a Redis with snapshots only', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	const run = async (options: { refuseLossyRedis?: boolean }) => {
		const result = await runWorkflow(
			itemsInto(
				[{ bot_id: 'bot_shop', client_id: 'cl_ada' }],
				scenarioNode(
					{ operation: 'getConversation', stateStore: 'redis', options },
					{
						credentials: {
							messagingBotApi: { id: 'a', name: 'API' },
							messagingBotRedisApi: { id: 'r', name: 'R' },
						},
					},
				),
			),
			{
				messagingBotApi: apiCredential(emulator()),
				messagingBotRedisApi: { host: '127.0.0.1', port, database: 3 },
			},
		);
		return result;
	};

	it('refuses it when Refuse a Redis That Can Lose Writes is on, saying why', async () => {
		const result = await run({ refuseLossyRedis: true });
		expect(result.data.resultData.error?.message).toMatch(
			/^Refused: The Redis state store at 127\.0\.0\.1:\d+ database 3 can lose writes it has acknowledged: a crash of that Redis loses every write since its last snapshot/,
		);
	});

	it('says what a crash loses on the first output of the process, once', async () => {
		const first = outputOf(await run({}), 'Scenario');
		expect(first[0].json.store_notice).toMatch(/can lose writes it has acknowledged/);
		const second = outputOf(await run({}), 'Scenario');
		expect(second[0].json.store_notice).toBeUndefined();
	});
});
