/**
 * The browser's `node:crypto`, for the one runtime module that asks it for an id (the outbox's
 * instance name): the page bundle maps the import here.
 */
export function randomUUID(): string {
	return crypto.randomUUID();
}
