/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { initialTransition, transition } from 'xstate';

import { ScenarioEngine, type MessageReceived, type PersistedSnapshot } from '../runtime/scenarios';
import type { StateStore } from '../runtime/stores';
import { SqliteStore } from '../runtime/stores/sqlite';
import { HistoryApi } from './history-api';
import { handleConcurrently } from './lib';
import { clients, order } from './order-traffic';

/** One timed run of the throughput bench: bare xstate, or the engine with a store. */
export type Run = {
	ms: number;
	latencies: number[];
	replies: number;
	commits?: number;
	/** Reads of a client's history for healing: none without a restart. */
	historyReads?: number;
	/** This process's CPU time per timed message. */
	cpuUs: number;
};

/** The floor: what xstate alone costs per message with the snapshot stored as JSON. */
export function bareXstate(events: MessageReceived[]): Run {
	const stored = new Map<string, string>();
	const latencies: number[] = [];
	let replies = 0;
	const started = performance.now();
	for (const e of events) {
		const t = performance.now();
		const json = stored.get(e.client_id);
		const message = { text: e.text, message_id: e.message_id };
		const [snapshot, actions] = json
			? transition(
					order.machine,
					order.machine.resolveState(JSON.parse(json) as PersistedSnapshot),
					// The client's record read for the step, as the engine hands it (orders included).
					{ type: 'MESSAGE', message, client: clients[Number(e.client_id.slice(3))] },
				)
			: initialTransition(order.machine, { client: { id: e.client_id, tags: [] }, message });
		replies += actions.filter((a) => a.type === 'reply').length;
		stored.set(e.client_id, JSON.stringify(order.persist(snapshot)));
		latencies.push(performance.now() - t);
	}
	return { ms: performance.now() - started, latencies, replies, cpuUs: 0 };
}

export async function throughEngine(
	store: StateStore,
	events: MessageReceived[],
	concurrency: number,
): Promise<Run> {
	// With a history to heal from, as the node's API client has: what healing costs without a crash.
	const api = new HistoryApi(clients);
	const engine = new ScenarioEngine({
		scenarios: [order],
		store,
		api,
		clock: { now: () => Date.now() },
	});
	const latencies: number[] = [];
	const commitsBefore = store instanceof SqliteStore ? store.commits : undefined;
	const cpu = process.cpuUsage();
	const started = performance.now();
	await handleConcurrently(async (e) => await engine.handle(e), events, concurrency, latencies);
	const ms = performance.now() - started;
	const used = process.cpuUsage(cpu);
	const commits =
		commitsBefore === undefined ? undefined : (store as SqliteStore).commits - commitsBefore;
	const cpuUs = (used.user + used.system) / events.length;
	return { ms, latencies, replies: api.calls.length, commits, historyReads: api.reads, cpuUs };
}

/** Runs with a fresh store from `open`, closed after. */
export async function withStore(
	open: () => StateStore,
	events: MessageReceived[],
	concurrency: number,
): Promise<Run> {
	const store = open();
	try {
		return await throughEngine(store, events, concurrency);
	} finally {
		await store.close();
	}
}
