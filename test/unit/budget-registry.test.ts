type Module = typeof import('../../runtime/api/budget/registry');
const clock = { now: () => 0, sleep: async () => undefined };
const settings = { limit: 100, windowMs: 60_000 };

/** Loads the registry module afresh, as each separately bundled node carries its own copy. */
function freshCopy(): Module {
	let copy: Module | undefined;
	jest.isolateModules(() => {
		copy = jest.requireActual<Module>('../../runtime/api/budget/registry');
	});
	return copy as Module;
}

describe('one request budget per key for the whole process', () => {
	it('is shared by two separately loaded copies of the module (two node bundles)', () => {
		const a = freshCopy();
		const b = freshCopy();
		expect(a).not.toBe(b);
		const one = a.sharedBudget('key-hash-1', clock, settings);
		expect(b.sharedBudget('key-hash-1', clock, settings)).toBe(one);
		expect(b.sharedBudget('key-hash-2', clock, settings)).not.toBe(one);
	});

	it('keeps the strictest setting when two credentials on one key differ', () => {
		const budget = freshCopy().sharedBudget('key-hash-3', clock, settings);
		freshCopy().sharedBudget('key-hash-3', clock, { limit: 50, windowMs: 30_000 });
		expect([budget.source.limit, budget.source.windowMs]).toEqual([50, 60_000]);
	});
});
