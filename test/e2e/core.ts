/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: reads a real n8n's database and its environment, never loaded by n8n */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { RunningEmulator } from '../emulator';
import { referenceSignature } from '../helpers/deliveries';
import { admin } from '../helpers/emulator';
import { until } from './conversation';

export const SECRET = ['whsec', 'e2e', 'secret'].join('_');

export type Execution = { id: number; status: string; mode: string };

/** Executions as n8n recorded them, read from its own database (the same table in 1.x and 2.x). */
export function executions(userFolder: string, workflowId: string): Execution[] {
	// n8n 1.x writes its database without WAL: a reader meeting its write lock waits for it (up to
	// 10 s) instead of failing with 'database is locked'.
	const db = new DatabaseSync(path.join(userFolder, '.n8n', 'database.sqlite'), { readOnly: true });
	try {
		db.exec('PRAGMA busy_timeout = 10000');
		return db
			.prepare('SELECT id, status, mode FROM execution_entity WHERE workflowId = ? ORDER BY id')
			.all(workflowId) as Execution[];
	} finally {
		db.close();
	}
}

/**
 * Sends one delivery the emulator made to `url` again, five times at once, as the service's
 * redelivery does: the same delivery id, a new timestamp, a new signature. Returns n8n's answers.
 */
export async function redeliver(
	emulator: RunningEmulator,
	url: string,
	deliveryId: string,
	secret = SECRET,
): Promise<number[]> {
	const original = (
		await admin<{
			attempts: Array<{ request: { headers: Record<string, string>; body: string } }>;
		}>(emulator, 'GET', `/deliveries/${deliveryId}`)
	).body.data.attempts[0].request;
	const again = original.body.replace(
		/"timestamp":"[^"]+"/,
		`"timestamp":"${new Date().toISOString()}"`,
	);
	const headers = {
		...original.headers,
		'X-Service-Signature': referenceSignature(secret, again),
	};
	return await Promise.all(
		Array.from({ length: 5 }, () =>
			fetch(url, { method: 'POST', headers, body: again }).then((r) => r.status),
		),
	);
}

/** The emulator's subscription to `url` for `events`, saved once n8n answers its test event. */
export async function subscribe(
	emulator: RunningEmulator,
	url: string,
	events: string[],
	secret = SECRET,
): Promise<string> {
	const saved = await admin<{ test_delivery: { state: string } }>(
		emulator,
		'POST',
		'/subscriptions',
		{ url, secret, events },
	);
	return saved.body.data.test_delivery.state;
}

/** Stops n8n and the emulator; the user folder goes too, unless MB_KEEP keeps it to look at. */
export async function stopAll(
	n8n: { stop(): Promise<void> } | undefined,
	emulator: RunningEmulator | undefined,
	userFolder: string | undefined,
): Promise<void> {
	await n8n?.stop();
	await emulator?.close();
	if (userFolder && !process.env.MB_KEEP) rmSync(userFolder, { recursive: true, force: true });
}

/** An order for `clientId` arrives (signed delivery from the emulator); resolves with its tags. */
export async function tagsAfterOrder(
	emulator: RunningEmulator,
	clientId: string,
	orderId: string,
): Promise<string[]> {
	await admin(emulator, 'POST', '/events', {
		event: 'order.created',
		data: { client_id: clientId, order_id: orderId, total: 42 },
	});
	await admin(emulator, 'POST', '/settle');
	return await until(
		async () =>
			(await admin<{ tags: string[] }>(emulator, 'GET', `/clients/${clientId}`)).body.data.tags,
		(t) => t.includes('customer'),
	);
}

/** The workflow's executions once none is running or waiting to start. */
export async function settledExecutions(userFolder: string, workflowId: string) {
	return await until(
		() => executions(userFolder, workflowId),
		(r) => r.length >= 1 && r.every((e) => e.status !== 'running' && e.status !== 'new'),
	);
}
