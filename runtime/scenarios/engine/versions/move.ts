import type { ConversationStore } from '../../durability/record-store';
import type { CompiledScenario } from '../../machine/compile';
import type { VersionBook, VersionRef } from './book';
import { fateOf, mapProblems, type Fate, type MovePlan } from './move-plan';
import type { PinnedDefinitions } from './pinned';

/**
 * Moving the live conversations of one version to another on purpose, with a preview first. Each
 * conversation moves by one compare-and-set of its record: a conversation stepped meanwhile is
 * looked at again, one already moved (by another Move running at the same time) is left, so each
 * moves once whatever runs beside it.
 */

export interface MovePreview {
	from: VersionRef;
	to: VersionRef;
	/** The version's live conversations. */
	conversations: number;
	/** Per state they sit in: how many, and where they land. */
	states: Array<{
		state: string;
		conversations: number;
		outcome: 'moves' | 'stays' | 'restarts' | 'not-moved';
		/** The state on `to` (moves), or why not (not-moved). */
		to?: string;
		reason?: string;
	}>;
}

export interface MoveReport {
	from: VersionRef;
	to: VersionRef;
	moved: number;
	/** Left to finish on their version (unmapped states with "finish"). */
	stayed: number;
	/** Ended, to start over on the live version with their next message. */
	restarted: number;
	/** What could not move, and why. */
	notMoved: Array<{ conversation: string; state: string; reason: string }>;
}

export class MoveError extends Error {}

const MOST = 100_000;
const ATTEMPTS = 20;

export class ConversationMover {
	constructor(
		private readonly o: {
			book: VersionBook;
			conversations: ConversationStore;
			pinned: PinnedDefinitions;
			live: ReadonlyMap<string, CompiledScenario>;
			entry: string;
			clock: { now(): number };
		},
	) {}

	async preview(plan: MovePlan): Promise<MovePreview> {
		const { from, to } = await this.versions(plan);
		const now = this.o.clock.now();
		const byState = new Map<string, MovePreview['states'][number]>();
		let conversations = 0;
		for (const key of await this.o.book.conversationsOf(from, MOST)) {
			const fate = fateOf((await this.o.conversations.read(key)).record, from, plan, to, now);
			if (fate.kind === 'elsewhere') continue;
			conversations++;
			const row = byState.get(fate.state) ?? {
				state: fate.state,
				conversations: 0,
				outcome: fate.kind,
				...(fate.kind === 'moves' ? { to: fate.to } : {}),
				...(fate.kind === 'not-moved' ? { reason: fate.reason } : {}),
			};
			row.conversations++;
			byState.set(fate.state, row);
		}
		const states = [...byState.values()].sort((a, b) => (a.state < b.state ? -1 : 1));
		return { from, to: { id: to.id, version: to.version }, conversations, states };
	}

	async move(plan: MovePlan): Promise<MoveReport> {
		const { from, to } = await this.versions(plan);
		const report: MoveReport = {
			from,
			to: { id: to.id, version: to.version },
			moved: 0,
			stayed: 0,
			restarted: 0,
			notMoved: [],
		};
		for (const key of await this.o.book.conversationsOf(from, MOST)) {
			const fate = await this.moveOne(key, from, plan, to);
			if (fate.kind === 'moves') report.moved++;
			else if (fate.kind === 'stays') report.stayed++;
			else if (fate.kind === 'restarts') report.restarted++;
			else if (fate.kind === 'not-moved')
				report.notMoved.push({ conversation: key, state: fate.state, reason: fate.reason });
		}
		return report;
	}

	/** One conversation, by compare-and-set; looked at again when another writer got there first. */
	private async moveOne(
		key: string,
		from: VersionRef,
		plan: MovePlan,
		to: CompiledScenario,
	): Promise<Fate> {
		let state = '';
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			const loaded = await this.o.conversations.read(key);
			const now = this.o.clock.now();
			const fate = fateOf(loaded.record, from, plan, to, now);
			if (fate.kind !== 'moves' && fate.kind !== 'restarts') return fate;
			state = fate.state;
			if (fate.kind === 'moves') await this.o.book.noteConversation(to, key, now);
			if (await this.o.conversations.write(key, fate.record, loaded.version, now)) return fate;
		}
		return { kind: 'not-moved', state, reason: 'kept changing while it was moved; try again' };
	}

	/** The two versions' refs and the target's definition; the map checked against both. */
	private async versions(plan: MovePlan): Promise<{ from: VersionRef; to: CompiledScenario }> {
		const id = plan.scenario ?? this.o.entry;
		const live = this.o.live.get(id);
		if (!live) throw new MoveError(`Scenario: "${id}" is not loaded`);
		const from = { id, version: plan.from };
		const version = plan.to ?? live.version;
		const to = version === live.version ? live : await this.o.pinned.load({ id, version });
		if (!to) throw new MoveError(`To Version: version ${version} of "${id}" is not in the store`);
		if (from.version === to.version)
			throw new MoveError(`From Version: the conversations are on version ${version} already`);
		const fromDefinition = from.version === live.version ? live : await this.o.pinned.load(from);
		const problems = mapProblems(plan, fromDefinition, to);
		if (problems.length > 0) throw new MoveError(problems.join('; '));
		return { from, to };
	}
}
