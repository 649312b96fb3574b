import { leanStep } from '../../runtime/scenarios/analytics/lean-step';
import { fullTally, stepTally } from '../../runtime/scenarios/analytics/tally';
import type { VersionCounts } from '../../runtime/scenarios/analytics/counter-keys';
import type { ConversationRecord } from '../../runtime/scenarios/durability/record';
import {
	notePath,
	noteStep,
	stepFacts,
	stepPath,
} from '../../runtime/scenarios/analytics/step-notes';
import { Chat, example, MINUTE } from './harness';

type Rec = ConversationRecord | undefined;
type Count = (before: Rec, after: ConversationRecord, now: number) => unknown;

/** A deep copy of a record, with the stepper's notes of `from` put on it again. */
function copy<R extends Rec>(record: R, from?: object): R {
	if (!record) return record;
	const made = JSON.parse(JSON.stringify(record)) as ConversationRecord;
	const facts = from && stepFacts(from);
	if (facts) noteStep(made, facts);
	return notePath(made, from && stepPath(from)) as R;
}

/** Counts as plain data, every field (zeros included) in order of name. */
function plain(counts: VersionCounts[]): unknown {
	const sorted = (hash: ReadonlyMap<string, number>) =>
		[...hash].sort(([a], [b]) => (a < b ? -1 : 1));
	return counts.map((c) => ({
		scenario: `${c.scenario.id}@${c.scenario.version}`,
		day: sorted(c.day),
		live: sorted(c.live),
		past: [...(c.past ?? [])].map(([d, h]) => [d, sorted(h)]).sort(),
	}));
}

/** What a count leaves on the record it counted. */
const marks = (r: ConversationRecord) => ({
	reached: r.reached,
	enteredAt: r.enteredAt,
	stop: r.stop,
	counted: r.outbox.map((e) => e.counted),
});

describe('the lean step counts what the full count does', () => {
	it('on every step of varied traffic, days and quiet times among it', async () => {
		const chat = new Chat([example('order-status')]);
		const conversations = (chat.engine as unknown as { conversations: { countersOf: Count } })
			.conversations;
		const own = conversations.countersOf.bind(conversations);
		let lean = 0;
		let compared = 0;
		conversations.countersOf = (before, after, now) => {
			// Both counts on copies, before the engine's own count takes the notes off `after`.
			if (stepFacts(after) || stepPath(after)) {
				const facts = stepFacts(after);
				if (leanStep(copy(before), copy(after, after), facts, stepPath(after), now)) lean++;
				const [a, b] = [copy(after, after), copy(after, after)];
				const quick = stepTally(copy(before), a, now);
				const full = fullTally(copy(before), b, { facts, path: stepPath(after) }, now);
				expect(plain(quick)).toEqual(plain(full));
				expect(marks(a)).toEqual(marks(b));
				compared++;
			}
			return own(before, after, now);
		};
		const clients = ['cl_grace', 'cl_x', 'cl_y', 'cl_w'];
		const script = [
			'hi',
			'where is my order',
			'not an email',
			'ada@example.com',
			'12',
			'1001',
			'order',
			'ada@example.com',
			'1002',
			'what?',
			'menu',
			'order',
			'human',
			'hello?',
			'restart',
			'track',
			'stop',
			'hi again',
			'order',
			'ada@example.com',
			'1001',
			'agent',
		];
		for (let i = 0; i < script.length; i++) {
			for (const [k, client] of clients.entries()) {
				// Quiet times of every length, and steps on both sides of midnight.
				chat.time += (k + 1) * (i % 5) * 7 * MINUTE + (i === 9 ? 20 * 60 * MINUTE : 0);
				await chat.say(script[(i + k) % script.length], client);
			}
			// And a client who keeps asking, as most do: the lean count's kind of step.
			const asks = ['hi', 'where is my order', 'ada@example.com'];
			await chat.say(i < 3 ? asks[i] : ['1001', 'order'][(i - 3) % 2], 'cl_ada');
			if (i % 6 === 5) await chat.wait(31);
		}
		// Both kinds of step, many of each.
		expect(compared).toBeGreaterThan(100);
		expect(lean).toBeGreaterThan(35);
		expect(compared - lean).toBeGreaterThan(35);
	});
});
