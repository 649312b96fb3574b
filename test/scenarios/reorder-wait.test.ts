import {
	ArrivalHistory,
	holdMs,
	type ReorderSettings,
} from '../../runtime/scenarios/engine/reorder-wait';

const adaptive: ReorderSettings = { mode: 'adaptive', windowMs: 1000 };
const T = 1_000_000;

/** A history that has seen messages written 100 ms apart, each `delays[i]` ms on its way. */
function seen(delays: number[]): ArrivalHistory {
	const history = new ArrivalHistory();
	delays.forEach((d, i) => history.observe(`seen-${i}`, T + i * 100, T + i * 100 + d, T + 5000));
	return history;
}
const inOrder = () => seen([30, 35, 30, 40, 30, 32, 30, 31, 30, 30]);
const msg = (id: string, at: number) => ({ id, at, sentAt: at - 30 });

describe('reorder wait: when the next message in the client order may go', () => {
	it('fixed: every message waits the whole window from its acceptance', () => {
		const fixed: ReorderSettings = { mode: 'fixed', windowMs: 1000 };
		expect(holdMs(msg('m', T), fixed, inOrder(), T)).toBe(1000);
		expect(holdMs(msg('m', T), fixed, new ArrivalHistory(), T + 400)).toBe(600);
		expect(holdMs(msg('m', T), fixed, new ArrivalHistory(), T + 1400)).toBe(0);
	});

	it('adaptive, deliveries arriving in the order written (an idle n8n): no wait', () => {
		const history = inOrder();
		expect(history.overtake(T + 5000)).toBe(0);
		expect(holdMs(msg('m', T + 5000), adaptive, history, T + 5000)).toBe(0);
	});

	it('adaptive, deliveries overtaking each other: held as long as the furthest overtake lately', () => {
		// Written at T+300, it arrived 250 ms after the one written at T+400 (which took 30 ms).
		const history = seen([30, 30, 30, 380, 30, 30, 30, 30, 30]);
		expect(history.overtake(T + 5000)).toBe(250);
		expect(holdMs(msg('m', T + 5000), adaptive, history, T + 5000)).toBe(255);
		expect(holdMs(msg('m', T + 5000), adaptive, history, T + 5200)).toBe(55);
	});

	it('adaptive: never longer than the window, counted from acceptance', () => {
		const history = seen([30, 30, 30, 3000, 30, 30, 30, 30, 30]);
		expect(holdMs(msg('m', T + 5000), adaptive, history, T + 5000)).toBe(1000);
		expect(holdMs(msg('m', T + 5000), adaptive, history, T + 5999)).toBe(1);
	});

	it('adaptive: a message that came after a later-written one raises the bound at once', () => {
		const history = inOrder();
		history.observe('quick', T + 10_000, T + 10_010, T + 10_010);
		// Written before "quick", accepted 400 ms after it.
		expect(
			holdMs({ id: 'slow', at: T + 10_410, sentAt: T + 9_990 }, adaptive, history, T + 10_410),
		).toBe(405);
	});

	it('adaptive, after a start, messages coming among others (a burst): the whole window until a few were seen', () => {
		const history = new ArrivalHistory();
		expect(holdMs(msg('m0', T), adaptive, history, T)).toBe(250);
		for (let i = 1; i < 7; i++)
			expect(holdMs(msg(`m${i}`, T + i * 100), adaptive, history, T + i * 100)).toBe(1000);
		expect(holdMs(msg('m7', T + 700), adaptive, history, T + 700)).toBe(0);
	});

	it('adaptive, after a start, messages coming one at a time (an idle bot): a quarter of the window', () => {
		const history = new ArrivalHistory();
		for (let i = 0; i < 5; i++) {
			expect(holdMs(msg(`m${i}`, T + i * 1500), adaptive, history, T + i * 1500)).toBe(250);
			expect(holdMs(msg(`m${i}`, T + i * 1500), adaptive, history, T + i * 1500 + 250)).toBe(0);
		}
		// One within the window of the last: a burst may be starting, so it waits, and no longer.
		expect(holdMs(msg('m5', T + 6400), adaptive, history, T + 6400)).toBe(1000);
		expect(holdMs(msg('m5', T + 6400), adaptive, history, T + 7400)).toBe(0);
	});

	it('adaptive, after a start: one accepted just after a message already waiting makes both wait', () => {
		const history = new ArrivalHistory();
		expect(holdMs(msg('first', T), adaptive, history, T)).toBe(250);
		expect(holdMs(msg('second', T + 20), adaptive, history, T + 20)).toBe(1000);
		expect(holdMs(msg('first', T), adaptive, history, T + 30)).toBe(970);
	});

	it('adaptive: overtakes long past stop holding; a quiet inbox keeps its last arrivals however old', () => {
		const history = seen([30, 2000, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30]);
		expect(history.overtake(T + 5000)).toBeGreaterThan(0);
		// A minute on, the last eight arrivals, in order, are the bound.
		expect(history.overtake(T + 65_000)).toBe(0);
	});

	it('counts each message once however often the applier looks at it', () => {
		const history = inOrder();
		for (let i = 0; i < 100; i++)
			holdMs({ id: 'same', at: T, sentAt: T + 50_000 }, adaptive, history, T + 5000 + i);
		expect(history.overtake(T + 5100)).toBeGreaterThan(0);
		const before = history.overtake(T + 5100);
		holdMs({ id: 'same', at: T + 9, sentAt: T + 60_000 }, adaptive, history, T + 5100);
		expect(history.overtake(T + 5100)).toBe(before);
	});

	it('a message without its own time cannot be placed: it is not held (adaptive)', () => {
		expect(holdMs({ id: 'm', at: T }, adaptive, new ArrivalHistory(), T)).toBe(0);
	});

	it('a window of 0 never holds', () => {
		const none: ReorderSettings = { mode: 'adaptive', windowMs: 0 };
		expect(holdMs(msg('m', T), none, new ArrivalHistory(), T)).toBe(0);
	});
});
