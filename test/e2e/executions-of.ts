/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end tooling: reads n8n's own execution records, never loaded by n8n */
import { createRequire } from 'node:module';

import { n8nCacheDir } from '../../scripts/lib/n8n-install';
import { psql } from './queue';

type NodeRuns = Record<string, Array<{ data?: { main?: Array<Array<{ json: unknown }>> } }>>;

interface SavedRun {
	id: string;
	/** When it started, as n8n saved it (HH:MM:SS.mmm). */
	at: string;
	startedMs: number;
	status: string;
	text: string;
	runData: NodeRuns;
	error?: string;
}

/** Every saved execution with its data, read from n8n's own database (queue mode saves them all). */
function savedRuns(database: string): SavedRun[] {
	// n8n stores run data with `flatted` (cycles kept); its own copy reads it.
	const flatted = createRequire(`${n8nCacheDir()}/node_modules/n8n/package.json`)('flatted') as {
		parse(text: string): unknown;
	};
	const rows = psql(
		`SELECT e.id || '|' || coalesce(to_char(e."startedAt", 'HH24:MI:SS.MS'), '') || '|' || coalesce((extract(epoch from e."startedAt") * 1000)::bigint, 0) || '|' || e.status || '|' || replace(encode(convert_to(coalesce(d.data, ''), 'UTF8'), 'base64'), E'\\n', '')
		 FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id ORDER BY e.id`,
		database,
	)
		.split('\n')
		.filter(Boolean);
	return rows.map((row) => {
		const [id, at, started, status, data] = row.split('|');
		const text = Buffer.from(data.replace(/\s/g, ''), 'base64').toString();
		// An execution still running may have no data yet.
		const run = (text ? flatted.parse(text) : {}) as {
			resultData?: { error?: { message?: string }; runData?: NodeRuns };
		};
		const error = run.resultData?.error?.message;
		return {
			id,
			at,
			startedMs: Number(started),
			status,
			text,
			runData: run.resultData?.runData ?? {},
			...(error ? { error } : {}),
		};
	});
}

function items(runs: NodeRuns[string]): unknown[] {
	return (runs[0]?.data?.main?.[0] ?? []).map((i) => i.json);
}

/**
 * What the Scenario node said, execution by execution, for some clients, and Run Due Work's items
 * about them (its failures name the conversation): for a failed run's report.
 */
export function scenarioOutputsFor(database: string, clientIds: string[], node = 'Steps'): string {
	const about = (text: string) => clientIds.some((c) => text.includes(c));
	const lines: string[] = [];
	for (const run of savedRuns(database)) {
		if (!about(run.text)) continue;
		for (const [name, runs] of Object.entries(run.runData)) {
			if (name !== node && !name.includes('Due')) continue;
			for (const json of items(runs))
				if (about(JSON.stringify(json)))
					lines.push(`#${run.id} ${run.at} ${run.status} ${name}: ${JSON.stringify(json)}`);
		}
		if (run.error) lines.push(`#${run.id} ${run.at} ${run.status} error: ${run.error}`);
	}
	return lines.join('\n');
}

/**
 * Every execution started since `sinceMs` (epoch ms): its status and, for Run Due Work, its
 * summary and failures, for a report of what the scheduled runs did while replies waited.
 */
export function runsSince(database: string, sinceMs: number): string {
	const lines: string[] = [];
	for (const run of savedRuns(database)) {
		// Not started yet (queued): startedAt is empty.
		if (run.startedMs && run.startedMs < sinceMs) continue;
		const when = run.startedMs
			? `+${Math.round((run.startedMs - sinceMs) / 1000)} s`
			: 'never started';
		const at = `#${run.id} ${when} ${run.status}`;
		const due = Object.entries(run.runData).find(([name]) => name.includes('Due'));
		const said = due
			? items(due[1]).filter((j) => (j as { status?: string }).status !== 'reply')
			: [];
		lines.push(
			`${at}${said.length ? ` due: ${JSON.stringify(said)}` : ''}${run.error ? ` error: ${run.error}` : ''}`,
		);
	}
	return lines.join('\n');
}
