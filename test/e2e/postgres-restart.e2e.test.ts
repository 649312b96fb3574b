/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { freePort } from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
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
} from './burst';
import { startOwnPostgres, type OwnPostgres } from './own-postgres';
import {
	onStore,
	psql,
	startQueueMode,
	STATE_DBS,
	subscribeToMessages,
	type QueueMode,
} from './queue';

jest.setTimeout(900_000);

const SECRET = ['whsec', 'pg', 'restart'].join('_');
const PLAN = killPlan(1500);
/**
 * How long the store's server stays down each time: 0, a restart (as an upgrade or a failover
 * does). MB_PG_DOWN_MS=8000 keeps it down longer than the store waits to reconnect (3 s): then
 * deliveries fail, and the service's retries bring some of them after their successors.
 */
const DOWN_MS = Number(process.env.MB_PG_DOWN_MS ?? 0);

// Queue mode (main with the Own Port Trigger, two workers; n8n's own data on the machine's
// PostgreSQL), the bots' state on a PostgreSQL server of the test's own, stopped mid-burst twice:
// a fast shutdown (clients disconnected, a checkpoint), then an immediate one (no checkpoint: the
// server recovers from its log as after a crash). What it acknowledged must all come back.
describe('queue mode, state in PostgreSQL: the store restarted mid-burst (fast, then immediate)', () => {
	let emulator: RunningEmulator;
	let n8n: QueueMode;
	let server: OwnPostgres;
	let url: string;
	let where: string;
	const clientIds: string[] = [];

	beforeAll(async () => {
		server = await startOwnPostgres();
		server.psql('CREATE DATABASE mb_store');
		where = `The PostgreSQL state store at 127.0.0.1:${server.port}, database mb_store failed`;
		emulator = await startEmulator();
		clientIds.push(...(await prepareBurstEmulator(emulator)));
		const ownPort = await freePort();
		n8n = await startQueueMode(
			{ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, rateLimit: 100, rateWindowSeconds: 1 },
			SECRET,
			[onStore('postgres', burstWorkflow({}, {}, ownPort))],
			{
				stateDb: STATE_DBS.pgRestart,
				store: 'postgres',
				postgres: { host: server.host, port: server.port, database: 'mb_store' },
			},
		);
		url = `http://127.0.0.1:${ownPort}/messaging-bot`;
		await subscribeToMessages(emulator, url, SECRET);
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		server?.remove();
	});

	it('every transcript equals the one-at-a-time run; errors in the outage name the store', async () => {
		const started = Date.now();
		const outages = (async () => {
			for (const mode of ['fast', 'immediate'] as const) {
				await sleep(5_000);
				server.stop(mode);
				await sleep(DOWN_MS);
				server.start();
			}
		})();
		await runBurst(emulator, () => url, clientIds, PLAN);
		await outages;
		const stored = async () =>
			storedFrom(
				JSON.parse(
					server.psql(
						`SELECT coalesce(json_agg(json_build_object('key', key, 'value', value)), '[]') FROM messaging_bot.records WHERE ns = 'scenario:${BURST_SCOPE}'`,
						'mb_store',
					),
				) as Array<{ key: string; value: string }>,
			);
		const { final, summary } = await outcome(emulator, clientIds, PLAN, stored);
		const written = await everyWritten(emulator, clientIds, PLAN, await stored());
		const errors = await outageErrors(emulator, n8n, where);
		process.stdout.write(
			`PostgreSQL restart test: ${JSON.stringify({
				...summary,
				everyWritten: { lost: written.lost, late: written.late, unknown: written.unknown },
				errors,
				seconds: Math.round((Date.now() - started) / 1000),
			})}\n`,
		);
		expectKept(final, PLAN, 0);
		expect([written.lost, written.late]).toEqual([0, 0]);
		// Every failure said which store and why: in n8n's log or the execution, never to the sender.
		expect(errors.other).toEqual([]);
	});
});

/** What the trigger answers a delivery it could not record: nothing of the store or its host. */
const DOOR_ANSWER = JSON.stringify({
	success: false,
	message: 'Not recorded this time: send the delivery again',
});

/**
 * The failures of the outage. A delivery the trigger could not record is answered 503 with words
 * that say nothing of the store (the sender may be anyone): the cause goes to n8n's log, one line a
 * delivery, which must name the store (host, port, database), as must every execution that failed.
 * The rest are listed in `other`: a 5xx answered otherwise, a logged cause or a failed execution
 * that does not name the store, a 503 with no line in the log.
 */
async function outageErrors(
	emulator: RunningEmulator,
	n8n: QueueMode,
	where: string,
): Promise<{ answered503: number; namingTheStore: number; other: string[] }> {
	const answered: string[] = [];
	const list = (
		await admin<Array<{ id: string }>>(emulator, 'GET', '/deliveries?event=message.received')
	).body.data;
	for (const { id } of list) {
		const attempts =
			(
				await admin<{
					attempts?: Array<{ status_code: number | null; response_body?: string }>;
				}>(emulator, 'GET', `/deliveries/${id}`)
			).body.data.attempts ?? [];
		for (const a of attempts)
			if (a.status_code !== null && a.status_code >= 500) answered.push(a.response_body ?? '');
	}
	const logged = n8n.main
		.log()
		.split('\n')
		.filter((line) => line.includes('was answered 503:'));
	const failed = psql(
		`SELECT d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e.status IN ('error', 'crashed')`,
		n8n.database,
	)
		.split('\n')
		.filter(Boolean);
	const causes = [...logged, ...failed];
	const other = [
		...answered.filter((body) => body !== DOOR_ANSWER),
		...causes.filter((t) => !t.includes(where)),
		...(logged.length < answered.length
			? [`${answered.length} deliveries answered 503, ${logged.length} causes logged`]
			: []),
	].map((t) => t.slice(0, 300));
	return {
		answered503: answered.length,
		namingTheStore: causes.filter((t) => t.includes(where)).length,
		other,
	};
}
