/* eslint-disable @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: timers while the service settles, never loaded by n8n */
import type { RunningEmulator } from '../emulator';
import { admin, sentTexts } from '../helpers/emulator';
import type { BurstPlan } from './burst';
import { until } from './conversation';

/**
 * What a burst left, judged: the service's deliveries settled, the transcripts read, each client's
 * replies checked against the one-at-a-time run of its messages (shared by the kill tests).
 */

type DeliveryView = {
	id: string;
	state: string;
	data: { message_id: string; client_id: string; text: string };
	attempts?: Array<{
		ok: boolean;
		error?: string | null;
		kind: string;
		status_code: number | null;
		response_body?: string;
	}>;
};

/** Waits until the service has nothing left to retry, then re-requests every dead letter. */
async function settleDeliveries(emulator: RunningEmulator): Promise<number> {
	for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
		const list = (
			await admin<DeliveryView[]>(emulator, 'GET', '/deliveries?event=message.received')
		).body.data;
		if (list.every((d) => d.state !== 'pending' && d.state !== 'awaiting_retry')) break;
		await sleep(1000);
	}
	const dead = (await admin<DeliveryView[]>(emulator, 'GET', '/dead-letter')).body.data;
	// As a user re-requests them from the dashboard, a few at a time.
	for (let i = 0; i < dead.length; i += 10)
		await Promise.all(
			dead
				.slice(i, i + 10)
				.map(async (d) => await admin(emulator, 'POST', `/dead-letter/${d.id}/redeliver`)),
		);
	return dead.length;
}

/**
 * Message ids the trigger acknowledged (its JSON 200 to some attempt of their delivery), and
 * those n8n itself answered 200 while starting up, before any node was loaded ("n8n is starting
 * up. Please wait"): the service counts those as delivered, though no node ever saw them.
 */
async function acknowledged(emulator: RunningEmulator): Promise<{
	byTrigger: Map<string, string>;
	byStartingN8n: string[];
	/** How the attempts were answered, by kind: `initial 200`, `retry 503`, `manual error`… */
	answers: Record<string, number>;
}> {
	const list = (await admin<DeliveryView[]>(emulator, 'GET', '/deliveries?event=message.received'))
		.body.data;
	const byTrigger = new Map<string, string>();
	const byStartingN8n: string[] = [];
	const answers: Record<string, number> = {};
	for (const summary of list) {
		const d = (await admin<DeliveryView>(emulator, 'GET', `/deliveries/${summary.id}`)).body.data;
		for (const a of d.attempts ?? []) {
			const answer = `${a.kind} ${a.status_code ?? (a.error ?? 'error').replace(/\d+/g, 'N')}`;
			answers[answer] = (answers[answer] ?? 0) + 1;
		}
		const ok = (d.attempts ?? []).filter((a) => a.ok);
		if (ok.some((a) => a.response_body?.includes('"received":true')))
			byTrigger.set(d.data.message_id, d.id);
		else if (ok.some((a) => a.response_body?.startsWith('n8n is starting up')))
			byStartingN8n.push(d.data.message_id);
	}
	return { byTrigger, byStartingN8n, answers };
}

export type Transcript = { clientId: string; replies: Array<{ state: number; text: string }> };

export async function transcripts(
	emulator: RunningEmulator,
	clientIds: string[],
): Promise<Transcript[]> {
	return await Promise.all(
		clientIds.map(async (clientId) => ({
			clientId,
			replies: (await sentTexts(emulator, clientId)).map((t) => {
				const m = /^s(\d+) got (.*)$/.exec(t);
				return { state: m ? Number(m[1]) : -1, text: m ? m[2] : t };
			}),
		})),
	);
}

export type Verdict = {
	messages: number;
	applied: number;
	duplicates: number;
	/** Steps with no reply: the reply in flight when n8n died, marked unknown, never re-sent. */
	unknown: number;
	/** Messages applied after one written later (their delivery came back after a kill). */
	late: number;
	/** Accepted by the service's view and never applied. */
	lost: number;
	/** A conversation stepped twice at once, or replies out of step order. */
	outOfStep: number;
};

/** Checks every transcript against the one-at-a-time run of the messages it applied. */
export function verdict(
	all: Transcript[],
	perClient: number,
	acked?: Map<string, string>,
	/** Each conversation's state in the store: a step whose reply never came shows there. */
	stored?: Map<string, number>,
): Verdict & { missing: string[] } {
	const v: Verdict & { missing: string[] } = {
		missing: [],
		messages: all.length * perClient,
		applied: 0,
		duplicates: 0,
		unknown: 0,
		late: 0,
		lost: 0,
		outOfStep: 0,
	};
	for (const { clientId, replies } of all) {
		const texts = replies.map((r) => r.text);
		for (let i = 1; i <= perClient; i++) {
			const id = `${clientId}-m${i}`;
			if (!texts.includes(`m${i}`) && (!acked || acked.has(id))) v.missing.push(id);
		}
		v.duplicates += texts.length - new Set(texts).size;
		v.applied += new Set(texts).size;
		// One at a time: step k follows step k-1; a gap is a reply whose outcome is unknown.
		let expected = 0;
		for (const r of replies) {
			if (r.state < expected) v.outOfStep++;
			else v.unknown += r.state - expected;
			expected = r.state + 1;
		}
		const last = stored?.get(clientId);
		if (last !== undefined && last >= expected) v.unknown += last - expected + 1;
		const order = texts.map((t) => Number(t.slice(1)));
		v.late += order.filter((n, i) => order.slice(0, i).some((earlier) => earlier > n)).length;
		v.lost += perClient - new Set(texts).size;
	}
	// A missing reply is either unknown (the step happened) or a lost message.
	v.lost -= v.unknown;
	return v;
}

