import type { StateStore } from '../../../stores/types';
import type { ScenarioDocument } from '../../format/schema';
import type { CompiledScenario } from '../../machine/compile';

/**
 * The scenario versions a scope's engines were given, kept in the state store itself with the
 * store's own compare-and-set, so every store (and any added later) keeps them the same way: one
 * record per scenario id and version (`versions:<scope>`, key `<id>@<version>`) holding its
 * content hash, when it was first and last seen, and its definition, which pinned conversations
 * are stepped with; an index of those keys by last seen (`versions-seen:<scope>`); and for each
 * version the conversations that started on it or moved to it (`version-conversations:…`).
 */

export interface VersionRef {
	id: string;
	version: number;
}

export interface VersionInfo extends VersionRef {
	/** The content's hash: the same version number given other content shows here. */
	hash: string;
	firstSeen: number;
	lastSeen: number;
	/** The last time a conversation pinned to it was stepped (at most once a day per process). */
	lastUsed?: number;
}

interface StoredVersion extends VersionInfo {
	document: ScenarioDocument;
}

/** A version's use, or its being seen, is written at most once a day per process. */
export const DAY = 86_400_000;
const LIST_LIMIT = 1000;

export const refKey = (ref: VersionRef): string => `${ref.id}@${ref.version}`;

/** Each compiled document's hash, worked out once: an engine made per execution hashes nothing. */
const hashes = new WeakMap<object, string>();

/** A short hash of a document's content (FNV-1a, twice 32 bits): equal content, equal hash. */
export function contentHash(document: object): string {
	let hash = hashes.get(document);
	if (hash === undefined) hashes.set(document, (hash = hashOf(JSON.stringify(document))));
	return hash;
}

function hashOf(text: string): string {
	let a = 0x811c9dc5;
	let b = 0x01000193;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		a = Math.imul(a ^ c, 0x01000193) >>> 0;
		b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
	}
	return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** When this process last wrote each version's record, per store: written once a day at most. */
const written = new WeakMap<StateStore, Map<string, number>>();

export class VersionBook {
	constructor(
		private readonly store: StateStore,
		private readonly scope: string,
		/** How long a version's definition is kept after it was last seen or used. */
		private readonly keepMs: number,
	) {}

	private get namespace(): string {
		return `versions:${this.scope}`;
	}

	private conversationsNamespace(ref: VersionRef): string {
		return `version-conversations:${this.scope}:${refKey(ref)}`;
	}

	/**
	 * Records that an engine was given `compiled`: written once per process, store, scope and
	 * version (again a day later, so a long-running process keeps it from expiring).
	 */
	async seen(compiled: CompiledScenario, now: number): Promise<void> {
		const hash = contentHash(compiled.document);
		await this.oncePerDay(`seen|${refKey(compiled)}|${hash}`, now, async () => {
			await this.update(compiled, now, (found) =>
				found && found.hash === hash
					? { ...found, lastSeen: Math.max(found.lastSeen, now) }
					: {
							id: compiled.id,
							version: compiled.version,
							hash,
							firstSeen: found?.firstSeen ?? now,
							lastSeen: now,
							document: compiled.document,
						},
			);
			await this.store.noteActive(
				`versions-seen:${this.scope}`,
				refKey(compiled),
				now,
				this.keepMs,
			);
		});
	}

	/**
	 * Notes that a conversation pinned to `ref` was stepped: its definition is kept on. Undefined
	 * when it was noted today already (nothing to wait for).
	 */
	used(ref: VersionRef, now: number): Promise<void> | undefined {
		return this.oncePerDay(`used|${refKey(ref)}`, now, async () => {
			await this.update(ref, now, (found) => found && { ...found, lastUsed: now });
		});
	}

	/** The version's stored record and definition, if the store still has it. */
	async definition(ref: VersionRef): Promise<StoredVersion | undefined> {
		const found = await this.store.read(this.namespace, refKey(ref));
		return found && (JSON.parse(found.value) as StoredVersion);
	}

	/** The versions seen, the latest seen first. */
	async list(): Promise<VersionInfo[]> {
		const keys = await this.store.active(`versions-seen:${this.scope}`, 0, LIST_LIMIT);
		const found = await Promise.all(keys.map((key) => this.store.read(this.namespace, key)));
		return found
			.filter((v) => v !== undefined)
			.map((v) => infoOf(JSON.parse(v.value) as StoredVersion))
			.sort((x, y) => y.lastSeen - x.lastSeen || y.version - x.version);
	}

	/** Notes a conversation as running on `ref` (before its record says so: the index may hold more). */
	async noteConversation(ref: VersionRef, key: string, now: number): Promise<void> {
		await this.store.noteActive(this.conversationsNamespace(ref), key, now, this.keepMs);
	}

	/** The conversations noted on `ref`, the latest noted first; their records say which still are. */
	async conversationsOf(ref: VersionRef, limit: number): Promise<string[]> {
		return await this.store.active(this.conversationsNamespace(ref), 0, limit);
	}

	/** A compare-and-set of the version's record; a lost race is retried on what the winner wrote. */
	private async update(
		ref: VersionRef,
		now: number,
		change: (found: StoredVersion | undefined) => StoredVersion | undefined,
	): Promise<void> {
		for (let attempt = 0; attempt < 5; attempt++) {
			const found = await this.store.read(this.namespace, refKey(ref));
			const next = change(found && (JSON.parse(found.value) as StoredVersion));
			if (!next) return;
			const options = { expiresAt: now + this.keepMs };
			const value = JSON.stringify(next);
			if (
				(await this.store.write(
					this.namespace,
					refKey(ref),
					value,
					found?.version ?? 0,
					options,
				)) !== null
			)
				return;
		}
	}

	/** `work`, unless this process did it less than a day ago (then undefined: nothing to wait for). */
	private oncePerDay(
		what: string,
		now: number,
		work: () => Promise<void>,
	): Promise<void> | undefined {
		let times = written.get(this.store);
		if (!times) written.set(this.store, (times = new Map()));
		const key = `${this.scope}|${what}`;
		const last = times.get(key);
		if (last !== undefined && now - last < DAY && now >= last) return undefined;
		times.set(key, now);
		const done = work();
		// A failed write is tried again by the next caller.
		done.catch(() => times.delete(key));
		return done;
	}
}

/** A version's record less its definition. */
function infoOf(stored: StoredVersion): VersionInfo {
	const { id, version, hash, firstSeen, lastSeen, lastUsed } = stored;
	return {
		id,
		version,
		hash,
		firstSeen,
		lastSeen,
		...(lastUsed === undefined ? {} : { lastUsed }),
	};
}
