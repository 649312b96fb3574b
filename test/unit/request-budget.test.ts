import { LocalWindow } from '../../runtime/api/budget/local-window';
import { RequestBudget } from '../../runtime/api/budget/request-budget';
import type { SlotRequest } from '../../runtime/api/budget/types';
import { ManualClock, settle } from '../helpers/manual-clock';

/** A budget of `limit` per `windowMs` (margin: windowMs / 20) and a log of who got a slot when. */
function budgetOf(limit: number, windowMs: number) {
	const clock = new ManualClock();
	const budget = new RequestBudget(new LocalWindow(limit, windowMs, clock), clock);
	const served: Array<{ who: string; at: number }> = [];
	// Each request is answered at once: its slot counts from when it was granted.
	const ask = (who: string, request: SlotRequest) =>
		budget.acquire(request).then((slot) => {
			served.push({ who, at: clock.now() });
			slot.settle();
		});
	return { clock, budget, served, ask };
}

const bulk = (lane = 'job'): SlotRequest => ({ priority: 'bulk', lane });
const reply = (lane: string): SlotRequest => ({ priority: 'interactive', lane });

describe('request budget', () => {
	it('serves at most the limit in any window, the rest as the window frees', async () => {
		const { clock, served, ask } = budgetOf(3, 1_000);
		for (let i = 0; i < 7; i++) void ask(`r${i}`, bulk());
		await clock.advance(5_000);
		// Span = 1,000 ms + 10 ms margin.
		expect(served.map((s) => s.at)).toEqual([0, 0, 0, 1_010, 1_010, 1_010, 2_020]);
	});

	it('gives the next free slot to a reply that arrives behind a queued bulk job', async () => {
		const { clock, served, ask } = budgetOf(2, 1_000);
		for (let i = 0; i < 10; i++) void ask(`tag${i}`, bulk());
		await clock.advance(500);
		void ask('reply', reply('bot/ada'));
		await clock.advance(5_000);
		const order = served.map((s) => s.who);
		expect(order.slice(0, 3)).toEqual(['tag0', 'tag1', 'reply']);
		expect(served[2].at).toBe(1_010);
	});

	it('lets lanes take turns, so one big job never starves another', async () => {
		const { clock, served, ask } = budgetOf(1, 100);
		for (let i = 0; i < 4; i++) void ask(`a${i}`, bulk('job-a'));
		for (let i = 0; i < 2; i++) void ask(`b${i}`, bulk('job-b'));
		await clock.advance(2_000);
		expect(served.map((s) => s.who)).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'a3']);
	});

	it('lets conversations take turns among replies, ahead of bulk work', async () => {
		const { clock, served, ask } = budgetOf(1, 100);
		void ask('tag', bulk());
		await settle();
		for (let i = 0; i < 3; i++) void ask(`chatty${i}`, reply('bot/chatty'));
		void ask('quiet', reply('bot/quiet'));
		void ask('tag2', bulk());
		await clock.advance(2_000);
		expect(served.map((s) => s.who)).toEqual([
			'tag',
			'chatty0',
			'quiet',
			'chatty1',
			'chatty2',
			'tag2',
		]);
	});

	it('holds back every caller already waiting when a 429 sets a block', async () => {
		const { clock, budget, served, ask } = budgetOf(2, 1_000);
		for (let i = 0; i < 6; i++) void ask(`r${i}`, bulk());
		await clock.advance(100);
		expect(served).toHaveLength(2);
		// The service answered 429 with Retry-After: 5 s; the window would free at 1,010 ms.
		await budget.block(5_000);
		await clock.advance(10_000);
		expect(served.slice(2).every((s) => s.at >= 5_100)).toBe(true);
		expect(served.map((s) => s.at)).toEqual([0, 0, 5_100, 5_100, 6_110, 6_110]);
	});

	it('gives bulk work the whole window on a key that answers no client', async () => {
		const { clock, served, ask } = budgetOf(100, 60_000);
		for (let i = 0; i < 300; i++) void ask(`tag${i}`, bulk());
		await clock.advance(10_000);
		expect(served).toHaveLength(100);
	});

	it('keeps a reserve of each window while the key answers clients: a reply never waits for a full window', async () => {
		const { clock, served, ask } = budgetOf(100, 60_000);
		await ask('earlier reply', reply('bot/eve'));
		served.length = 0;
		for (let i = 0; i < 300; i++) void ask(`tag${i}`, bulk());
		await clock.advance(10_000);
		// Bulk work takes 97 of the 100 (one went to the earlier reply); the rest waits.
		expect(served).toHaveLength(97);
		void ask('reply', reply('bot/ada'));
		void ask('second reply', reply('bot/bob'));
		void ask('third reply', reply('bot/cy'));
		await clock.advance(1);
		expect(served.slice(97).map((s) => [s.who, s.at])).toEqual([
			['reply', 10_000],
			['second reply', 10_000],
		]);
		await clock.advance(60_250);
		// The third takes the first slot that frees (the earlier reply's), ahead of the job.
		expect(served[99]).toEqual({ who: 'third reply', at: 60_250 });
	});

	it('counts a slot from its answer: a slow request holds its place until answered', async () => {
		const { clock, budget, served, ask } = budgetOf(2, 1_000);
		const slow = await budget.acquire(bulk('slow'));
		void ask('quick', bulk());
		void ask('next', bulk());
		await clock.advance(500);
		// The slow request is answered at 500 ms: the window holds it until 1,510 ms.
		slow.settle();
		await clock.advance(2_000);
		expect(served).toEqual([
			{ who: 'quick', at: 0 },
			{ who: 'next', at: 1_010 },
		]);
	});

	it('tells every waiting caller when its source fails, and serves again afterwards', async () => {
		const clock = new ManualClock();
		let down = true;
		const window = new LocalWindow(1, 100, clock);
		const source = Object.assign(Object.create(window) as LocalWindow, {
			take: async () => {
				if (down) throw new Error('Redis at 127.0.0.1:1 unreachable');
				return window.take('bulk');
			},
		});
		const budget = new RequestBudget(source, clock);
		const failures = await Promise.allSettled([budget.acquire(bulk()), budget.acquire(bulk())]);
		expect(failures.map((f) => f.status)).toEqual(['rejected', 'rejected']);
		expect(budget.waiting).toBe(0);
		down = false;
		await expect(budget.acquire(bulk())).resolves.toMatchObject({ waitedMs: 0 });
	});

	it('lets a caller whose signal fires leave the queue at once; its turn goes to the next', async () => {
		const { clock, budget, served, ask } = budgetOf(1, 1_000);
		void ask('first', reply('bot/ada'));
		const lost = new AbortController();
		const leaving = budget.acquire({ ...reply('bot/ada'), signal: lost.signal });
		void ask('next', reply('bot/ada'));
		await clock.advance(100);
		lost.abort(new Error('lease lost'));
		await expect(leaving).rejects.toThrow('lease lost');
		expect(budget.waiting).toBe(1);
		await clock.advance(2_000);
		expect(served.map((s) => [s.who, s.at])).toEqual([
			['first', 0],
			['next', 1_010],
		]);
	});
});
