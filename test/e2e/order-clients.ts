import type { RunningEmulator } from '../emulator';
import { admin, sentTexts } from '../helpers/emulator';
import { until } from './conversation';

/**
 * The clients of the split order-status bot (order-split.ts) in an end-to-end run, each in a role
 * that ends its conversations one way: finished, handed off, dropped, still in progress. Each
 * client writes its steps in three phases: before n8n is killed, after (its first message of
 * that phase is the one in flight at the kill), and last, just before the analytics are read.
 * The replies to the messages in flight at the kill are ones the client has not had before: a
 * reply whose sending the kill left in doubt is looked for in the client's history, and an
 * identical earlier one would be taken for it (never sent twice, so never sent).
 */

/** A message and how many replies it gets. */
export type Step = readonly [text: string, replies: number];

type Phases = { before: Step[]; after: Step[]; last: Step[] };

/** A client's two orders: the first shipped, the second paid. */
const shipped = (i: number) => String(1000 + i);
const paid = (i: number) => String(5000 + i);

const HI: Step = ['hi', 1];
const ORDER: Step = ['where is my order?', 1];
const email = (i: number): Step => [`client${i}@example.test`, 1];
const number = (n: string): Step => [n, 2];

/** How many clients take each role: 24 in all. */
export const ROLES = {
	/** Asked for the email, then silent: dropped where the split sent them. */
	quiet: 3,
	/** Not understood at the welcome, then silent: dropped there. */
	puzzled: 2,
	/** Finish as n8n dies, then start again: through the split a second time, and finish. */
	finisher: 4,
	/** Loop status → ask_number → lookup → status twice, then finish. */
	looper: 4,
	/** Ask for a person by keyword after the kill: handed off. */
	asksPerson: 2,
	/** Three emails the bot cannot read: handed off by the capture's give-up. */
	givesUp: 2,
	/** An order that is not theirs, then (last) the right one: in progress. */
	mistaken: 2,
	/** Back to the menu by keyword after the kill, through the split again: in progress. */
	backToMenu: 3,
	/** "stop" at the welcome: completed by the keyword. */
	stopper: 2,
} as const;

type Role = keyof typeof ROLES;

function phasesOf(role: Role, i: number): Phases {
	const none: Step[] = [];
	switch (role) {
		case 'quiet':
			return { before: [HI, ORDER], after: none, last: none };
		case 'puzzled':
			return { before: [HI, ['what can you do?', 1]], after: none, last: none };
		case 'finisher':
			return {
				before: [HI, ORDER, email(i), number(shipped(i))],
				after: [
					['no', 1],
					HI,
					['order status please', 1],
					email(i),
					number(paid(i)),
					['thanks', 1],
				],
				last: none,
			};
		case 'looper':
			return {
				before: [HI, ORDER, email(i)],
				after: [
					number(shipped(i)),
					['order', 1],
					number(paid(i)),
					['another order', 1],
					number(shipped(i)),
					['no', 1],
				],
				last: none,
			};
		case 'asksPerson':
			return { before: [HI, ORDER, email(i)], after: [['can I talk to a person', 1]], last: none };
		case 'givesUp':
			return {
				before: [HI, ORDER, ['nope', 1], ['still nope', 1]],
				after: [['no idea', 2]],
				last: none,
			};
		case 'mistaken':
			return {
				before: [HI, ORDER, email(i), number('9999')],
				after: none,
				last: [number(shipped(i))],
			};
		case 'backToMenu':
			return {
				before: [HI, ORDER, email(i)],
				after: [number(shipped(i)), ['menu', 1], ['track my order', 1], email(i)],
				last: [number(paid(i))],
			};
		case 'stopper':
			return { before: [HI, ['stop', 1]], after: none, last: none };
	}
}

export type OrderClient = { id: string; index: number; role: Role; phases: Phases };

/**
 * Makes the clients in the emulator, each with its two orders, and gives each its role. The
 * client numbered i is `client<i>@example.test` (the emulator's own numbering).
 */
export async function makeClients(emulator: RunningEmulator): Promise<OrderClient[]> {
	const count = Object.values(ROLES).reduce((a, b) => a + b, 0);
	const made = await admin<{ ids: string[] }>(emulator, 'POST', '/clients', { count });
	const roles = (Object.entries(ROLES) as Array<[Role, number]>).flatMap(([role, n]) =>
		Array.from({ length: n }, () => role),
	);
	const clients: OrderClient[] = [];
	for (const [k, id] of made.body.data.ids.entries()) {
		const { body } = await admin<{ email: string }>(emulator, 'GET', `/clients/${id}`);
		const index = Number(/^client(\d+)@/.exec(body.data.email)?.[1]);
		for (const [orderId, status] of [
			[`ord_${shipped(index)}`, 'shipped'],
			[`ord_${paid(index)}`, 'paid'],
		])
			await admin(emulator, 'POST', '/events', {
				event: 'order.updated',
				data: { client_id: id, order_id: orderId, status },
			});
		clients.push({ id, index, role: roles[k], phases: phasesOf(roles[k], index) });
	}
	return clients;
}

/** The replies a step must get within: a kill, n8n's restart and the service's retries. */
const REPLY_WAIT_MS = 120_000;

/** The client writes a step; resolves, once written, to a wait for its replies. */
export async function post(
	emulator: RunningEmulator,
	client: OrderClient,
	[text, replies]: Step,
): Promise<() => Promise<void>> {
	const count = async () => (await sentTexts(emulator, client.id)).length;
	const wanted = (await count()) + replies;
	await admin(emulator, 'POST', '/inbound', { bot_id: 'bot_shop', client_id: client.id, text });
	return async () => {
		const got = await until(count, (n) => n >= wanted, REPLY_WAIT_MS);
		if (got < wanted)
			throw new Error(
				`${client.id} (${client.role}) got ${got} replies of ${wanted} after "${text}"`,
			);
	};
}

/** Each client writes its steps in turn, each after the replies to the last; clients at once. */
export async function play(
	emulator: RunningEmulator,
	clients: readonly OrderClient[],
	steps: (c: OrderClient) => readonly Step[],
): Promise<void> {
	await Promise.all(
		clients.map(async (c) => {
			for (const step of steps(c)) await (await post(emulator, c, step))();
		}),
	);
}

/** Every reply each client must have had, once: no step answered twice, none lost. */
export function repliesDue(client: OrderClient): number {
	const { before, after, last } = client.phases;
	return [...before, ...after, ...last].reduce((n, [, replies]) => n + replies, 0);
}
