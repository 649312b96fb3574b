import type { INodeProperties } from 'n8n-workflow';

/** The operation names of a resource's Operation dropdown, by value. */
export function operationNames(description: INodeProperties[]): Record<string, string> {
	const dropdown = description.find((p) => p.name === 'operation');
	const options = (dropdown?.options ?? []) as Array<{ name: string; value: string }>;
	return Object.fromEntries(options.map((o) => [o.value, o.name]));
}

/**
 * A subtitle expression showing the names the user picked from (e.g. "Client: Update Tags"),
 * never the internal values; `key` is an expression giving the map's key.
 */
export function subtitleFrom(names: Record<string, string>, key: string): string {
	return `={{ ${JSON.stringify(names)}[${key}] }}`;
}
