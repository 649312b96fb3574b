/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { startEmulator, type RunningEmulator } from '../emulator';
import { burstWorkflow, prepareBurstEmulator, sleep } from './burst';
import { onStore, psql, startQueueMode, STATE_DBS, type QueueMode } from './queue';

jest.setTimeout(600_000);

const SECRET = ['whsec', 'redis', 'prefix'].join('_');
/** The Schedule Trigger before Run Due Work fires every 5 s. */
const TICKS_MS = 16_000;

/** The Storage of the Messaging Bot nodes in the latest executions of an n8n, newest first. */
function storesRun(n8n: QueueMode, since: Date): string[] {
	return psql(
		`SELECT coalesce(substring(d."workflowData"::text from '"stateStore":"([a-z]+)"'), '-') FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."startedAt" > '${since.toISOString()}' ORDER BY e.id DESC LIMIT 3`,
		n8n.database,
	)
		.split('\n')
		.filter(Boolean);
}

// What the README's troubleshooting says of two n8n installations on one Redis with the same key
// prefix: n8n keeps each published workflow whole in that Redis and its triggers run from it, so
// a workflow published by one, under an ID the other has too, is what the other's Schedule
// Trigger runs (its Run Due Work then reads the first one's store). Every queue-mode n8n of these
// tests has a prefix of its own (queue.ts); the pause test once ran another test's copy this way.
describe('two queue-mode n8n on one Redis with the same key prefix', () => {
	let emulator: RunningEmulator;
	const running: QueueMode[] = [];

	afterAll(async () => {
		for (const n8n of running) await n8n.stop();
		await emulator?.close();
	});

	it("one's Schedule Trigger runs the workflow the other published under the same ID", async () => {
		emulator = await startEmulator();
		await prepareBurstEmulator(emulator);
		const api = { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey };
		const prefix = `mb_shared_${process.pid}_${Date.now()}`;
		const env = { N8N_REDIS_KEY_PREFIX: prefix };
		const first = await startQueueMode(api, SECRET, [onStore('redis', burstWorkflow())], {
			stateDb: STATE_DBS.prefix,
			store: 'redis',
			workers: 1,
			env,
		});
		running.push(first);
		let since = new Date();
		await sleep(TICKS_MS);
		const alone = storesRun(first, since);
		const second = await startQueueMode(api, SECRET, [onStore('postgres', burstWorkflow())], {
			stateDb: STATE_DBS.prefix,
			store: 'postgres',
			workers: 1,
			env,
		});
		running.push(second);
		since = new Date();
		await sleep(TICKS_MS);
		const beside = storesRun(first, since);
		process.stdout.write(
			`One Redis prefix: the first n8n's runs alone ${JSON.stringify(alone)}, once the second published ${JSON.stringify(beside)}\n`,
		);
		expect(alone.length).toBeGreaterThan(0);
		expect(new Set(alone)).toEqual(new Set(['redis']));
		expect(beside.length).toBeGreaterThan(0);
		expect(new Set(beside)).toEqual(new Set(['postgres']));
	});
});
