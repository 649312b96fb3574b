/**
 * A scenario of `n` states for the picture bench: a main path with a message and a question in
 * each state, a side branch every third state and a hand-off, as a designer's large bot has.
 */
export function largeScenario(n: number): Record<string, unknown> {
	const states: Record<string, unknown> = {};
	for (let i = 0; i < n; i++) {
		const next = i + 1 < n ? `step_${i + 1}` : undefined;
		const on = [
			...(next ? [{ match: { contains: ['yes', 'next'] }, target: next }] : []),
			...(i % 3 === 0 && i + 2 < n
				? [{ match: { contains: ['skip'] }, target: `step_${i + 2}` }]
				: []),
			...(i % 5 === 0 ? [{ match: { contains: ['help'] }, target: 'human' }] : []),
		];
		states[`step_${i}`] = {
			messages: [
				`Step ${i}: please tell us about your order and what you would like us to do next.`,
			],
			...(on.length ? { on } : {}),
		};
	}
	states.human = { messages: ['A person will answer you here shortly.'] };
	return { id: 'large', version: 1, start: 'step_0', states };
}
