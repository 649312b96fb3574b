/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { prepareN8n, productionUrl } from '../../scripts/lib/demo-setup';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { busiestWindow } from '../helpers/busiest-window';
import {
	isTagUpdate,
	jobWorkflow,
	type LoggedRequest,
	optimumMs,
	requestLog,
	spanOf,
	startJob,
	PACE_BOUND,
} from './budget';
import { burstWorkflow, sleep } from './burst';
import { until } from './conversation';

jest.setTimeout(600_000);

const SECRET = ['whsec', 'budget', 'test'].join('_');
// The service's limit scaled down: 40 requests per 4 s, one slot every 100 ms on average.
const LIMIT = 40;
const WINDOW_MS = 10_000;
const SLOT_MS = WINDOW_MS / LIMIT;

type Sent = { client_id: string; text: string; timestamp: string };

// One n8n (regular mode) with a marketer's jobs and a bot on one API key: every node and every
// execution draws on the key's one budget, and the bot's replies go before the jobs.
describe('one request budget per key in a real n8n', () => {
	let emulator: RunningEmulator;
	let n8n: RunningN8n;
	let options: N8nOptions;

	beforeAll(async () => {
		emulator = await startEmulator({ rateLimit: LIMIT, rateWindowMs: WINDOW_MS });
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-budget-')),
			port: await freePort(),
			brokerPort: await freePort(),
		};
		const bot = burstWorkflow();
		prepareN8n(
			options,
			{
				baseUrl: emulator.baseUrl,
				apiKey: emulator.apiKey,
				rateLimit: LIMIT,
				rateWindowSeconds: WINDOW_MS / 1000,
			},
			SECRET,
			[bot, jobWorkflow('send'), jobWorkflow('tags')],
		);
		n8n = await startN8n(options);
		const url = productionUrl(n8n.url, bot);
		await waitForWebhook(url);
		await admin(emulator, 'POST', '/subscriptions', {
			url,
			secret: SECRET,
			events: ['message.received'],
		});
	}, 600_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (options) rmSync(options.userFolder, { recursive: true, force: true });
	});

	/** A client writes; resolves with how long the bot took to answer, on the service's clock. */
	async function replyLatency(clientId: string, text: string): Promise<number> {
		const { body } = await admin<{ message: { timestamp: string } }>(emulator, 'POST', '/inbound', {
			bot_id: 'bot_shop',
			client_id: clientId,
			text,
		});
		const wrote = Date.parse(body.data.message.timestamp);
		const replies = await until(
			async () =>
				(await admin<Sent[]>(emulator, 'GET', `/sent-messages?client_id=${clientId}`)).body.data,
			(sent) => sent.some((m) => m.text.endsWith(`got ${text}`)),
			120_000,
		);
		const reply = replies.find((m) => m.text.endsWith(`got ${text}`)) as Sent;
		return Date.parse(reply.timestamp) - wrote;
	}

	it('keeps 150 sends and a running conversation within the limit: no 429', async () => {
		const before = (await requestLog(emulator)).length;
		const items = Array.from({ length: 150 }, (_, i) => ({ client: 'cl_ada', text: `news ${i}` }));
		await startJob(n8n.url, 'send', items);
		// The conversation runs while the job does: one message every second.
		for (let i = 0; i < 5; i++) {
			await admin(emulator, 'POST', '/inbound', {
				bot_id: 'bot_shop',
				client_id: 'cl_grace',
				text: `m${i}`,
			});
			await sleep(1_000);
		}
		// Waits for the sends themselves: the bot may also read a client's history (a newcomer in
		// n8n's first seconds), a request of the same budget that is not a send.
		const sentOf = (log: LoggedRequest[]) =>
			log.filter((r) => r.method === 'POST' && r.path.endsWith('/messages') && r.status === 200);
		const done = await until(
			() => requestLog(emulator),
			(log) => sentOf(log.slice(before)).length >= 155,
			120_000,
		);
		const log = done.slice(before);
		const others = log
			.filter((r) => !sentOf([r]).length)
			.map((r) => `${r.method} ${r.path} ${r.status}`);
		process.stdout.write(
			`150 sends + 5 replies: ${log.length} requests (besides the sends: ${others.join(', ') || 'none'}), busiest ${WINDOW_MS} ms window ${busiestWindow(log, WINDOW_MS)} (limit ${LIMIT}), 429s ${log.filter((r) => r.status === 429).length}\n`,
		);
		expect(sentOf(log)).toHaveLength(155);
		expect(log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(busiestWindow(log, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
	});

	it('answers a client within two free slots while a job of 300 tag updates runs, and the job keeps its pace', async () => {
		// The bot's answer time with nothing else on the key.
		await sleep(WINDOW_MS + 500);
		const idle = await replyLatency('cl_alan', 'idle');
		const { body } = await admin<{ ids: string[] }>(emulator, 'POST', '/clients', { count: 300 });
		const before = (await requestLog(emulator)).length;
		await startJob(
			n8n.url,
			'tags',
			body.data.ids.map((client) => ({ client })),
		);
		// Well into the job: its first window is spent and the rest waits.
		await sleep(WINDOW_MS * 1.5);
		const busy = await replyLatency('cl_alan', 'busy');
		const done = await until(
			() => requestLog(emulator),
			(log) => log.slice(before).filter(isTagUpdate).length >= 300,
			180_000,
		);
		const log = done.slice(before);
		const jobMs = spanOf(log, isTagUpdate);
		const optimum = optimumMs(300, LIMIT, WINDOW_MS);
		process.stdout.write(
			`reply latency: idle ${idle} ms, during the job ${busy} ms (one slot: ${SLOT_MS} ms); job: ${jobMs} ms, optimum ${optimum} ms, ratio ${(jobMs / optimum).toFixed(3)}; 429s ${log.filter((r) => r.status === 429).length}\n`,
		);
		expect(busy).toBeLessThanOrEqual(idle + 2 * SLOT_MS + 250);
		expect(jobMs / optimum).toBeLessThanOrEqual(PACE_BOUND);
		expect(log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(busiestWindow(log, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
	});
});
