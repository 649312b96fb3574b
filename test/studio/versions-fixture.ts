/* eslint-disable @n8n/community-nodes/no-restricted-imports -- studio test tooling, never loaded by n8n */
import { conversationScope } from '../../runtime/scenarios/engine/scope';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { Chat } from '../scenarios/harness';

/**
 * A pizza shop's two versions, as a state store keeps them: version 1 asks for the menu, version
 * 2 greets each client by a split test (short or warm, 1 to 3) whose goal is an order.
 */

const menu = {
	messages: ['Pizza or pasta? Say yes to order.'],
	on: [
		{ match: { equals: 'yes' }, target: 'ordered' },
		{ match: { any: true }, target: 'menu' },
	],
};
const ordered = { messages: ['Ordered.'], end: true };

export const SHOP_V1 = {
	id: 'shop',
	version: 1,
	start: 'welcome',
	states: {
		welcome: {
			messages: ['Hello! Say menu.'],
			on: [
				{ match: { equals: 'menu' }, target: 'menu' },
				{ match: { any: true }, target: 'welcome' },
			],
		},
		menu,
		ordered,
	},
};

const answers = [
	{ match: { equals: 'yes' }, target: 'ordered' },
	{ match: { any: true }, target: 'menu' },
];

export const SHOP_V2 = {
	id: 'shop',
	version: 2,
	start: 'hello',
	states: {
		hello: {
			split: {
				name: 'greeting',
				variants: [
					{ name: 'short', weight: 1, target: 'short' },
					{ name: 'warm', weight: 3, target: 'warm' },
				],
				goal: { state: 'ordered' },
			},
		},
		short: { messages: ['Hi. Order?'], on: answers },
		warm: { messages: ['Welcome, lovely to see you! Shall I take your order?'], on: answers },
		menu,
		ordered,
	},
};

/** The clients' lines, said in turn a minute apart from `at` on `version`'s engine (the Scenario node's scope). */
export async function talk(
	storeFile: string,
	document: unknown,
	at: number,
	talks: Record<string, string[]>,
): Promise<Record<string, string[]>> {
	const id = (document as { id: string }).id;
	const chat = new Chat([document], {
		openStore: (now) => new SqliteStore(storeFile, now),
		engine: { scope: conversationScope(id) },
	});
	chat.time = at;
	const heard: Record<string, string[]> = {};
	for (const [client, lines] of Object.entries(talks))
		for (const line of lines) {
			heard[client] = [...(heard[client] ?? []), ...(await chat.say(line, client))];
			chat.time += 60_000;
		}
	await chat.store.close();
	return heard;
}
