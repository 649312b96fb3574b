/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- where node:sqlite and the default file come from: the Node.js version and N8N_USER_FOLDER */
import { homedir } from 'node:os';
import path from 'node:path';

import { StateStoreError } from './errors';

/**
 * node:sqlite, loaded when a store is opened rather than when the package loads: Node 20 and Node
 * 22 before 22.13 lack it, and the nodes must load there all the same.
 */
export function nodeSqlite(): typeof import('node:sqlite') {
	let sqlite: typeof import('node:sqlite') | undefined;
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on use, see above
		sqlite = require('node:sqlite') as typeof import('node:sqlite');
	} catch {
		// This Node.js has no node:sqlite (the only way this require fails): said below.
		sqlite = undefined;
	}
	if (sqlite) return sqlite;
	throw new StateStoreError(
		`The SQLite state store needs Node.js ${SQLITE_NODE} or later (it uses node:sqlite); this n8n runs on Node.js ${process.versions.node}. Choose "Redis (for Queue Mode)" as the Storage, or run n8n on Node.js ${SQLITE_NODE} or later.`,
	);
}

/** The first Node.js releases with node:sqlite without a flag (22.13 and 23.4). */
const SQLITE_NODE = '22.13';

/** Beside n8n's own database: <N8N_USER_FOLDER or home>/.n8n/messaging-bot/state.sqlite. */
export function defaultStatePath(): string {
	return statePathIn(process.env.N8N_USER_FOLDER ?? homedir());
}

/** The default store file of an n8n whose N8N_USER_FOLDER is `userFolder`. */
export function statePathIn(userFolder: string): string {
	return path.join(userFolder, '.n8n', 'messaging-bot', 'state.sqlite');
}
