import { getOrCreate } from '../per-process';

/**
 * One open store per place (file, server and database) for the whole process: every execution
 * shares it, and its connections. `id` says which place a set of settings names.
 */
export function sharedStores<C, S extends { close(): Promise<void> }>(
	id: (settings: C) => string,
	open: (settings: C) => S,
): { get(settings: C): S; closeAll(): Promise<void> } {
	const stores = new Map<string, S>();
	return {
		get: (settings) => getOrCreate(stores, id(settings), () => open(settings)),
		async closeAll() {
			for (const store of stores.values()) await store.close();
			stores.clear();
		},
	};
}
