import type { SlidingWindowLimiter } from '../../runtime/api/rate-limiter';

type Module = typeof import('../../runtime/api/rate-limiter');
const clock = { now: () => 0, sleep: async () => undefined };

/** Loads the limiter module afresh, as each separately bundled node carries its own copy. */
function freshCopy(): Module {
	let copy: Module | undefined;
	jest.isolateModules(() => {
		copy = jest.requireActual<Module>('../../runtime/api/rate-limiter');
	});
	return copy as Module;
}

describe('one request budget per key for the whole process', () => {
	it('is shared by two separately loaded copies of the module (two node bundles)', () => {
		const a = freshCopy();
		const b = freshCopy();
		expect(a).not.toBe(b);
		const one: SlidingWindowLimiter = a.sharedLimiter('key-hash-1', clock, 100, 60_000);
		const other = b.sharedLimiter('key-hash-1', clock, 100, 60_000);
		expect(other).toBe(one);
		expect(b.sharedLimiter('key-hash-2', clock)).not.toBe(one);
	});

	it('keeps the strictest setting when two credentials on one key differ', () => {
		const a = freshCopy();
		const limiter = a.sharedLimiter('key-hash-3', clock, 100, 60_000);
		freshCopy().sharedLimiter('key-hash-3', clock, 50, 30_000);
		expect([limiter.limit, limiter.windowMs]).toEqual([50, 60_000]);
	});
});
