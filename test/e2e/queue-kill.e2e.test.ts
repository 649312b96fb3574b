/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { freePort } from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import {
	BURST_SCOPE,
	burstWorkflow,
	everyWritten,
	expectKept,
	killPlan,
	outcome,
	prepareBurstEmulator,
	runBurst,
	sleep,
	storedFrom,
	type Stored,
} from './burst';
import { timelines } from './kill-diagnostics';
import {
	onStore,
	SHARED_STORES,
	startQueueMode,
	STATE_DBS,
	subscribeToMessages,
	type QueueMode,
} from './queue';

jest.setTimeout(900_000);

const SECRET = ['whsec', 'queue', 'kill'].join('_');
const PLAN = killPlan(1500);
/** The service's retry schedule (1, 5 and 15 minutes) scaled to a fifteenth, as in the kill test. */
const SERVICE_RETRIES_SCALED = [60_000, 300_000, 900_000].map((ms) => ms / 15);

// Queue mode (a main process receiving the deliveries, two workers running the executions, on
// PostgreSQL, the bot's state in Redis or in PostgreSQL): the same burst, one worker killed with
// SIGKILL mid-burst.
describe.each(SHARED_STORES)(
	'queue mode, state in %s: every accepted message handled once, in order, a worker killed',
	(store) => {
		let emulator: RunningEmulator;
		let n8n: QueueMode;
		let url: string;
		const clientIds: string[] = [];

		beforeAll(async () => {
			emulator = await startEmulator();
			clientIds.push(...(await prepareBurstEmulator(emulator, SERVICE_RETRIES_SCALED)));
			// n8n's main process answers its webhook URL too slowly for this burst on this machine (most
			// first attempts 503 or later than the service's 5 s): the Own Port Trigger, as the README
			// advises for bursts, answers in time, so what is judged is the worker's kill.
			const ownPort = await freePort();
			const workflow = onStore(store, burstWorkflow({}, {}, ownPort));
			n8n = await startQueueMode(
				{
					baseUrl: emulator.baseUrl,
					apiKey: emulator.apiKey,
					rateLimit: 100,
					rateWindowSeconds: 1,
				},
				SECRET,
				[workflow],
				// n8n's defaults unless told (MB_QUEUE_ENV='{"DB_POSTGRESDB_POOL_SIZE":"10"}', say).
				{ stateDb: STATE_DBS.kill, store, env: JSON.parse(process.env.MB_QUEUE_ENV ?? '{}') },
			);
			url = `http://127.0.0.1:${ownPort}/messaging-bot`;
			await subscribeToMessages(emulator, url, SECRET);
		}, 900_000);

		afterAll(async () => {
			await n8n?.stop();
			await emulator?.close();
		});

		it('loses nothing, sends no reply twice, keeps each conversation in order', async () => {
			const started = Date.now();
			const killAt = 4000 + Math.random() * (PLAN.perClient * PLAN.gapMs * 0.5);
			const killer = (async () => {
				await sleep(killAt);
				await n8n.workers[0].kill();
				await n8n.restartWorker(0);
			})();
			await runBurst(emulator, () => url, clientIds, PLAN);
			await killer;
			const { final, summary } = await outcome(emulator, clientIds, PLAN, storedSteps);
			const written = await everyWritten(emulator, clientIds, PLAN, await storedSteps());
			process.stdout.write(
				`queue-mode kill test, state in ${store}: ${JSON.stringify({
					...summary,
					workerKilledAt: Math.round(killAt),
					everyWritten: { lost: written.lost, late: written.late, unknown: written.unknown },
					seconds: Math.round((Date.now() - started) / 1000),
				})}\n`,
			);
			if (written.missing.length > 0)
				process.stdout.write(
					`skipped, their deliveries (ms since the burst began): ${await timelines(emulator, written.missing.slice(0, 15), started)}\n`,
				);
			expectKept(final, PLAN, PLAN.clients);
			expect([written.lost, written.late]).toEqual([0, 0]);
		});

		/** The conversations in the shared store. */
		async function storedSteps(): Promise<Stored> {
			return storedFrom(await n8n.records(`scenario:${BURST_SCOPE}`));
		}
	},
);
