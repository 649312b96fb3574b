/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync } from 'node:fs';
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
import { sleep } from './burst-verdict';
import { SECRET, stopAll, subscribe } from './core';
import { makeClients, play, post, repliesDue, ROLES, type OrderClient } from './order-clients';
import { botWorkflow, readReport, reportWorkflow } from './order-split-workflows';
import { busy, near, stateFigures, summaryOf, variantFigures } from './report-figures';
import { splitReference } from './split-reference';
import { tallyOf, transcriptsOf, type Message, type StateFigures } from './transcript-tally';

jest.setTimeout(600_000);

/** Get Analytics' Quiet Time: a client whose last message's minute is over counts as dropped. */
const QUIET_HOURS = 0;
const MINUTE = 60_000;
/** n8n is killed this long (at most, at random) after the clients' next messages are written. */
const KILL_WITHIN_MS = 300;

// A real n8n 2.41 (regular mode, SQLite), the Messaging Bot Trigger and the emulator: 24 clients
// of the order-status bot with a split step in front of its email question reach `lookup`, loop,
// hand off, finish and go quiet; n8n is killed with SIGKILL while their next messages arrive,
// and started again. Get Analytics, run through n8n, must equal a tally of the transcripts the
// service holds, state by state, and each variant's figures a reference computed apart.
describe('analytics and a split test through a SIGKILL', () => {
	let emulator: RunningEmulator;
	let n8n: RunningN8n;
	let options: N8nOptions;
	let url: string;
	let clients: OrderClient[];

	beforeAll(async () => {
		emulator = await startEmulator({ rateLimit: 100_000 });
		// A delivery refused while n8n is down comes back within 5 s of its restart (up to 40 s).
		await admin(emulator, 'POST', '/config', {
			retry_delays_ms: [1000, 2000, 3000, 4000, 5000, 5000, 5000, 5000, 10_000, 60_000],
		});
		clients = await makeClients(emulator);
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-analytics-kill-')),
			port: await freePort(),
			brokerPort: await freePort(),
			env: RESTARTABLE_ENV,
		};
		const api = { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, rateLimit: 100_000 };
		prepareN8n(options, api, SECRET, [botWorkflow(), reportWorkflow(QUIET_HOURS)]);
		n8n = await startN8n(options);
		url = productionUrl(n8n.url, botWorkflow());
		await waitForWebhook(url);
		expect(await subscribe(emulator, url, ['message.received'])).toBe('delivered');
	}, 600_000);

	afterAll(async () => await stopAll(n8n, emulator, options?.userFolder));

	/**
	 * The clients talk, n8n is killed while their next messages arrive and started again, they
	 * talk on; the last messages come in one minute with the reading of Get Analytics.
	 */
	async function talkThroughKill() {
		const took: Record<string, number> = {};
		const mark = (phase: string, since: number) => (took[phase] = Date.now() - since);
		const started = Date.now();
		await play(emulator, clients, (c) => c.phases.before);
		mark('before', started);
		const settled = clients.filter((c) => c.phases.after.length + c.phases.last.length === 0);
		const quietSince = await lastReplyAt(emulator, settled);

		// Every client with more to say writes at once; n8n dies while those messages arrive.
		const going = clients.filter((c) => c.phases.after.length > 0);
		const writing = Date.now();
		const inFlight = await Promise.all(going.map((c) => post(emulator, c, c.phases.after[0])));
		await sleep(Math.random() * KILL_WITHIN_MS);
		const killAt = Date.now();
		await n8n.kill();
		n8n = await restartN8n(options);
		await waitForWebhook(url);
		mark('restart', killAt);
		await Promise.all(inFlight.map(async (wait) => await wait()));
		await play(emulator, going, (c) => c.phases.after.slice(1));
		mark('after', writing);

		const waiting = Date.now();
		await nextMinuteIfNeeded(quietSince);
		mark('wait', waiting);
		await play(emulator, clients, (c) => c.phases.last);
		const report = await readReport(n8n.url);
		const inFlightAnswered = await inFlightAnswers(emulator, writing, killAt);
		return { took, killedAfterMs: killAt - writing, inFlight: inFlightAnswered, report };
	}

	it('Get Analytics equals the transcripts, state by state and variant by variant', async () => {
		const started = Date.now();
		const { report, ...run } = await talkThroughKill();
		const transcripts = await transcriptsOf(
			emulator,
			clients.map((c) => c.id),
		);
		const tally = tallyOf(transcripts, { ...report, quietMs: QUIET_HOURS * 3_600_000 });
		const variants = variantFigures(report.items);
		process.stdout.write(
			`analytics kill test: ${JSON.stringify({
				seconds: Math.round((Date.now() - started) / 1000),
				...run,
				states: compact(stateFigures(report.items)),
				summary: summaryOf(report.items),
				variants: variants.map((v) => [
					v.variant,
					v.clients,
					v.goalReached,
					Number(v.probabilityBest.toFixed(3)),
				]),
				verdict: variants[0]?.verdict,
			})}\n`,
		);
		expectEachReplyOnce(clients, transcripts);

		// (a) The funnel, state by state, and the summary; the run must meet every bucket.
		expect(stateFigures(report.items)).toEqual(busy(tally.states));
		expect(summaryOf(report.items)).toEqual(tally.summary);
		const { completed, handoffs, dropped, inProgress } = tally.summary;
		for (const [bucket, n] of Object.entries({ completed, handoffs, dropped, inProgress }))
			expect([bucket, n > 0]).toEqual([bucket, true]);
		expect(tally.states.lookup.reached).toBeLessThan(tally.states.lookup.visits);

		// (b) The split: each client always shown one variant, those back at it after the kill too;
		// each variant's clients and goals as the transcripts tell, its verdict as the reference.
		const shown = [...tally.shown.values()].filter((v) => v.passes > 0);
		expect(shown.filter((v) => v.variants.size !== 1)).toEqual([]);
		expect(shown.filter((v) => v.passes > 1).length).toBe(ROLES.finisher + ROLES.backToMenu);
		const reference = splitReference(tally.variants);
		expect(variants).toEqual(reference.map((r, i) => near(variants[i] ?? {}, r)));
	});
});

