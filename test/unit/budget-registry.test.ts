import { sharedBudget } from '../../runtime/api/budget/registry';

const clock = { now: () => 0, sleep: async () => undefined };
const settings = { limit: 100, windowMs: 60_000 };

// That every built node file uses this one registry is checked on the built files:
// test/package/shared-budget.test.ts.
describe('one request budget per key for the whole process', () => {
	it('gives every caller on one key the same budget, and another key its own', () => {
		const one = sharedBudget('key-hash-1', clock, settings);
		expect(sharedBudget('key-hash-1', clock, settings)).toBe(one);
		expect(sharedBudget('key-hash-2', clock, settings)).not.toBe(one);
	});

	it('keeps the strictest setting when two credentials on one key differ', () => {
		const budget = sharedBudget('key-hash-3', clock, settings);
		sharedBudget('key-hash-3', clock, { limit: 50, windowMs: 30_000 });
		expect([budget.source.limit, budget.source.windowMs]).toEqual([50, 60_000]);
	});
});
