/** What the scenario format tests share: a menu to match in, answers, and a chat on a store. */
import { Chat, scenario, type Backend } from './harness';

/** A menu state whose transitions each answer with the matcher's name. */
export const menu = (on: unknown[], extra: Record<string, unknown> = {}) =>
	scenario(
		{
			start: { messages: ['Welcome'], on: [{ match: { any: true }, target: 'menu' }] },
			menu: { messages: ['Menu'], on, fallback: 'No match' },
		},
		extra,
	);
export const answer = (match: unknown, text: string, more: Record<string, unknown> = {}) => ({
	match,
	actions: [{ reply: text }],
	...more,
});

/** Starts a conversation and walks into the menu. */
export async function inMenu(chat: Chat, client = 'cl_ada'): Promise<void> {
	await chat.say('hello', client);
	await chat.say('go', client);
}

/** Opens a chat on the given scenarios, with the store of `backend`. */
export const opener =
	(backend: Backend) => (docs: unknown[], clients?: ConstructorParameters<typeof Chat>[1]) => {
		return new Chat(docs, { ...clients, openStore: backend.open });
	};
