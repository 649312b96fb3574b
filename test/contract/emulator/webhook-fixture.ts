/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: polls with setTimeout, never loaded by n8n */
/** What the webhook contract tests share: the spec's headers, subscribing, and a receiver per test. */
import type { RunningEmulator } from '../../emulator';
import type { Delivery } from '../../emulator/webhooks';
import { admin, useEmulator } from '../../helpers/emulator';
import { Receiver, type Received } from '../../helpers/receiver';

import { ISO_UTC } from './event-shapes';

export { ISO_UTC };
export const SPEC_HEADERS = [
	'content-type',
	'user-agent',
	'x-service-delivery-id',
	'x-service-event',
	'x-service-signature',
];
/** Headers the HTTP transport adds on its own; everything else must be the spec's. */
export const TRANSPORT_HEADERS = [
	'host',
	'connection',
	'content-length',
	'transfer-encoding',
	'keep-alive',
];
export const RETRY_DELAYS_MS = [60_000, 300_000, 900_000];
/**
 * An emulator for receivers that answer at once: a delivery timeout of seconds, so a loaded
 * machine's slow answer is not read as a timeout (the timeout cases set their own, short one).
 */
export const usePromptEmulator = () => useEmulator({ deliveryTimeoutMs: 5_000 });
export const SECRET = 'whsec_contract-test';

export type SubscriptionView = {
	id: string;
	url: string;
	events: string[];
	active: boolean;
	has_secret: boolean;
	created_at: string;
	updated_at: string;
};
export type Saved = { subscription: SubscriptionView; test_delivery: Delivery };
export type Body = {
	event: string;
	data: Record<string, unknown>;
	webhook_id: string;
	timestamp: string;
};

export const bodyOf = (r: Received): Body => JSON.parse(r.raw.toString('utf8')) as Body;
export const header = (r: Received, name: string) => r.headers[name];

export async function subscribe(e: RunningEmulator, body: Record<string, unknown>): Promise<Saved> {
	const r = await admin<Saved>(e, 'POST', '/subscriptions', body);
	expect(r.status).toBe(201);
	return r.body.data;
}

export async function inbound(e: RunningEmulator, text = 'hi'): Promise<string[]> {
	const r = await admin<{ delivery_ids: string[] }>(e, 'POST', '/inbound', {
		bot_id: 'bot_shop',
		client_id: 'cl_ada',
		text,
	});
	expect(r.status).toBe(201);
	return r.body.data.delivery_ids;
}

export async function delivery(e: RunningEmulator, id: string): Promise<Delivery> {
	const r = await admin<Delivery>(e, 'GET', `/deliveries/${id}`);
	expect(r.status).toBe(200);
	return r.body.data;
}

export async function settle(e: RunningEmulator): Promise<void> {
	expect((await admin(e, 'POST', '/settle')).status).toBe(200);
}

export async function advance(e: RunningEmulator, ms: number): Promise<void> {
	expect((await admin(e, 'POST', '/clock/advance', { ms })).status).toBe(200);
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One receiver per test, and an emulator without subscriptions or deliveries. */
export function useReceiver(emulator: () => RunningEmulator): () => Receiver {
	let receiver: Receiver | undefined;
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		receiver = await new Receiver().start();
	});
	afterEach(async () => {
		await receiver?.stop();
	});
	return () => {
		if (!receiver) throw new Error('receiver not started');
		return receiver;
	};
}
