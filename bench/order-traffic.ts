/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { compileScenario, type MessageReceived } from '../runtime/scenarios';

/** The throughput bench's traffic: the order-status example and 1,000 clients who keep talking. */
export const CLIENTS = 1_000;

export const order = compileScenario(
	JSON.parse(readFileSync(path.join(__dirname, '../examples/scenarios/order-status.json'), 'utf8')),
);
// A conversation that never ends: start, ask, email, then order numbers and "order" in turn.
const SCRIPT = ['hi', 'where is my order', 'ada@example.com'];
const LOOP = ['1001', 'order'];
const textAt = (i: number) =>
	i < SCRIPT.length ? SCRIPT[i] : LOOP[(i - SCRIPT.length) % LOOP.length];

/** Message n goes to client n mod CLIENTS, so every client's messages keep their order. */
export function messages(count: number, prefix: string): MessageReceived[] {
	return Array.from({ length: count }, (_, n) => ({
		message_id: `${prefix}-${n}`,
		client_id: `cl_${n % CLIENTS}`,
		bot_id: 'bot_shop',
		text: textAt(Math.floor(n / CLIENTS)),
	}));
}

export const clients = Array.from({ length: CLIENTS }, (_, i) => ({
	id: `cl_${i}`,
	first_name: `Client${i}`,
	tags: [],
	// The example looks the order up among the client's orders: 1001 is found and shipped.
	orders: [{ order_id: 'ord_1001', status: 'shipped' }],
}));
