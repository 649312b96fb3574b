import { conversationScope } from '../../runtime/scenarios/engine/scope';
import { VersionBook } from '../../runtime/scenarios/engine/versions/book';
import { compileScenario } from '../../runtime/scenarios/machine/compile';
import { openCountersReadOnly } from '../../runtime/stores/read-only';
import { SqliteStore } from '../../runtime/stores/sqlite';
import { funnelFrom, pageDir, trafficFrom } from '../../runtime/studio/server/command';
import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';
import { versionsFrom } from '../../runtime/studio/server/versions';
import { Chat } from '../scenarios/harness';
import { greetingTest } from '../scenarios/split-fixture';

/**
 * A pizza shop's two versions, as a state store keeps them: version 1 asks for the menu, version
 * 2 greets each client by a split test (short or warm, 1 to 3) whose goal is an order; and the
 * studio on such a store.
 */

const DAY = 86_400_000;

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

/** The split tests' greeting test (weights 1 and 3), whose greetings lead to the menu. */
const greeting = greetingTest({
	variants: [
		{ name: 'short', weight: 1, target: 'short' },
		{ name: 'warm', weight: 3, target: 'warm' },
	],
}) as { states: Record<string, Record<string, unknown>> };

export const SHOP_V2 = {
	...greeting,
	id: 'shop',
	version: 2,
	states: {
		...greeting.states,
		short: { ...greeting.states.short, on: answers },
		warm: { ...greeting.states.warm, on: answers },
		menu,
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

/** Versions recorded in the store as an engine given them records them, the first seen a day apart. */
export async function seenVersions(storeFile: string, documents: unknown[]): Promise<void> {
	const store = new SqliteStore(storeFile);
	try {
		for (const [i, document] of documents.entries()) {
			const compiled = compileScenario(document);
			const book = new VersionBook(store, conversationScope(compiled.id), 30 * DAY);
			await book.seen(compiled, Date.now() - (documents.length - i) * DAY);
		}
	} finally {
		await store.close();
	}
}

/** A studio on `files` with the store at `storeFile`: traffic, funnel and versions, as `--store` gives. */
export async function studioWithStore(
	storeFile: string,
	files: string[],
): Promise<RunningStudio & { close(): Promise<void> }> {
	const reader = openCountersReadOnly(storeFile);
	const versions = versionsFrom(storeFile);
	const studio = await startStudio({
		files,
		pageDir: pageDir(),
		traffic: trafficFrom(reader),
		funnel: funnelFrom(reader),
		versions,
	});
	return {
		...studio,
		close: async () => {
			await studio.close();
			await Promise.all([reader.close(), versions.close()]);
		},
	};
}
