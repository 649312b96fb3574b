/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { statSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

import { MemoryStore } from '../runtime/stores';
import { SqliteStore } from '../runtime/stores/sqlite';
import { throughEngine } from './engine-run';
import { table } from './lib';

const CONCURRENCY = 50;

function gc(): () => void {
	v8.setFlagsFromString('--expose-gc');
	return vm.runInNewContext('gc') as () => void;
}

/** What `conversations` stored conversations cost: MemoryStore's heap, SQLite's file (in `dir`). */
export async function storedSize(
	conversations: number,
	dir: string,
	out: (line?: string) => void,
): Promise<void> {
	// Each conversation started by one message.
	const starts = Array.from({ length: conversations }, (_, n) => ({
		message_id: `s-${n}`,
		client_id: `cl_${n}`,
		bot_id: 'bot_shop',
		text: 'hi',
	}));
	const collect = gc();
	collect();
	const heapBefore = process.memoryUsage().heapUsed;
	const memory = new MemoryStore();
	await throughEngine(memory, starts, CONCURRENCY);
	collect();
	const heapDelta = process.memoryUsage().heapUsed - heapBefore;
	const sample = await memory.read('scenario:default', 'bot_shop:cl_1');
	const file = path.join(dir, 'conversations.sqlite');
	const store = new SqliteStore(file);
	const started = performance.now();
	await throughEngine(store, starts, CONCURRENCY);
	const sqliteMs = performance.now() - started;
	await store.close(); // folds the write-ahead log into the file
	const bytes = statSync(file).size;
	const per = (total: number) => `${Math.round(total / conversations).toLocaleString('en')} B`;
	out(
		table([
			{
				[`${conversations.toLocaleString('en')} conversations`]: 'MemoryStore heap (after GC)',
				total: `${(heapDelta / 1_048_576).toFixed(1)} MiB`,
				'per conversation': per(heapDelta),
			},
			{
				[`${conversations.toLocaleString('en')} conversations`]: 'SqliteStore file',
				total: `${(bytes / 1_048_576).toFixed(1)} MiB`,
				'per conversation': per(bytes),
			},
		]),
	);
	out(
		`Stored record: ${sample?.value.length ?? 0} bytes of JSON per conversation (plus the message-id claim); SqliteStore started them at ${Math.round(conversations / (sqliteMs / 1000)).toLocaleString('en')} conversations/s.`,
	);
}
