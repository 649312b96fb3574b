/**
 * The scenario being edited, as plain JSON: it may be half-written and invalid at any moment, so
 * every reader here checks shapes instead of trusting a type.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Draft = JsonObject;

export const isObject = (value: unknown): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

export const asObject = (value: unknown): JsonObject => (isObject(value) ? value : {});

export function states(draft: Draft): JsonObject {
	return asObject(draft.states);
}

export function stateNames(draft: Draft): string[] {
	return Object.keys(states(draft));
}

/** A deep copy to change: drafts in the undo history are never changed in place. */
export function clone<T extends Json>(value: T): T {
	return structuredClone(value);
}

/** The state a validation path points into (`states.menu.on[0].target` → `menu`). */
export function stateOfPath(path: string): string | undefined {
	if (!path.startsWith('states.')) return undefined;
	const rest = path.slice('states.'.length);
	if (rest.startsWith('"')) {
		const end = /^"(?:[^"\\]|\\.)*"/.exec(rest);
		return end ? (JSON.parse(end[0]) as string) : undefined;
	}
	return /^[A-Za-z0-9_$-]+/.exec(rest)?.[0];
}

export const NEW_SCENARIO: Draft = {
	id: 'my-bot',
	version: 1,
	start: 'welcome',
	states: {
		welcome: {
			messages: ['Hi {{client.first_name|there}}! Type "help" to talk to a person.'],
			on: [{ match: { contains: 'help' }, target: 'human' }],
		},
		human: { actions: [{ handoff: true }] },
	},
};
