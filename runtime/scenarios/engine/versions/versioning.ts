import type { StateStore } from '../../../stores/types';
import { decodeRecord } from '../../durability/record';
import type { ConversationStore } from '../../durability/record-store';
import type { CompiledScenario } from '../../machine/compile';
import { VersionBook, type VersionInfo, type VersionRef } from './book';
import { ConversationMover, type MovePreview, type MoveReport } from './move';
import type { MovePlan } from './move-plan';
import { PinnedDefinitions, rememberDefinition, type LiveConversations } from './pinned';

/** A version seen, with how many live conversations run on it now; `live`: the engine's own. */
export type VersionListed = VersionInfo & { live: boolean; conversations: number };

const MOST = 100_000;

/**
 * An engine's scenario versions: records each version it is given (once per process), keeps
 * which conversations run on which version, readies the older definitions of pinned
 * conversations (Finish on Their Version), lists the versions, and moves conversations on purpose.
 */
export class Versioning {
	readonly book: VersionBook;
	readonly pinned: PinnedDefinitions;
	private readonly mover: ConversationMover;
	private seenOnce: Promise<void> | undefined;

	constructor(
		private readonly o: {
			store: StateStore;
			scope: string;
			live: ReadonlyMap<string, CompiledScenario>;
			entry: string;
			conversations: ConversationStore;
			clock: { now(): number };
			keepMs: number;
			mode: LiveConversations;
		},
	) {
		this.book = new VersionBook(o.store, o.scope, o.keepMs);
		for (const compiled of o.live.values()) rememberDefinition(o.store, o.scope, compiled);
		this.pinned = new PinnedDefinitions(this.book, o.store, o.scope, o.live, o.clock);
		this.mover = new ConversationMover({ ...o, book: this.book, pinned: this.pinned });
		o.conversations.onVersion = async (key, record, now) =>
			await this.book.noteConversation(record.scenario, key, now);
		if (o.mode === 'finish') o.conversations.prepare = (r) => this.pinned.prepare(r);
	}

	/** What the stepper steps a pinned conversation with (none under Move to This Version). */
	get pinnedDefinition(): ((ref: VersionRef) => CompiledScenario | undefined) | undefined {
		return this.o.mode === 'finish' ? (ref) => this.pinned.get(ref) : undefined;
	}

	/**
	 * Records the engine's versions in the store: once per engine, and per process (book.ts). A
	 * failed write holds up no message (a conversation whose version is missing later follows the
	 * live one): it is tried again on the next.
	 */
	async seen(): Promise<void> {
		const now = this.o.clock.now();
		this.seenOnce ??= Promise.all(
			[...this.o.live.values()].map((c) => this.book.seen(c, now)),
		).then(
			() => undefined,
			() => {
				this.seenOnce = undefined;
			},
		);
		await this.seenOnce;
	}

	/** The versions seen, the latest first, each with its live conversations. */
	async list(): Promise<VersionListed[]> {
		const versions = await this.book.list();
		return await Promise.all(
			versions.map(async (v) => ({
				...v,
				live: this.o.live.get(v.id)?.version === v.version,
				conversations: await this.liveOn(v),
			})),
		);
	}

	/** How many conversations run on `ref` now (not ended, not moved elsewhere). */
	async liveOn(ref: VersionRef): Promise<number> {
		const keys = await this.book.conversationsOf(ref, MOST);
		const namespace = this.o.conversations.namespace;
		const records = await Promise.all(keys.map((key) => this.o.store.read(namespace, key)));
		return records.filter((found) => {
			const record = found && decodeRecord(found.value);
			return (
				record &&
				!record.ended &&
				record.scenario.id === ref.id &&
				record.scenario.version === ref.version
			);
		}).length;
	}

	async preview(plan: MovePlan): Promise<MovePreview> {
		return await this.mover.preview(plan);
	}

	async move(plan: MovePlan): Promise<MoveReport> {
		return await this.mover.move(plan);
	}
}
