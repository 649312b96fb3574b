/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end tooling: reads n8n's own execution records, never loaded by n8n */
import { createRequire } from 'node:module';

import { n8nCacheDir } from '../../scripts/lib/n8n-install';
import { psql } from './queue';

/**
 * What the Scenario node said, execution by execution, for some clients: read from n8n's own
 * database (queue mode saves every execution's data), for a failed run's report.
 */
export function scenarioOutputsFor(database: string, clientIds: string[], node = 'Steps'): string {
	// The Scenario node's items, and Run Due Work's (its failures name the conversation).
	// n8n stores run data with `flatted` (cycles kept); its own copy reads it.
	const flatted = createRequire(`${n8nCacheDir()}/node_modules/n8n/package.json`)('flatted') as {
		parse(text: string): unknown;
	};
	const rows = psql(
		`SELECT e.id || '|' || coalesce(to_char(e."startedAt", 'HH24:MI:SS.MS'), '') || '|' || e.status || '|' || replace(encode(convert_to(d.data, 'UTF8'), 'base64'), E'\\n', '')
		 FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id ORDER BY e.id`,
		database,
	)
		.split('\n')
		.filter(Boolean);
	const about = (text: string) => clientIds.some((c) => text.includes(c));
	const lines: string[] = [];
	for (const row of rows) {
		const [id, at, status, data] = row.split('|');
		const text = Buffer.from(data.replace(/\s/g, ''), 'base64').toString();
		if (!about(text)) continue;
		const run = flatted.parse(text) as {
			resultData?: {
				error?: { message?: string };
				runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json: unknown }>> } }>>;
			};
		};
		const runData = run.resultData?.runData ?? {};
		for (const [name, runs] of Object.entries(runData)) {
			if (name !== node && !name.includes('Due')) continue;
			for (const { json } of runs[0]?.data?.main?.[0] ?? [])
				if (about(JSON.stringify(json)))
					lines.push(`#${id} ${at} ${status} ${name}: ${JSON.stringify(json)}`);
		}
		const error = run.resultData?.error?.message;
		if (error) lines.push(`#${id} ${at} ${status} error: ${error}`);
	}
	return lines.join('\n');
}
