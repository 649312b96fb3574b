/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: a separate process sending deliveries on a timer, never loaded by n8n */
import { Agent, request } from 'undici';

import { signedDelivery } from '../../helpers/deliveries';

/**
 * A steady stream of signed deliveries from a process of its own, as the service sends them while
 * someone attacks the door: `rate` per second to `url`, each timed. On SIGTERM it prints one JSON
 * line: how many were sent, answered 200, and their latencies.
 * Usage: steady-sender.ts <url> <secret> <tag> [rate]
 */
const [url, secret, tag, rate = '5'] = process.argv.slice(2);
const agent = new Agent({ connections: 20 });
/** Headers every delivery also carries (n8n's Webhook node's Header Auth, for the baseline). */
const extraHeaders = JSON.parse(process.env.STEADY_HEADERS ?? '{}') as Record<string, string>;
const latencies: number[] = [];
const statuses: Record<string, number> = {};
let sent = 0;
const pending = new Set<Promise<void>>();

async function sendOne(i: number): Promise<void> {
	const id = `steady_${tag}_${i}`;
	const { body, headers } = signedDelivery(
		secret,
		'order.created',
		{ client_id: 'cl_steady', order_id: `ord_${i}`, delivery_id: id },
		id,
		'wh_steady',
	);
	const started = performance.now();
	const status = await request(url, {
		method: 'POST',
		headers: { ...headers, ...extraHeaders },
		body,
		dispatcher: agent,
		headersTimeout: 10_000,
		bodyTimeout: 10_000,
	}).then(
		async (res) => {
			await res.body.dump();
			return String(res.statusCode);
		},
		(error: Error) => error.name,
	);
	latencies.push(performance.now() - started);
	statuses[status] = (statuses[status] ?? 0) + 1;
}

const timer = setInterval(
	() => {
		const p = sendOne(sent++);
		pending.add(p);
		void p.finally(() => pending.delete(p));
	},
	1000 / Number(rate),
);
process.stdout.write('ready\n');

process.once('SIGTERM', () => {
	clearInterval(timer);
	void Promise.allSettled([...pending]).then(async () => {
		process.stdout.write(`${JSON.stringify({ sent, statuses, latencies })}\n`);
		await agent.close();
		process.exit(0);
	});
});
