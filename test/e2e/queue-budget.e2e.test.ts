/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { busiestWindow } from '../helpers/busiest-window';
import {
	isTagUpdate,
	jobPath,
	jobWorkflow,
	optimumMs,
	requestLog,
	spanOf,
	startJob,
	PACE_BOUND,
} from './budget';
import { until } from './conversation';
import { sharedBudgetApi, startQueueMode, STATE_DBS, type QueueMode } from './queue';

jest.setTimeout(600_000);

const SECRET = ['whsec', 'queue', 'budget'].join('_');
const LIMIT = 40;
const WINDOW_MS = 10_000;

// n8n in queue mode: the main process takes the jobs in, two workers run them. Each worker is
// its own process; the credential shares the key's budget through Redis, so the two together
// keep to the one limit.
describe('one request budget per key across queue-mode workers', () => {
	let emulator: RunningEmulator;
	let n8n: QueueMode;

	beforeAll(async () => {
		emulator = await startEmulator({ rateLimit: LIMIT, rateWindowMs: WINDOW_MS });
		n8n = await startQueueMode(
			sharedBudgetApi(emulator, { limit: LIMIT, windowMs: WINDOW_MS, db: STATE_DBS.budget }),
			SECRET,
			[jobWorkflow('tags')],
			// Workers say which executions they ran.
			{ stateDb: STATE_DBS.budget, env: { N8N_LOG_LEVEL: 'info' } },
		);
		// Registered once the main process answers the job's webhook (an empty list does nothing).
		await until(
			() =>
				fetch(`${n8n.main.url}/webhook/${jobPath('tags')}`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: '{"items":[]}',
				}).then((r) => r.status),
			(status) => status === 200,
			60_000,
		);
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
	});

	it('keeps 300 tag updates spread over both workers within the limit: no 429', async () => {
		const { body } = await admin<{ ids: string[] }>(emulator, 'POST', '/clients', { count: 300 });
		const ids = body.data.ids;
		const before = (await requestLog(emulator)).length;
		// Six jobs of 50 at once: the queue hands them to both workers.
		await Promise.all(
			Array.from({ length: 6 }, (_, j) =>
				startJob(
					n8n.main.url,
					'tags',
					ids.slice(j * 50, j * 50 + 50).map((client) => ({ client })),
				),
			),
		);
		const done = await until(
			() => requestLog(emulator),
			(log) => log.slice(before).filter(isTagUpdate).length >= 300,
			180_000,
		);
		const log = done.slice(before);
		const ran = n8n.workers.map((w) => (w.log().match(/Worker started execution/g) ?? []).length);
		const jobMs = spanOf(log, isTagUpdate);
		const optimum = optimumMs(300, LIMIT, WINDOW_MS);
		process.stdout.write(
			`queue mode: executions per worker ${ran.join(' / ')}; ${log.length} requests, busiest ${WINDOW_MS} ms window ${busiestWindow(log, WINDOW_MS)} (limit ${LIMIT}), 429s ${log.filter((r) => r.status === 429).length}; wall ${jobMs} ms, optimum ${optimum} ms, ratio ${(jobMs / optimum).toFixed(3)}\n`,
		);
		expect(ran.every((n) => n > 0)).toBe(true);
		expect(log.filter(isTagUpdate).filter((r) => r.status === 200)).toHaveLength(300);
		expect(log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(busiestWindow(log, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
		expect(jobMs / optimum).toBeLessThanOrEqual(PACE_BOUND);
	});
});
