/**
 * A scenario of many states for the studio's layout time: a menu leading to chains of questions,
 * each with a way back, a give-up to a person and a reminder, as a large bot would have.
 */
export function largeScenario(count: number): Record<string, unknown> {
	const states: Record<string, unknown> = {
		menu: {
			messages: ['Pick a topic: 1 to 9.'],
			on: Array.from({ length: 9 }, (_, i) => ({
				match: { equals: String(i + 1) },
				target: `topic_${i + 1}_1`,
			})),
		},
		human: { messages: ['A colleague will answer.'], actions: [{ handoff: true }] },
	};
	const perTopic = Math.ceil((count - 2) / 9);
	for (let topic = 1; topic <= 9; topic++) {
		for (let step = 1; step <= perTopic && Object.keys(states).length < count; step++) {
			const last = step === perTopic || Object.keys(states).length === count - 1;
			if (last) {
				states[`topic_${topic}_${step}`] = {
					messages: [`Thanks for your answers on topic ${topic}.`],
					end: true,
				};
				continue;
			}
			states[`topic_${topic}_${step}`] = {
				messages: [`Topic ${topic}, question ${step}: what is your answer?`],
				on: [{ match: { equals: 'back' }, target: 'menu' }],
				capture: {
					into: `answer_${topic}_${step}`,
					check: 'text',
					retry: 'Please answer in words.',
					retries: 1,
					giveUp: { target: 'human' },
					target: `topic_${topic}_${step + 1}`,
				},
				after: { minutes: 30, send: 'Still there?' },
			};
		}
	}
	return { id: 'large', version: 1, start: 'menu', states };
}
