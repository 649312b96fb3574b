/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: real timers, never loaded by n8n */
import type { QueueMode } from './queue';

/** What a watch saw: each conversation's lines, and how many looks were made and failed. */
export type Watched = { lines: Map<string, string[]>; looked: { ok: number; failed: number } };

type Entry = { id: number; status: string; lease?: { owner?: string; until?: number } };

/**
 * Watches a namespace of the shared store from a moment on (every `everyMs`): each conversation's
 * due mark and its unfinished outbox entries, a line each time either changes, in ms from `from`.
 * What a report needs when a reply is left unsent: when its due mark went, and what was written.
 */
export function watchStore(n8n: QueueMode, namespace: string, from: number, everyMs = 1000) {
	const lines = new Map<string, string[]>();
	const last = new Map<string, string>();
	let running = true;
	// A look that failed is counted, so a timeline that stops changing is told from one not read.
	const looked = { ok: 0, failed: 0 };
	const ms = (t: number | undefined) => (t === undefined ? '?' : `${t - from}`);
	const look = async () => {
		const [dues, records] = await Promise.all([n8n.dues(namespace), n8n.records(namespace)]);
		const at = Date.now() - from;
		for (const { key, value, version, expires } of records) {
			const record = JSON.parse(value) as { outbox: Entry[]; updatedAt?: number };
			const open = record.outbox
				.filter((e) => e.status !== 'done')
				.map(
					(e) => `${e.id}:${e.status}:${e.lease?.owner?.slice(0, 8) ?? '-'}:${ms(e.lease?.until)}`,
				);
			// The deadline as the engine reads it: a record past it reads as absent.
			const deadline = expires === null ? 'none' : expires <= Date.now() ? 'PASSED' : 'later';
			const due = key in dues ? ms(dues[key]) : 'none';
			const state = `v${version}, due ${due}, expiry ${deadline}, updated ${ms(record.updatedAt)}, open [${open.join(' ')}]`;
			if (last.get(key) === state) continue;
			last.set(key, state);
			const kept = lines.get(key) ?? [];
			kept.push(`+${at} ms: ${state}`);
			lines.set(key, kept);
		}
	};
	const loop = (async () => {
		while (running) {
			await look().then(
				() => looked.ok++,
				() => looked.failed++,
			);
			await new Promise((resolve) => setTimeout(resolve, everyMs));
		}
	})();
	return {
		/** Stops watching; what it saw. */
		async stop(): Promise<Watched> {
			running = false;
			await loop;
			return { lines, looked };
		},
	};
}
