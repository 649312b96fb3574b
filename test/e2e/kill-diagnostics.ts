/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end tooling: reads the state store n8n wrote, never loaded by n8n */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { N8nOptions } from '../../scripts/lib/n8n-process';
import type { RunningEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { BURST_SCOPE } from './burst';

/** What a failing kill test prints: the store's view and the service's, per message. */

/** What the store says of the conversations of messages not answered: for a failing run. */
export function explain(o: N8nOptions, messageIds: string[]): string {
	const db = new DatabaseSync(path.join(o.userFolder, '.n8n', 'messaging-bot', 'state.sqlite'), {
		readOnly: true,
	});
	try {
		return messageIds
			.map((id) => {
				const client = id.replace(/-m\d+$/, '');
				const key = `bot_shop:${client}`;
				const row = db
					.prepare('SELECT value, version, expires FROM records WHERE ns = ? AND key = ?')
					.get(`scenario:${BURST_SCOPE}`, key) as
					| { value: string; version: number; expires: number }
					| undefined;
				const entries = db
					.prepare('SELECT seq, at, value FROM inbox WHERE ns = ? AND queue = ?')
					.all(`inbox:${BURST_SCOPE}`, key) as Array<{
					seq: number;
					at: number;
					value: string;
				}>;
				const queued = entries.map(
					(e) => `${e.seq}@${e.at}:${(JSON.parse(e.value) as { message_id: string }).message_id}`,
				);
				const record = row ? (JSON.parse(row.value) as Record<string, unknown>) : undefined;
				const inbox = db
					.prepare('SELECT COUNT(*) AS n FROM inbox WHERE ns = ? AND queue = ?')
					.get(`inbox:${BURST_SCOPE}`, key) as { n: number };
				return `${id}: now ${Date.now()} version ${row?.version} expires ${row?.expires} updatedAt ${String(record?.updatedAt)} queued ${JSON.stringify(queued)} inbox ${inbox.n}, state ${JSON.stringify((record?.snapshot as { value?: string })?.value)}, handled ${JSON.stringify(record?.handled)}, outbox ${JSON.stringify(record?.outbox)}, lastInbound ${JSON.stringify(record?.lastInbound)}, healing ${JSON.stringify(record?.healing)}`;
			})
			.join('\n');
	} finally {
		db.close();
	}
}

export function countBy(values: number[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
	return counts;
}

/** When each message was written and each attempt of its delivery made, for a failing run. */
export async function timelines(
	emulator: RunningEmulator,
	ids: string[],
	t0: number,
): Promise<string> {
	type Attempt = {
		kind: string;
		started_at: string;
		status_code: number | null;
		error: string | null;
		response_body?: string;
	};
	const list = (
		await admin<Array<{ id: string; created_at: string; data: { message_id: string } }>>(
			emulator,
			'GET',
			'/deliveries?event=message.received',
		)
	).body.data;
	const lines: string[] = [];
	for (const id of ids) {
		const summary = list.find((d) => d.data.message_id === id);
		if (!summary) continue;
		const d = (await admin<{ attempts: Attempt[] }>(emulator, 'GET', `/deliveries/${summary.id}`))
			.body.data;
		const at = (iso: string) => Date.parse(iso) - t0;
		lines.push(
			`${id} written ${at(summary.created_at)}: ${d.attempts
				.map(
					(a) =>
						`${a.kind}@${at(a.started_at)} ${a.status_code ?? a.error}${a.response_body?.includes('received') ? ' ack' : ''}`,
				)
				.join(', ')}`,
		);
	}
	// Each skipped client's history reads, and when each of its messages was first acknowledged.
	const requests = (
		await admin<Array<{ at: string | number; method: string; path: string }>>(
			emulator,
			'GET',
			'/requests',
		)
	).body.data;
	for (const client of new Set(ids.map((id) => id.replace(/-m\d+$/, '')))) {
		const reads = requests
			.filter((r) => r.method === 'GET' && r.path.endsWith(`/clients/${client}/messages`))
			.map((r) => (typeof r.at === 'number' ? r.at : Date.parse(r.at)) - t0);
		const acks: string[] = [];
		for (const d of list.filter((x) => x.data.message_id.startsWith(`${client}-`))) {
			const full = (await admin<{ attempts: Attempt[] }>(emulator, 'GET', `/deliveries/${d.id}`))
				.body.data;
			const ack = full.attempts.find((a) => a.response_body?.includes('received'));
			acks.push(`${d.data.message_id.slice(-3)}:${ack ? Date.parse(ack.started_at) - t0 : '-'}`);
		}
		lines.push(`${client} history reads at ${reads.join(', ')}; first acks ${acks.join(' ')}`);
	}
	return `\n${lines.join('\n')}`;
}
