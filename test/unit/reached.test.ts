import { reachedDay, reachedNow, withReached } from '../../runtime/scenarios/analytics/reached';

describe('the states a conversation reached, as its record keeps them', () => {
	it('finds each state with the day it was first reached, grouped by day', () => {
		let reached = '';
		reached = withReached(reached, 'welcome', '2026-11-27');
		reached = withReached(reached, 'ask', '2026-11-27');
		reached = withReached(reached, 'done', '2026-11-28');
		expect(reached).toBe('@2026-11-27|welcome|ask|@2026-11-28|done|');
		expect(reachedDay(reached, 'welcome')).toBe('2026-11-27');
		expect(reachedDay(reached, 'ask')).toBe('2026-11-27');
		expect(reachedDay(reached, 'done')).toBe('2026-11-28');
		expect(reachedDay(reached, 'as')).toBeUndefined();
		expect(reachedDay('', 'welcome')).toBeUndefined();
		expect(reachedDay(undefined, 'welcome')).toBeUndefined();
	});

	it('tells apart names holding the separators, a day, or another name', () => {
		const names = ['a|b', '@2026-11-27', '2026-11-27', 'a', 'Привет 👋', 'a b', '%41'];
		let reached = '';
		names.forEach((name, i) => (reached = withReached(reached, name, `2026-11-2${i}`)));
		names.forEach((name, i) => expect(reachedDay(reached, name)).toBe(`2026-11-2${i}`));
		expect(reachedDay(reached, 'A')).toBeUndefined();
		expect(reachedDay(reached, 'b')).toBeUndefined();
	});

	it('reads the earlier form (state → day), and writes it in this one', () => {
		const before = { welcome: '2026-11-27', done: '2026-11-28', ask: '2026-11-27' };
		expect(reachedDay(before, 'ask')).toBe('2026-11-27');
		const now = reachedNow(before);
		expect(now).toBe('@2026-11-27|welcome|ask|@2026-11-28|done|');
		for (const [state, day] of Object.entries(before)) expect(reachedDay(now, state)).toBe(day);
		expect(reachedNow(undefined)).toBe('');
		expect(reachedNow(now)).toBe(now);
	});
});
