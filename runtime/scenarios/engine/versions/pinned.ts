import { getOrCreate } from '../../../per-process';
import type { StateStore } from '../../../stores/types';
import { compileScenario, type CompiledScenario } from '../../machine/compile';
import type { ConversationRecord } from '../../durability/record';
import { contentHash, DAY, refKey, type VersionBook, type VersionRef } from './book';

/**
 * What a live conversation runs on when its scenario has a newer version: `finish` (Finish on
 * Their Version, the default) steps it with the definition of the version it started on, read
 * from the store; `move` (Move to This Version) is the rule of old: the live version, states
 * matched by name.
 */
export type LiveConversations = 'finish' | 'move';

/**
 * Older definitions, compiled, per store: each is read from the store at most once per process
 * and version (an absent one too: such a conversation follows the live version).
 */
const loaded = new WeakMap<StateStore, Map<string, Promise<CompiledScenario | undefined>>>();
const KEPT = 64;

function cacheOf(store: StateStore): Map<string, Promise<CompiledScenario | undefined>> {
	let cache = loaded.get(store);
	if (!cache) loaded.set(store, (cache = new Map()));
	return cache;
}

/**
 * Compiled definitions by version and content, for the whole process: a definition read from a
 * store that this process compiled already (given to an engine, or read before through another
 * store) steps on that same machine, warm, instead of a new one built per read.
 */
const compiledByContent = new Map<string, CompiledScenario>();
const contentKey = (ref: VersionRef, document: object) => `${refKey(ref)}#${contentHash(document)}`;

/** A version this process compiled itself needs no read: the engines given it put it here. */
export function rememberDefinition(
	store: StateStore,
	scope: string,
	compiled: CompiledScenario,
): void {
	const cache = cacheOf(store);
	const key = `${scope}|${refKey(compiled)}`;
	if (!cache.has(key)) cache.set(key, Promise.resolve(compiled));
	getOrCreate(compiledByContent, contentKey(compiled, compiled.document), () => compiled, KEPT);
}

/** How many definitions this process read from the store (the benchmark's and tests' count). */
export const definitionReads = { count: 0 };

/** An older version this engine steps conversations on: its definition, and its use last noted. */
interface Ready {
	compiled: CompiledScenario | undefined;
	usedAt?: number;
}

/**
 * The pinned definitions one engine steps with. `prepare` (on every read of a record) makes the
 * record's older version ready; the stepper then asks `get`, synchronously. Both run for every
 * message of a pinned conversation, so they look the version up by id, then number: no key string
 * is built per message (the pinning bench).
 */
export class PinnedDefinitions {
	private readonly ready = new Map<string, Map<number, Ready>>();

	constructor(
		private readonly book: VersionBook,
		private readonly store: StateStore,
		private readonly scope: string,
		private readonly live: ReadonlyMap<string, CompiledScenario>,
		private readonly clock: { now(): number },
	) {}

	/**
	 * Undefined when there is nothing to wait for: the record is not pinned, or its definition is
	 * ready (every message after the first, kept off the microtask queue). Only the definition is
	 * waited for, never the note of its use (`noteUse`).
	 */
	prepare(record: ConversationRecord): Promise<void> | undefined {
		const ref = record.scenario;
		const live = this.live.get(ref.id);
		if (!live || live.version === ref.version || record.ended) return undefined;
		const found = this.ready.get(ref.id)?.get(ref.version);
		if (!found) return this.readied(ref);
		this.noteUse(found, ref);
		return undefined;
	}

	private async readied(ref: VersionRef): Promise<void> {
		const compiled = await this.load(ref);
		let versions = this.ready.get(ref.id);
		if (!versions) this.ready.set(ref.id, (versions = new Map()));
		const found = versions.get(ref.version) ?? { compiled };
		versions.set(ref.version, found);
		this.noteUse(found, ref);
	}

	/**
	 * Notes the version's use in the book, once a day, in the background: it only keeps the
	 * definition stored longer, so no message waits for it (one that did, a store write longer
	 * than its neighbours, left its worker out of step with the group commit for the rest of the
	 * run: docs/benchmarks.md, pinning). A failed note is tried again by the next message.
	 */
	private noteUse(found: Ready, ref: VersionRef): void {
		if (!found.compiled) return;
		const now = this.clock.now();
		const noted = found.usedAt;
		if (noted !== undefined && now - noted < DAY && now >= noted) return;
		found.usedAt = now;
		this.book.used(ref, now)?.catch(() => {
			found.usedAt = undefined;
		});
	}

	get(ref: VersionRef): CompiledScenario | undefined {
		return this.ready.get(ref.id)?.get(ref.version)?.compiled;
	}

	/** The version's definition: compiled from the store once per process. */
	async load(ref: VersionRef): Promise<CompiledScenario | undefined> {
		const key = `${this.scope}|${refKey(ref)}`;
		const cache = cacheOf(this.store);
		const found = getOrCreate(
			cache,
			key,
			() => {
				const read = this.read(ref);
				// A failed read is tried again by the next conversation that needs it.
				read.catch(() => cache.delete(key));
				return read;
			},
			KEPT,
		);
		return await found;
	}

	private async read(ref: VersionRef): Promise<CompiledScenario | undefined> {
		definitionReads.count++;
		const stored = await this.book.definition(ref);
		if (!stored) return undefined;
		return getOrCreate(
			compiledByContent,
			contentKey(ref, stored.document),
			() => compileScenario(stored.document),
			KEPT,
		);
	}
}
