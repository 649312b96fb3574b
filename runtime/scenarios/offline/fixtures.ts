/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the CLI reads fixture files; never loaded by n8n */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

import type { WorkflowPort } from '../durability/workflow-call';

/**
 * Workflow results for the CLI chat, so that a designer tries "call" steps offline. A fixtures
 * file is a list of cases; the first whose `inputs` all equal the call's (trimmed, any case)
 * answers: with `result` (none or null: the workflow returned nothing), with `error` (it failed),
 * after `delaySeconds` (to try the time limit). No case matching: nothing returned.
 */
export interface FixtureCase {
	inputs?: Record<string, string>;
	result?: unknown;
	error?: string;
	delaySeconds?: number;
}

const fold = (text: unknown) =>
	String(text ?? '')
		.trim()
		.toLowerCase();

export function fixturePort(fixtures: ReadonlyMap<string, readonly FixtureCase[]>): WorkflowPort {
	return {
		call: async (name, inputs) => {
			const cases = fixtures.get(name);
			if (!cases)
				throw new Error(`No fixtures for the workflow "${name}" (give --call ${name}=FILE)`);
			const found = cases.find((c) =>
				Object.entries(c.inputs ?? {}).every(([key, value]) => fold(inputs[key]) === fold(value)),
			);
			if (found?.delaySeconds) await sleep(found.delaySeconds * 1000);
			if (found?.error !== undefined) throw new Error(found.error);
			return found?.result ?? undefined;
		},
	};
}

/** Reads `name=file.json` pairs, one per `--call` (a file's path may hold commas). */
export async function loadFixtures(pairs: readonly string[]): Promise<Map<string, FixtureCase[]>> {
	const fixtures = new Map<string, FixtureCase[]>();
	for (const pair of pairs) {
		const [name, file] = pair.split(/=(.*)/s, 2);
		if (!name || !file) throw new Error(`--call takes NAME=FILE.json, not "${pair}"`);
		const cases: unknown = await readFile(file, 'utf8').then(JSON.parse, (error: Error) => ({
			unreadable: error.message,
		}));
		if (cases && typeof cases === 'object' && 'unreadable' in cases)
			throw new Error(`--call ${name}: ${file} cannot be read: ${String(cases.unreadable)}`);
		if (!Array.isArray(cases))
			throw new Error(`--call ${name}: ${file} must hold a list of cases ({"inputs", "result"})`);
		fixtures.set(name.trim(), cases as FixtureCase[]);
	}
	return fixtures;
}
