/* eslint-disable @n8n/community-nodes/require-node-api-error -- the studio server runs in a terminal, never loaded by n8n */
import { ScenarioValidationError } from '../../scenarios/format/issue';
import { MoveError } from '../../scenarios/engine/versions/move';
import type { MovePlan } from '../../scenarios/engine/versions/move-plan';
import { ScenarioVersions } from '../../scenarios/offline/scenario-versions';
import { openStateStore } from '../../stores/open';
import type { StateStore } from '../../stores/types';

/**
 * The studio's versions routes: the versions the state store has seen of the scenario the page
 * sends (the one being edited, taken as the live one), Roll Back's content, a Move's preview and
 * the Move itself, all through the runtime's own reading and Move (offline/scenario-versions.ts).
 * The store is opened to write (a Move writes the conversations) when first asked.
 */

export class VersionsError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export interface StudioVersions {
	/** What the page posts to /api/versions/<what>, answered. */
	answer(what: string, input: Record<string, unknown>): Promise<unknown>;
	close(): Promise<void>;
}

/** The versions kept in the store at `where` (a SQLite file, a Redis or PostgreSQL URL). */
export function versionsFrom(where: string, scope = ''): StudioVersions {
	let store: StateStore | undefined;
	return {
		async answer(what, input) {
			const document = scenarioOf(input);
			store ??= openStateStore(where);
			let versions: ScenarioVersions;
			try {
				versions = new ScenarioVersions(store, document, scope);
			} catch (error) {
				if (!(error instanceof ScenarioValidationError)) throw error;
				throw new VersionsError(422, `The scenario has problems: ${error.message}`);
			}
			return await answer(versions, what, input);
		},
		async close() {
			await store?.close();
		},
	};
}

async function answer(
	versions: ScenarioVersions,
	what: string,
	input: Record<string, unknown>,
): Promise<unknown> {
	try {
		if (what === 'list') return { versions: await versions.listWithStates() };
		if (what === 'rollback') {
			const version = whole(input.version, 'Version');
			const document = await versions.rolledBack(version);
			if (!document)
				throw new VersionsError(
					404,
					`The store has no version ${version} of "${versions.id}" any more`,
				);
			return { document };
		}
		if (what === 'preview') return await versions.preview(planOf(input.plan));
		if (what === 'move') return await versions.move(planOf(input.plan));
	} catch (error) {
		if (error instanceof MoveError) throw new VersionsError(400, error.message);
		throw error;
	}
	throw new VersionsError(404, `No /api/versions/${what}`);
}

/** The scenario being edited, as JSON text; one with problems cannot say which versions it follows. */
function scenarioOf(input: Record<string, unknown>): unknown {
	if (typeof input.scenario !== 'string') throw new VersionsError(400, 'Scenario is empty');
	let document: unknown;
	try {
		document = JSON.parse(input.scenario);
	} catch (error) {
		throw new VersionsError(400, `Scenario is not JSON: ${(error as Error).message}`);
	}
	return document;
}

function whole(value: unknown, label: string): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
		throw new VersionsError(400, `${label} must be a version number (1 or more)`);
	return value;
}

/** A Move's plan as the page sends it, each field checked and named by its label. */
function planOf(value: unknown): MovePlan {
	const plan = (value ?? {}) as Record<string, unknown>;
	const states = plan.states ?? {};
	if (typeof states !== 'object' || Array.isArray(states))
		throw new VersionsError(400, 'State Map must map old states to new ones');
	for (const [old, target] of Object.entries(states))
		if (typeof target !== 'string' || target === '')
			throw new VersionsError(400, `State Map: "${old}" must map to a state's name`);
	if (plan.unmapped !== 'finish' && plan.unmapped !== 'restart')
		throw new VersionsError(400, 'Unmapped States must be finish or restart');
	return {
		from: whole(plan.from, 'From Version'),
		...(plan.to === undefined ? {} : { to: whole(plan.to, 'To Version') }),
		states: states as Record<string, string>,
		unmapped: plan.unmapped,
	};
}
