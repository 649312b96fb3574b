/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { prepareN8n, productionUrl } from '../../scripts/lib/demo-setup';
import {
	freePort,
	RESTARTABLE_ENV,
	restartN8n,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import {
	burstWorkflow,
	everyWritten,
	expectKept,
	killPlan,
	outcome,
	prepareBurstEmulator,
	runBurst,
	sleep,
	transcripts,
	type Stored,
} from './burst';
import { oneAtATimeFunnel, storedFunnel } from './funnel';
import { storedInSqlite } from './stored';
import { countBy, explain, timelines } from './kill-diagnostics';

jest.setTimeout(900_000);

const SECRET = ['whsec', 'kill', 'test'].join('_');
const PLAN = killPlan(2500);
const KILLS = 3;
/**
 * The node's default Late Messages ("ignore") and the service's retry schedule (1, 5 and 15
 * minutes, here a fifteenth of that): every message the clients wrote must be answered, in order,
 * those n8n never passed on included (healing from the client's history).
 */
const SERVICE_RETRIES_SCALED = [60_000, 300_000, 900_000].map((ms) => ms / 15);

// A real n8n (regular mode, SQLite state store) answering a burst of 1,000 client messages from
// 50 clients, killed with SIGKILL three times during the burst and started again each time.
describe('every accepted message handled once, in order, through SIGKILLs', () => {
	let emulator: RunningEmulator;
	let n8n: RunningN8n;
	let options: N8nOptions;
	let url: string;
	const clientIds: string[] = [];

	beforeAll(async () => {
		emulator = await startEmulator();
		clientIds.push(...(await prepareBurstEmulator(emulator, SERVICE_RETRIES_SCALED)));
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-kill-')),
			port: await freePort(),
			brokerPort: await freePort(),
			env: RESTARTABLE_ENV,
		};
		const workflow = burstWorkflow({}, {});
		prepareN8n(
			options,
			{ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, rateLimit: 100, rateWindowSeconds: 1 },
			SECRET,
			[workflow],
		);
		n8n = await startN8n(options);
		url = productionUrl(n8n.url, workflow);
		await waitForWebhook(url);
		await admin(emulator, 'POST', '/subscriptions', {
			url,
			secret: SECRET,
			events: ['message.received'],
		});
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (options && !process.env.MB_KEEP)
			rmSync(options.userFolder, { recursive: true, force: true });
	});

	it('loses nothing, sends no reply twice, keeps each conversation in order', async () => {
		const started = Date.now();
		const killAt: number[] = [];
		// How long n8n took to answer its readiness check, and to take the trigger's webhook again.
		const restarts: Array<{ ready: number; webhook: number }> = [];
		const killer = (async () => {
			for (let k = 0; k < KILLS; k++) {
				await sleep((k === 0 ? 2000 : 1000) + Math.random() * (k === 0 ? 6000 : 4000));
				killAt.push(Date.now() - started);
				await n8n.kill();
				const down = Date.now();
				n8n = await restartN8n(options);
				const ready = Date.now() - down;
				await waitForWebhook(url);
				restarts.push({ ready, webhook: Date.now() - down });
			}
		})();
		const burst = await runBurst(emulator, () => url, clientIds, PLAN);
		await killer;
		await waitForWebhook(url);
		// Then the scheduled run takes what the killed executions left.
		const { final, acked, byStartingN8n, summary } = await outcome(emulator, clientIds, PLAN, () =>
			storedSteps(options),
		);
		// Every message the clients wrote, judged, those n8n answered "starting up" included: what
		// healing from the history gives.
		const stored = storedSteps(options);
		const written = await everyWritten(emulator, clientIds, PLAN, stored);
		process.stdout.write(
			`kill test: ${JSON.stringify({
				...summary,
				kills: killAt.map((t) => Math.round(t)),
				restartMs: restarts,
				copies: burst.copiesAnswered.length + burst.copiesFailed,
				copyAnswers: countBy(burst.copiesAnswered),
				everyWritten: { lost: written.lost, late: written.late, unknown: written.unknown },
				startingUpHealed: byStartingN8n.filter((id) => !written.missing.includes(id)).length,
				healedByLastReconciliations: stored.healed,
				healingProblems: stored.healingProblems?.slice(0, 5),
				seconds: Math.round((Date.now() - started) / 1000),
			})}\n`,
		);
		if (written.missing.length > 0)
			process.stdout.write(
				`skipped, their deliveries (ms since the burst began): ${await timelines(emulator, written.missing.slice(0, 15), started)}\n`,
			);
		if (final.missing.length > 0) {
			const first = final.missing[0].replace(/-m\d+$/, '');
			process.stdout.write(
				`transcript of ${first}: ${JSON.stringify((await transcripts(emulator, [first]))[0])}\n`,
			);
			const lines = n8n.log().split('\n');
			process.stdout.write(
				`n8n log (${options.userFolder}): ${lines
					.filter((l) => /locked|busy|Messaging Bot|SQLITE/i.test(l))
					.slice(0, 20)
					.join('\n')}\n`,
			);
			process.stdout.write(`${explain(options, final.missing.slice(0, 12))}\n`);
			for (const id of final.missing.slice(0, 5)) {
				const delivery = (
					await admin<{ attempts: unknown[] }>(emulator, 'GET', `/deliveries/${acked.get(id)}`)
				).body.data;
				process.stdout.write(
					`${id} attempts: ${JSON.stringify(delivery.attempts.map((a) => ({ ...(a as object), request: undefined })))}\n`,
				);
			}
		}
		// A reply in flight when n8n dies may be lost with it: reported unknown, never re-sent.
		expectKept(final, PLAN, KILLS * PLAN.clients);
		// The analytics counters, written with each step, tell what a calm run of those steps tells.
		const funnel = await storedFunnel(stateFile(options), started);
		expect(funnel).toEqual(await oneAtATimeFunnel(storedSteps(options).steps));
		expect(funnel[0].messages).toBe(final.applied);
		expect([written.lost, written.late]).toEqual([0, 0]);
	});
});

function stateFile(o: N8nOptions): string {
	return path.join(o.userFolder, '.n8n', 'messaging-bot', 'state.sqlite');
}

/** The conversations in the SQLite state store. */
const storedSteps = (o: N8nOptions): Stored => storedInSqlite(stateFile(o));