/**
 * After the burst: waits for the service's retries, re-requests its dead letters, then waits
 * (up to 2 minutes: a lease of 60 s, a scheduled run every 5 s) for every message the trigger
 * acknowledged to be answered, and judges the transcripts.
 */
export async function outcome(
	emulator: RunningEmulator,
	clientIds: string[],
	plan: BurstPlan,
	stored: () => Promise<Stored> | Stored,
	/** Judge every message the clients wrote, not only those the trigger acknowledged. */
	everyWritten = false,
) {
	const deadLetters = await settleDeliveries(emulator);
	const { byTrigger, byStartingN8n, answers } = await acknowledged(emulator);
	const acked = everyWritten ? undefined : byTrigger;
	// Settled: no reply still leased or pending in the store (a lease runs out after 60 s).
	const judged = await until(
		async () => {
			const now = await stored();
			const v = verdict(
				await transcripts(emulator, clientIds.slice(0, plan.clients)),
				plan.perClient,
				acked,
				now.steps,
			);
			return { v, unsettled: now.unsettled };
		},
		({ v, unsettled }) => unsettled === 0 && v.missing.length <= v.unknown,
		150_000,
	);
	const history = (
		await admin<Array<{ method: string; path: string }>>(emulator, 'GET', '/requests')
	).body.data;
	const final = judged.v;
	return {
		final,
		acked: byTrigger,
		byStartingN8n,
		summary: {
			...final,
			unsettledReplies: judged.unsettled,
			missing: final.missing.slice(0, 10),
			acknowledged: byTrigger.size,
			answeredByStartingN8n: byStartingN8n.length,
			deadLettersRedelivered: deadLetters,
			answers,
			historyReads: history.filter(
				(r) => r.method === 'GET' && /^\/v1\/clients\/[^/]+\/messages$/.test(r.path),
			).length,
		},
	};
}

/** Every message the clients wrote judged, those n8n never passed on included (not only those acknowledged). */
export async function everyWritten(
	emulator: RunningEmulator,
	clientIds: string[],
	plan: BurstPlan,
	stored: Stored,
) {
	const all = await transcripts(emulator, clientIds.slice(0, plan.clients));
	return verdict(all, plan.perClient, undefined, stored.steps);
}

/**
 * What the store says: each conversation's step, replies still leased or pending, and the messages
 * the last reconciliation of each conversation healed from the client's history.
 */
export type Stored = {
	steps: Map<string, number>;
	unsettled: number;
	healed?: number;
	/** Reconciliations whose last note says what the history could not give. */
	healingProblems?: string[];
};

/** Reads stored conversation records (JSON, keyed `bot_shop:<client>`). */
export function storedFrom(records: Array<{ key: string; value: string }>): Stored {
	const steps = new Map<string, number>();
	let unsettled = 0;
	let healed = 0;
	const healingProblems: string[] = [];
	for (const { key, value } of records) {
		const record = JSON.parse(value) as {
			snapshot: { value: string };
			outbox: Array<{ status: string }>;
			healing?: { healed: string[]; unplaced: number; error?: string };
		};
		healed += record.healing?.healed.length ?? 0;
		if (record.healing?.error || record.healing?.unplaced)
			healingProblems.push(
				`${key}: ${record.healing.error ?? `${record.healing.unplaced} unplaced`}`,
			);
		steps.set(key.split(':').at(-1) as string, Number(record.snapshot.value.slice(1)));
		unsettled += record.outbox.filter(
			(e) => e.status === 'pending' || e.status === 'sending',
		).length;
	}
	return { steps, unsettled, healed, healingProblems };
}

/** The promises, checked: every acknowledged message applied once, in step, no reply twice. */
export function expectKept(final: ReturnType<typeof verdict>, plan: BurstPlan, maxUnknown: number) {
	expect(final.messages).toBe(plan.clients * plan.perClient);
	// A missing reply is one whose outcome is unknown: the step happened, the send was in flight.
	expect(final.missing.length).toBeLessThanOrEqual(final.unknown);
	expect(final.duplicates).toBe(0);
	expect(final.outOfStep).toBe(0);
	expect(final.unknown).toBeLessThanOrEqual(maxUnknown);
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
