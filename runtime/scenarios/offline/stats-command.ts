/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the CLI runs in a terminal, never loaded by n8n */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { openStateStore } from '../../stores/open';
import { isPostgresUrl } from '../../stores/postgres-options';
import { readAnalytics, type AnalyticsReport, type VersionFunnel } from '../analytics/reading';
import type { CliIo } from './chat';
import { splitTable } from './split-table';

export const STATS_USAGE = `  stats --store <sqlite file | redis URL | postgres URL> [--scenario ID] [--from DAY --to DAY] [--per-day] [--quiet-hours H]
                     the funnel of every scenario version in a state store (days: YYYY-MM-DD,
                     UTC; default the last 7 days); a conversation quiet for H hours (default
                     24) in the state it stopped in counts as dropped there; then each split
                     test's variants with their verdict`;

const DAY = 86_400_000;

/** `stats`: the Get Analytics funnel of a store, as a table. Returns the exit code. */
export async function runStats(
	args: readonly string[],
	io: CliIo,
	now = Date.now(),
): Promise<number> {
	const options = statsOptions(args, io);
	if (typeof options === 'number') return options;
	const { values, quietHours, where } = options;
	const redis = /^rediss?:\/\//.test(where);
	if (!redis && !isPostgresUrl(where) && !existsSync(where)) {
		io.err(`No state store file at ${where}\n`);
		return 1;
	}
	const store = openStateStore(where);
	try {
		const to = values.to ?? new Date(now).toISOString().slice(0, 10);
		const from = values.from ?? new Date(Date.parse(to) - 6 * DAY).toISOString().slice(0, 10);
		const report = await readAnalytics(store, {
			from,
			to,
			perDay: values['per-day'] ?? false,
			now,
			quietMs: quietHours * 3_600_000,
			...(values.scenario === undefined ? {} : { scenario: values.scenario }),
		});
		io.out(statsTable(report));
		return 0;
	} catch (error) {
		io.err(`${(error as Error).message}\n`);
		return 1;
	} finally {
		await store.close();
	}
}

interface StatsValues {
	store?: string;
	scenario?: string;
	from?: string;
	to?: string;
	'per-day'?: boolean;
	'quiet-hours'?: string;
}

/** The command's options, or the exit code of a usage error (said on `io`). */
function statsOptions(
	args: readonly string[],
	io: CliIo,
): { values: StatsValues; quietHours: number; where: string } | number {
	let values: StatsValues;
	try {
		values = parseArgs({
			args: [...args],
			options: {
				store: { type: 'string' },
				scenario: { type: 'string' },
				from: { type: 'string' },
				to: { type: 'string' },
				'per-day': { type: 'boolean' },
				'quiet-hours': { type: 'string' },
			},
			strict: true,
		}).values;
	} catch (error) {
		io.err(`${(error as Error).message}\n\nUsage:\n${STATS_USAGE}\n`);
		return 2;
	}
	const quietHours = Number(values['quiet-hours'] ?? 24);
	if (!Number.isFinite(quietHours) || quietHours < 0) {
		io.err(`--quiet-hours must be a number of hours, 0 or more (got ${values['quiet-hours']})\n`);
		return 2;
	}
	if (!values.store) {
		io.err(`stats needs --store\n\nUsage:\n${STATS_USAGE}\n`);
		return 2;
	}
	return { values, quietHours, where: values.store };
}

const pct = (share: number | null) => (share === null ? '-' : `${Math.round(share * 100)}%`);

function duration(ms: number | null): string {
	if (ms === null) return '-';
	const s = Math.round(ms / 1000);
	if (s < 120) return `${s}s`;
	if (s < 7200) return `${Math.round(s / 60)}m`;
	if (s < 172_800) return `${Math.round(s / 3600)}h`;
	return `${Math.round(s / 86_400)}d`;
}

/** The report as plain-text tables, one per scenario version (and day). */
function statsTable(report: AnalyticsReport): string {
	if (report.versions.length === 0)
		return `No conversations counted from ${report.from} to ${report.to}.\n`;
	const splits = report.splits.map((split) => splitTable(split, report.from, report.to));
	return [...report.versions.map(versionTable), ...splits].join('\n');
}

function versionTable(v: VersionFunnel): string {
	const period = v.from === v.to ? v.from : `${v.from} to ${v.to}`;
	const header = [
		'state',
		'reached',
		'visits',
		'ended',
		'handed off',
		'dropped',
		'share',
		'in progress',
		'to next',
		'now',
		'went on to',
	];
	const rows = v.states.map((s) => [
		s.state,
		String(s.reached),
		String(s.visits),
		String(s.completed),
		String(s.handedOff),
		String(s.dropped),
		pct(s.dropOffShare),
		String(s.inProgress),
		duration(s.medianToNextMs),
		String(s.now),
		[
			...s.edges.map((e) => `${e.to} ${e.count}`),
			...s.keywordEdges.map((e) => `${e.to} ${e.count} (keyword)`),
		].join(', '),
	]);
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		cells
			.map((c, i) =>
				i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]),
			)
			.join('  ')
			.trimEnd();
	const s = v.summary;
	const calls = Object.entries(s.calls).map(([outcome, n]) => `${outcome} ${n}`);
	return [
		`${v.scenario} v${v.version}, ${period} (conversations of ${v.scope})`,
		line(header),
		...rows.map(line),
		`conversations ${s.conversations}, completed ${s.completed} (${pct(s.completionRate)}), handed off ${s.handoffs} (${pct(s.handoffRate)}), released ${s.releases}; stopped: dropped ${s.dropped}, in progress ${s.inProgress}`,
		`messages ${s.messages}, fallback answers ${s.fallbacks} (${pct(s.fallbackRate)}), late ${s.lateMessages}; replies sent ${s.replies.sent}, unknown ${s.replies.unknown}, failed ${s.replies.failed}${calls.length > 0 ? `; calls ${calls.join(', ')}` : ''}`,
		'',
	].join('\n');
}
