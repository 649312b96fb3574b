import {
	newcomerPlacement,
	NEWCOMER_SETTLE_MS,
	recordNeeds,
	RETRIED_AFTER_MS,
} from '../../runtime/scenarios/engine/healing/need';
import type { ConversationRecord } from '../../runtime/scenarios/durability/record';
import { HealingSession } from '../../runtime/scenarios/engine/healing/session';
import type { Inbound, MessageReceived } from '../../runtime/scenarios/engine/inbox';

const HORIZON = 15 * 60_000;
const START = 1_000_000_000;
const KEY = 'bot_shop:cl_grace';

const message = (at: number): MessageReceived => ({
	message_id: `m${at}`,
	client_id: 'cl_grace',
	bot_id: 'bot_shop',
	text: 'hi',
	timestamp: new Date(at).toISOString(),
});
const queued = (acceptedAt: number): Inbound => ({
	message: message(acceptedAt),
	seq: 1,
	at: acceptedAt,
});

function facts(now: number, followsAnother = false, firstDelivery: number | undefined = START) {
	const session = new HealingSession(START);
	session.firstDelivery = firstDelivery;
	return { session, horizonMs: HORIZON, now, followsAnother };
}

// Whether a conversation with no record is healed, and from when its client's messages count.
describe('newcomerPlacement', () => {
	it('places a conversation whose inbox holds a message accepted before the process began', () => {
		const placement = newcomerPlacement(KEY, { queued: [queued(START - 5000)] }, facts(START + 10));
		expect(placement).toEqual({
			botId: 'bot_shop',
			clientId: 'cl_grace',
			handled: [],
			lastSentAt: START - HORIZON,
		});
	});

	it('places one the scheduled run found noted active before the process began', () => {
		const context = { activeBefore: true, queued: [queued(START + 5)] };
		expect(newcomerPlacement(KEY, context, facts(START + 10))).toBeDefined();
	});

	it("after a restart, places a new client's message written in the first seconds of serving", () => {
		const early = { anchor: message(START + NEWCOMER_SETTLE_MS - 1) };
		const later = { anchor: message(START + NEWCOMER_SETTLE_MS + 1) };
		expect(newcomerPlacement(KEY, early, facts(START + 10, true))).toBeDefined();
		expect(newcomerPlacement(KEY, later, facts(START + 10, true))).toBeUndefined();
		// A first start (no process served the scope before): nothing to heal, nothing read.
		expect(newcomerPlacement(KEY, early, facts(START + 10, false))).toBeUndefined();
		// A message without a time gives no sign.
		const timeless = { anchor: { ...message(START), timestamp: undefined } };
		expect(newcomerPlacement(KEY, timeless, facts(START + 10, true))).toBeUndefined();
	});

	it('places each conversation once, again on its first delivery after a provisional reading', () => {
		const f = facts(START + 10, false, undefined);
		const context = { queued: [queued(START - 5000)] };
		f.session.healedAt.set(KEY, START + 5);
		expect(newcomerPlacement(KEY, context, f)).toBeUndefined();
		f.session.firstDelivery = START + 8;
		expect(newcomerPlacement(KEY, { ...context, anchor: message(START + 8) }, f)).toBeDefined();
		f.session.healedAt.set(KEY, START + 9);
		expect(newcomerPlacement(KEY, { ...context, anchor: message(START + 8) }, f)).toBeUndefined();
	});

	it('places nothing once the horizon has passed since the process began', () => {
		const context = { queued: [queued(START - 5000)] };
		expect(newcomerPlacement(KEY, context, facts(START + HORIZON + 1))).toBeUndefined();
	});
});

