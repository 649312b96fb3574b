import type { RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';

/**
 * Ada's conversation with the order-status example (examples/scenarios/order-status.json), as
 * the end-to-end tests hold it through a real n8n: what she writes and what the bot answers.
 */

/** What the client writes, and the bot's replies to it, in order. */
export type Step = readonly [text: string, replies: readonly string[]];

export const ADA = {
	hi: ['hi', ['Hi Ada! I can tell you where your order is. Type "order" to start.']],
	asks: ['where is my order?', ['What email address did you use for the order?']],
	notAnEmail: [
		'not an email',
		['That does not look like an email address. Please type it like name@example.com.'],
	],
	email: [
		'ada@example.com',
		['Thanks! And the order number? It is in the confirmation we sent to ada@example.com.'],
	],
	number: [
		'1001',
		[
			'Order 1001 has shipped. Tracking details are on their way to ada@example.com.',
			'Anything else? Type "order" for another order, or "no" to finish.',
		],
	],
} satisfies Record<string, Step>;

/** Ada's order 1001 ships: the dashboard's event changes the client's record the scenario reads. */
export async function shipAdasOrder(emulator: RunningEmulator): Promise<void> {
	await admin(emulator, 'POST', '/events', {
		event: 'order.updated',
		data: { client_id: 'cl_ada', order_id: 'ord_1001', status: 'shipped' },
	});
}

/** Writes each step's text and expects its replies, naming the step when they differ. */
export async function play(
	write: (text: string, replies: number) => Promise<string[]>,
	...steps: Step[]
): Promise<void> {
	for (const [text, replies] of steps)
		expect([text, await write(text, replies.length)]).toEqual([text, replies]);
}
