import { funnelOf } from '../../runtime/scenarios/analytics/funnel';
import type { VersionFunnel } from '../../runtime/scenarios/analytics/reading';
import { funnelView } from '../../runtime/studio/page/funnel-bars';

/** The studio funnel's figures from the reading's versions: summed, one picked, the loss between bars. */

const QUIET = { now: Date.parse('2026-01-10T00:00:00Z'), quietMs: 24 * 3_600_000 };

function version(n: number, fields: Record<string, number>): VersionFunnel {
	const { states, summary } = funnelOf(fields, {}, ['a', 'b', 'c'], QUIET);
	return {
		...{ scope: 's', scenario: 'bot', version: n, from: '2026-01-01', to: '2026-01-07' },
		...{ states, summary, mainPath: ['a', 'b', 'c'] },
	};
}

const v1 = version(1, {
	started: 4,
	'reached:a': 4,
	'reached:b': 3,
	'reached:c': 1,
	'stopHuman:a': 1,
	'stopEnd:c': 1,
});
const v2 = version(2, { started: 2, 'reached:a': 2, 'reached:b': 1, 'reached:c': 2 });

test('every version summed: bars in the main path order, the loss to the next, stops apart', () => {
	const view = funnelView([v1, v2], 'all', ['a', 'b', 'c']);
	expect(view.versions).toEqual([1, 2]);
	expect(view.conversations).toBe(6);
	expect(view.bars.map((b) => [b.state, b.reached, b.lost])).toEqual([
		['a', 6, 2],
		['b', 4, 1],
		['c', 3, undefined],
	]);
	expect(view.bars[0]).toMatchObject({ handedOff: 1, completed: 0 });
	expect(view.apart).toMatchObject({ handedOff: 1, completed: 1 });
});

test('one version picked; more reaching a state than the one before is a negative loss', () => {
	const view = funnelView([v1, v2], 2, ['a', 'b', 'c']);
	expect(view.conversations).toBe(2);
	expect(view.bars.map((b) => [b.reached, b.lost])).toEqual([
		[2, 1],
		[1, -1],
		[2, undefined],
	]);
});

test('a state of the path no conversation reached is a bar of none', () => {
	expect(funnelView([], 'all', ['a', 'b']).bars).toEqual([
		{ state: 'a', reached: 0, completed: 0, handedOff: 0, dropped: 0, inProgress: 0, lost: 0 },
		{ state: 'b', reached: 0, completed: 0, handedOff: 0, dropped: 0, inProgress: 0 },
	]);
});
