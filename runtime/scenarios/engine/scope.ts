/**
 * Where a conversation lives. A conversation belongs to the bot, the client and the scenario:
 * every engine on the same store and scenario (any workflow, any process) shares the same records
 * and inboxes, so any of them applies a message or fires a timer, and the compare-and-set on the
 * record lets one do it once. A named scope keeps a copy's conversations apart (a test copy beside
 * production).
 */

/** The scope of a scenario's conversations: its id, and the name that sets some apart. */
export function conversationScope(scenarioId: string, name = ''): string {
	const apart = name.trim();
	return `@${encodeURIComponent(scenarioId)}${apart === '' ? '' : `/${encodeURIComponent(apart)}`}`;
}

export function recordsNamespace(scope: string): string {
	return `scenario:${scope}`;
}
