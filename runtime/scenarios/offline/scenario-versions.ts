import type { StateStore } from '../../stores/types';
import { stateOrder } from '../analytics/main-path';
import { ScenarioEngine } from '../engine/engine';
import { conversationScope } from '../engine/scope';
import { VersionBook } from '../engine/versions/book';
import type { MovePreview, MoveReport } from '../engine/versions/move';
import type { MovePlan } from '../engine/versions/move-plan';
import type { VersionListed } from '../engine/versions/versioning';
import { compileScenario } from '../machine/compile';
import type { ScenarioDocument } from '../format/schema';
import { RecordingApi } from './recording-api';

/**
 * One scenario's versions in a state store, for the CLI (`versions`, `move`, `rollback`) and the
 * studio: the scenario given is the live one (a Move's default target), read with an engine that
 * sends nothing, so both list, move and roll back exactly as the Scenario node does.
 */

/**
 * A version listed with the states of its stored definition that wait (not end states): a live
 * conversation sits in one, and a Move's map names them.
 */
export type VersionWithStates = VersionListed & {
	states: string[];
	/** Its main path (as Get Analytics orders a funnel), from its stored definition. */
	mainPath: string[];
};

export class ScenarioVersions {
	readonly id: string;
	readonly version: number;
	private readonly engine: ScenarioEngine;
	private readonly book: VersionBook;

	/** `document` is compiled (a scenario with problems throws); `scope` names a copy kept apart. */
	constructor(
		store: StateStore,
		private readonly document: unknown,
		scope = '',
	) {
		const compiled = compileScenario(document);
		this.id = compiled.id;
		this.version = compiled.version;
		const scoped = conversationScope(compiled.id, scope);
		this.book = new VersionBook(store, scoped, 0);
		this.engine = new ScenarioEngine({
			scenarios: [compiled],
			store,
			api: new RecordingApi(),
			clock: { now: () => Date.now() },
			scope: scoped,
		});
	}

	async list(): Promise<VersionListed[]> {
		return await this.engine.versions();
	}

	/** The versions of this scenario with the states each one's stored definition has. */
	async listWithStates(): Promise<VersionWithStates[]> {
		const listed = (await this.list()).filter((v) => v.id === this.id);
		return await Promise.all(
			listed.map(async (v) => {
				const document = (await this.book.definition(v))?.document;
				const states = Object.entries(document?.states ?? {});
				return {
					...v,
					states: states.filter(([, state]) => !state.end).map(([name]) => name),
					mainPath: document ? stateOrder(document).mainPath : [],
				};
			}),
		);
	}

	async preview(plan: MovePlan): Promise<MovePreview> {
		return await this.engine.previewMove(plan);
	}

	async move(plan: MovePlan): Promise<MoveReport> {
		return await this.engine.moveConversations(plan);
	}

	/**
	 * Roll Back: version N's content, as the store kept it, as a new version (one above every
	 * version seen and the live one's), so that conversations on N and on the bad version each keep
	 * theirs. Undefined when the store no longer has version N.
	 */
	async rolledBack(version: number): Promise<ScenarioDocument | undefined> {
		const stored = await this.book.definition({ id: this.id, version });
		if (!stored) return undefined;
		const seen = (await this.book.list()).filter((v) => v.id === this.id).map((v) => v.version);
		const next = Math.max(this.version, ...seen) + 1;
		const schema = (this.document as { $schema?: unknown }).$schema;
		return {
			...(schema === undefined ? {} : { $schema: schema }),
			...stored.document,
			version: next,
		} as ScenarioDocument;
	}
}