// A conversation with a record, served by this process since before its last step: only a
// message that came by a retry says the client's earlier ones may never have reached a process.
describe('recordNeeds for a message that came by a retry', () => {
	const WRITTEN = START + 60_000;
	const record = (lastSentAt: number) =>
		({ updatedAt: START + 1, lastSentAt, outbox: [] }) as unknown as ConversationRecord;

	it('heals on a delivery past the retry threshold, once per reading that lists it', () => {
		const f = facts(WRITTEN + RETRIED_AFTER_MS + 1);
		const anchor = message(WRITTEN);
		expect(
			recordNeeds(KEY, record(WRITTEN - 500), facts(WRITTEN + 300), { anchor }),
		).toBeUndefined();
		expect(recordNeeds(KEY, record(WRITTEN - 500), f, { anchor })).toEqual({ why: 'retried' });
		// Read before the message was listed: read again. Read after: its predecessors are known.
		f.session.healedAt.set(KEY, WRITTEN + 1000);
		expect(recordNeeds(KEY, record(WRITTEN - 500), f, { anchor })).toEqual({ why: 'retried' });
		f.session.healedAt.set(KEY, WRITTEN + 2500);
		expect(recordNeeds(KEY, record(WRITTEN - 500), f, { anchor })).toBeUndefined();
	});

	it('reads nothing for a retried message already late, or one without a time', () => {
		const f = facts(WRITTEN + RETRIED_AFTER_MS + 1);
		expect(recordNeeds(KEY, record(WRITTEN + 1), f, { anchor: message(WRITTEN) })).toBeUndefined();
		const timeless = { ...message(WRITTEN), timestamp: undefined };
		expect(recordNeeds(KEY, record(WRITTEN - 500), f, { anchor: timeless })).toBeUndefined();
		expect(recordNeeds(KEY, record(WRITTEN - 500), f)).toBeUndefined();
	});
});

describe('recordNeeds for a lease that ran out', () => {
	it('names the takeover once per lease and writes nothing into the session (the healer notes it)', () => {
		const f = facts(START + 60_000);
		const lease = { owner: 'w1', until: START + 30_000 };
		const record = {
			updatedAt: START + 1,
			outbox: [{ status: 'sending', lease }],
		} as unknown as ConversationRecord;
		const need = recordNeeds(KEY, record, f);
		expect(need).toEqual({ why: 'takeover', takeover: `${KEY}@${lease.until}` });
		expect(f.session.takeovers.size).toBe(0);
		f.session.takeovers.add(`${KEY}@${lease.until}`);
		expect(recordNeeds(KEY, record, f)).toBeUndefined();
	});
});

// The scheduled run about to apply a stuck inbox: its latest message is checked as a delivery that
// came by a retry would be, so messages that failed around it are read from the history first.
describe('a stuck inbox, in the scheduled run', () => {
	const WRITTEN = START + 60_000;
	const record = { updatedAt: START + 1, lastSentAt: WRITTEN - 500, outbox: [] };

	it('heals a recorded conversation once per reading that lists its latest message', () => {
		const f = facts(WRITTEN + RETRIED_AFTER_MS + 1);
		const stuck = message(WRITTEN);
		const stored = record as unknown as ConversationRecord;
		expect(recordNeeds(KEY, stored, f, { stuck })).toEqual({ why: 'retried' });
		f.session.healedAt.set(KEY, WRITTEN + 2500);
		expect(recordNeeds(KEY, stored, f, { stuck })).toBeUndefined();
	});

	it('places a conversation with no record from the horizon before its earliest message', () => {
		const f = facts(START + HORIZON + WRITTEN);
		const stuck = message(WRITTEN);
		const queued = [
			{ message: message(WRITTEN - 2000), seq: 1, at: WRITTEN - 1000 },
			{ message: stuck, seq: 2, at: WRITTEN + 1 },
		];
		expect(newcomerPlacement(KEY, { queued, stuck }, f)).toEqual({
			botId: 'bot_shop',
			clientId: 'cl_grace',
			handled: [],
			lastSentAt: WRITTEN - 2000 - HORIZON,
		});
		f.session.healedAt.set(KEY, WRITTEN + 2500);
		expect(newcomerPlacement(KEY, { queued, stuck }, f)).toBeUndefined();
	});
});
