import type { IDataObject } from 'n8n-workflow';

import type { ScenarioOperation } from './types';

/**
 * Get Versions: the scenario versions the store has seen, the latest first, each with its dates
 * and the conversations still running on it.
 */
export const getVersions: ScenarioOperation = {
	description: [],
	async execute(engine) {
		const versions = await engine.versions();
		return [
			versions.map((v) => ({
				json: {
					scenario: v.id,
					version: v.version,
					live: v.live,
					conversations: v.conversations,
					hash: v.hash,
					first_seen: new Date(v.firstSeen).toISOString(),
					last_seen: new Date(v.lastSeen).toISOString(),
				} as IDataObject,
			})),
			[],
		];
	},
};
