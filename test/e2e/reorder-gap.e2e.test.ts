/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: runs a real n8n, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { replyWorkflows } from '../../bench/reply-workflows';
import { prepareN8n } from '../../scripts/lib/demo-setup';
import {
	freePort,
	startN8n,
	waitForWebhook,
	type N8nOptions,
	type RunningN8n,
} from '../../scripts/lib/n8n-process';
import { startEmulator, type RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { until } from './conversation';

jest.setTimeout(900_000);

const SECRET = ['whsec', 'gap'].join('_');
const CLIENTS = 100;
/** The gaps (ms) between a client's two messages, each round a burst of 100 clients at once. */
const GAPS = (process.env.MB_GAPS ?? '0,20,50,100,200,500,1000').split(',').map(Number);
const BOT = 'bot_gap';

/**
 * The Scenario node's default reorder (only while needed, at most 1 s) under a 100-wide burst: 100
 * clients each write two messages `gap` ms apart, all at once, to the Own Port Trigger, which
 * answers them all in time (through n8n's webhook URL most of a 100-wide burst is answered after
 * the service's 5 s, and its retry a minute later is late whatever the window). Prints, per gap,
 * how many clients were answered in the order they wrote, and the shortest gap from which every
 * client was.
 */
describe('client order under a 100-wide burst, by the gap between two messages of one client', () => {
	let emulator: RunningEmulator;
	let n8n: RunningN8n;
	let options: N8nOptions;
	let clients: string[];

	beforeAll(async () => {
		emulator = await startEmulator({ rateLimit: 1_000_000 });
		options = {
			userFolder: mkdtempSync(path.join(tmpdir(), 'mb-gap-')),
			port: await freePort(),
			brokerPort: await freePort(),
		};
		const api = { baseUrl: emulator.baseUrl, apiKey: emulator.apiKey };
		const ownPort = await freePort();
		const ownPortBot = replyWorkflows(ownPort, api)[1];
		prepareN8n(options, { ...api, rateLimit: 1_000_000 }, SECRET, [ownPortBot]);
		n8n = await startN8n(options);
		const url = `http://127.0.0.1:${ownPort}/messaging-bot`;
		await waitForWebhook(url);
		await admin(emulator, 'POST', '/bots', { id: BOT, name: 'Gap bot' });
		clients = (await admin<{ ids: string[] }>(emulator, 'POST', '/clients', { count: CLIENTS }))
			.body.data.ids;
		await admin(emulator, 'POST', '/subscriptions', {
			url,
			secret: SECRET,
			events: ['message.received'],
		});
		// Every conversation started (its greeting), so each later message gets one reply.
		await Promise.all(clients.map((c) => write(c, 'hi')));
		await until(replies, (r) => r.length >= CLIENTS, 120_000);
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await emulator?.close();
		if (options) rmSync(options.userFolder, { recursive: true, force: true });
	});

	const write = async (client: string, text: string) =>
		await admin(emulator, 'POST', '/inbound', { bot_id: BOT, client_id: client, text });
	const replies = () => emulator.core.sent.filter((m) => m.bot_id === BOT);

	async function round(gap: number) {
		const before = replies().length;
		await Promise.all(clients.map((c) => write(c, `first ${gap} ${c}`)));
		await sleep(gap);
		await Promise.all(clients.map((c) => write(c, `second ${gap} ${c}`)));
		// A message applied after a later one is late and, by default, answered with nothing.
		await until(replies, (r) => r.length >= before + 2 * CLIENTS, 60_000);
		await sleep(3000);
		const texts = replies()
			.slice(before)
			.map((m) => m.text);
		const inOrder = clients.filter((c) => {
			const first = texts.indexOf(`You said first ${gap} ${c}`);
			const second = texts.indexOf(`You said second ${gap} ${c}`);
			return first !== -1 && second !== -1 && first < second;
		}).length;
		const twice = texts.length - new Set(texts).size;
		const retried = [...emulator.core.dispatcher.deliveries.values()].filter(
			(d) => d.attempts.length > 1,
		).length;
		return { gap, inOrder, replies: texts.length, twice, retried };
	}

	it('prints the shortest gap that keeps every client in order; none answered twice', async () => {
		const rounds = [];
		for (const gap of GAPS) {
			rounds.push(await round(gap));
			await sleep(2000);
		}
		const kept = [...rounds].reverse().findIndex((r) => r.inOrder < CLIENTS);
		const shortest = kept === -1 ? rounds[0].gap : rounds[rounds.length - kept]?.gap;
		process.stdout.write(
			`${rounds.map((r) => `gap ${r.gap} ms: ${r.inOrder}/${CLIENTS} clients in order, ${r.replies} replies, ${r.twice} twice, deliveries retried so far ${r.retried}`).join('\n')}\n` +
				`shortest gap keeping all ${CLIENTS} clients in order: ${shortest === undefined ? 'none tested' : `${shortest} ms`}\n`,
		);
		expect(rounds.every((r) => r.twice === 0)).toBe(true);
		// Messages written a whole window apart are in order whatever the burst.
		expect(rounds[rounds.length - 1].inOrder).toBe(CLIENTS);
	});
});
