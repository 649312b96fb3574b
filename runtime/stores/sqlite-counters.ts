/* eslint-disable @n8n/community-nodes/no-restricted-imports -- node:sqlite, see sqlite.ts */
import type { StatementSync } from 'node:sqlite';

import type { WriteOptions } from './types';

type Sums = { expiresAt: number; fields: Map<string, number> };

/**
 * The counter increments of one open write transaction (a group commit's batch), summed per hash
 * and field and written into it just before it commits (or before a read of the counters inside
 * it). A step's counts are therefore in the same transaction as its write: both are committed, or
 * neither. Concurrent steps mostly count the same few fields of one day's hash, so a batch upserts
 * each of them once instead of once per step.
 */
export class CounterSums {
	private readonly namespaces = new Map<string, Map<string, Sums>>();
	private pending = false;
	/** The latest moment a write counted at: a hash past its deadline then starts again. */
	private latest = 0;

	/** `upsert`: ns, key, field, n, expires, now (see sqlite-schema.ts). */
	constructor(private readonly upsert: StatementSync) {}

	/** Adds a kept write's increments (call it once the write can no longer be undone). */
	add(counters: WriteOptions['counters'], now: number): void {
		if (!counters) return;
		let hashes = this.namespaces.get(counters.namespace);
		if (!hashes) this.namespaces.set(counters.namespace, (hashes = new Map()));
		for (const hash of counters.hashes) {
			let sums = hashes.get(hash.key);
			if (!sums) hashes.set(hash.key, (sums = { expiresAt: hash.expiresAt, fields: new Map() }));
			sums.expiresAt = hash.expiresAt;
			const fields = sums.fields;
			for (const [field, n] of hash.incr) fields.set(field, (fields.get(field) ?? 0) + n);
		}
		if (now > this.latest) this.latest = now;
		this.pending = true;
	}

	/** Writes the sums into the open transaction and starts again from none. */
	flush(): void {
		if (!this.pending) return;
		const now = this.latest;
		try {
			for (const [namespace, hashes] of this.namespaces)
				for (const [key, sums] of hashes)
					for (const [field, n] of sums.fields)
						this.upsert.run(namespace, key, field, n, sums.expiresAt, now);
		} finally {
			this.discard();
		}
	}

	/** Forgets the sums (their transaction was rolled back). */
	discard(): void {
		if (!this.pending) return;
		this.namespaces.clear();
		this.pending = false;
		this.latest = 0;
	}
}
