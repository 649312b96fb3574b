import { parseField } from './counter-keys';
import { cmp } from './funnel';
import { splitVerdict, type VariantResult, type Verdict, type VerdictOptions } from './verdict';

/**
 * Split tests read back from the counters: per scope, scenario and test, each variant's clients
 * and goals over the period (all the scenario's versions summed: a test outlives a version, and
 * ending it is a new one), with the verdict (verdict.ts).
 */

export interface SplitTestReport {
	scope: string;
	scenario: string;
	test: string;
	variants: VariantResult[];
	verdict: Verdict;
}

/** One version's counters over the period. */
export interface SplitSource {
	scope: string;
	scenario: string;
	fields: Readonly<Record<string, number>>;
}

export function splitTests(
	sources: readonly SplitSource[],
	options: VerdictOptions = {},
): SplitTestReport[] {
	const tests = new Map<
		string,
		{
			scope: string;
			scenario: string;
			test: string;
			variants: Map<string, { clients: number; goal: number }>;
		}
	>();
	for (const { scope, scenario, fields } of sources) {
		for (const [name, n] of Object.entries(fields)) {
			if (!name.startsWith('variant')) continue;
			const { counter, states } = parseField(name);
			if ((counter !== 'variant' && counter !== 'variantGoal') || states.length !== 2) continue;
			const [test, variant] = states;
			const id = JSON.stringify([scope, scenario, test]);
			let found = tests.get(id);
			if (!found) tests.set(id, (found = { scope, scenario, test, variants: new Map() }));
			const counts = found.variants.get(variant) ?? { clients: 0, goal: 0 };
			if (counter === 'variant') counts.clients += n;
			else counts.goal += n;
			found.variants.set(variant, counts);
		}
	}
	return [...tests.values()]
		.map(({ scope, scenario, test, variants }) => {
			// The shares seen so far stand for the weights when telling how many clients are to go.
			const counts = [...variants]
				.sort(([a], [b]) => cmp(a, b))
				.map(([variant, c]) => ({ variant, ...c, weight: c.clients }));
			return { scope, scenario, test, ...splitVerdict(counts, options) };
		})
		.sort((a, b) => cmp(a.scenario, b.scenario) || cmp(a.test, b.test) || cmp(a.scope, b.scope));
}