/** None lost, none answered twice: each client had exactly the replies its steps get. */
function expectEachReplyOnce(clients: OrderClient[], transcripts: Map<string, Message[]>): void {
	for (const c of clients) {
		const replies = transcripts.get(c.id)?.filter((m) => m.direction === 'outbound').length;
		expect([c.id, replies]).toEqual([c.id, repliesDue(c)]);
	}
}

/** When the last of `clients` was last answered. */
async function lastReplyAt(
	emulator: RunningEmulator,
	clients: readonly OrderClient[],
): Promise<number> {
	const all = await transcriptsOf(
		emulator,
		clients.map((c) => c.id),
	);
	const times = [...all.values()].flatMap((t) => t.map((m) => Date.parse(m.timestamp)));
	return Math.max(...times);
}

/**
 * Waits until the quiet clients' last minute is over, and until a minute with 20 s to run is
 * under way: the last messages and the reading then fall in one minute.
 */
async function nextMinuteIfNeeded(quietSince: number): Promise<void> {
	const over = (Math.floor(quietSince / MINUTE) + 1) * MINUTE;
	if (Date.now() < over + 1500) await sleep(over + 1500 - Date.now());
	const left = MINUTE - (Date.now() % MINUTE);
	if (left < 20_000) await sleep(left + 1500);
}

/** Reached and visits per state, for the one-line summary. */
function compact(states: Record<string, StateFigures>): Record<string, [number, number]> {
	return Object.fromEntries(Object.entries(states).map(([k, f]) => [k, [f.reached, f.visits]]));
}

type DeliveryView = {
	data: { timestamp: string };
	attempts?: Array<{ kind: string; status_code: number | null; at?: string }>;
};

/** How the service's attempts at the messages written as n8n died were answered, by kind. */
async function inFlightAnswers(
	emulator: RunningEmulator,
	since: number,
	killed: number,
): Promise<Record<string, number>> {
	const list = (
		await admin<Array<DeliveryView & { id: string }>>(
			emulator,
			'GET',
			'/deliveries?event=message.received',
		)
	).body.data;
	const answers: Record<string, number> = {};
	for (const { id, data } of list) {
		const at = Date.parse(data.timestamp);
		if (at < since || at > killed) continue;
		const d = (await admin<DeliveryView>(emulator, 'GET', `/deliveries/${id}`)).body.data;
		const key = (d.attempts ?? []).map((a) => `${a.kind} ${a.status_code ?? 'error'}`).join(', ');
		answers[key] = (answers[key] ?? 0) + 1;
	}
	return answers;
}
