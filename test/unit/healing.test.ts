import type { ConversationRecord } from '../../runtime/scenarios/durability/record';
import {
	missingFrom,
	showsMessage,
	type InboundItem,
} from '../../runtime/scenarios/engine/healing/missing';

const T = Date.parse('2026-05-01T10:00:00Z');
const at = (s: number) => new Date(T + s * 1000).toISOString();

/** A client's message in the history, as the API client reads it (A24). */
const inbound = (
	id: string | undefined,
	s: number | undefined,
	extra: Partial<InboundItem> = {},
) => ({
	...(id === undefined ? {} : { message_id: id }),
	bot_id: 'bot_shop',
	direction: 'inbound',
	text: `text of ${id}`,
	...(s === undefined ? {} : { timestamp: at(s) }),
	...extra,
});
const reply = (s: number) => ({
	bot_id: 'bot_shop',
	direction: 'outbound',
	text: 'ok',
	timestamp: at(s),
});

function record(over: Partial<ConversationRecord> = {}): ConversationRecord {
	return {
		format: 1,
		botId: 'bot_shop',
		clientId: 'cl_ada',
		scenario: { id: 'x', version: 1 },
		snapshot: { value: 's', context: {} } as ConversationRecord['snapshot'],
		ended: false,
		handled: ['m1', 'm2'],
		outbox: [],
		timer: null,
		seq: 0,
		updatedAt: T,
		lastSentAt: T + 2000,
		lastInbound: { id: 'm2', at: T + 2000 },
		...over,
	};
}

const ids = (history: InboundItem[], r = record()) =>
	missingFrom(history, r).messages.map((m) => m.message_id);

describe('what the history shows a conversation has not applied', () => {
	it('takes the client messages after the last one applied, in the history order, as healed events', () => {
		const history = [
			inbound('m1', 1),
			reply(1),
			inbound('m2', 2),
			reply(2),
			inbound('m3', 3),
			inbound('m4', 4),
		];
		const found = missingFrom(history, record());
		expect(found.messages).toEqual([
			{
				message_id: 'm3',
				client_id: 'cl_ada',
				bot_id: 'bot_shop',
				text: 'text of m3',
				timestamp: at(3),
				healed: true,
			},
			expect.objectContaining({ message_id: 'm4', timestamp: at(4), healed: true }),
		]);
		expect([found.unplaced, found.inbound, found.unplaceable]).toEqual([0, 4, undefined]);
	});

	it('leaves out what was applied, what other bots were written, and the bot replies', () => {
		const history = [
			inbound('m2', 2),
			inbound('m3', 3),
			inbound('other', 3.5, { bot_id: 'bot_support' }),
			inbound('m4', 4),
		];
		expect(ids(history, record({ handled: ['m1', 'm2', 'm4'] }))).toEqual(['m3']);
		// A message of no named bot is taken as this bot's: the history is the client's with it.
		expect(ids([inbound('m2', 2), inbound('m5', 5, { bot_id: undefined })])).toEqual(['m5']);
	});

	it('places by time when the last message applied is not in the history (shown under another id)', () => {
		const history = [inbound('x1', 1), inbound('x2', 2), inbound('x3', 3)];
		// From the last applied message's time on, what it did not apply.
		expect(ids(history, record({ handled: ['x2'] }))).toEqual(['x3']);
		// Without its own time, the conversation's latest.
		expect(
			ids(history, record({ handled: [], lastInbound: undefined, lastSentAt: T + 3000 })),
		).toEqual(['x3']);
	});

	it('counts what it cannot place, an item without an id or without a time, and heals the rest', () => {
		const history = [
			inbound('m2', 2),
			inbound(undefined, 3),
			inbound('m4', undefined),
			inbound('m5', 5),
		];
		const found = missingFrom(history, record());
		expect(found.messages.map((m) => m.message_id)).toEqual(['m5']);
		expect(found.unplaced).toBe(2);
	});

	it('says when nothing the conversation applied can be found in the history', () => {
		const history = [inbound('x1', 1), inbound('x2', 2)];
		const found = missingFrom(history, record({ lastInbound: undefined, lastSentAt: undefined }));
		expect(found.messages).toEqual([]);
		expect(found.unplaceable).toMatch(/does not show the conversation's last message/);
		// Its last message found by id needs no time.
		expect(
			ids(history, record({ lastInbound: { id: 'x1' }, lastSentAt: undefined, handled: [] })),
		).toEqual(['x2']);
	});

	it('counts the client messages it shows: none at all means it lists none', () => {
		expect(missingFrom([reply(1), reply(2)], record()).inbound).toBe(0);
		expect(missingFrom([{ text: 'no direction', timestamp: at(3) }], record()).inbound).toBe(0);
	});
});

describe('whether the history has caught up with a message in hand (A39)', () => {
	const message = { message_id: 'm4', timestamp: at(4) };
	it('shows it by its id, or by a client message written at its time or later', () => {
		expect(showsMessage([inbound('m4', undefined)], message)).toBe(true);
		expect(showsMessage([inbound('zz', 4)], message)).toBe(true);
		expect(showsMessage([inbound('m3', 3), reply(5)], message)).toBe(false);
		expect(showsMessage([inbound('m3', 3)], { message_id: 'm4' })).toBe(false);
	});
});
