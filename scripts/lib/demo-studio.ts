/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the demo launcher, never loaded by n8n */
import { readdirSync } from 'node:fs';
import path from 'node:path';

import { openCountersReadOnly } from '../../runtime/stores/read-only';
import { SqliteStore, statePathIn } from '../../runtime/stores/sqlite';
import { pageDir, trafficFrom } from '../../runtime/studio/server/command';
import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';

/** The example scenarios `npm start` opens in the studio. */
const EXAMPLE_SCENARIOS = path.join(__dirname, '..', '..', 'examples', 'scenarios');

/**
 * `npm start`'s studio: the example scenarios, with the traffic of the store the demo's n8n keeps
 * its conversations in (under its user folder). The store is made now, tables and all, so that the
 * studio reads its traffic from the start, before the first conversation.
 */
export async function startDemoStudio(
	userFolder: string,
	port: number,
): Promise<{ studio: RunningStudio; store: string }> {
	const store = statePathIn(userFolder);
	await new SqliteStore(store).close();
	const studio = await startStudio({
		traffic: trafficFrom(openCountersReadOnly(store)),
		files: readdirSync(EXAMPLE_SCENARIOS)
			.filter((f) => f.endsWith('.json'))
			.map((f) => path.join(EXAMPLE_SCENARIOS, f)),
		pageDir: pageDir(),
		port,
	});
	return { studio, store };
}
