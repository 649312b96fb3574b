/** What the split tests share: a greeting test of two variants, the goal an order placed. */
import { scenario } from './harness';

/** "yes" orders; anything else goes back through the split. */
const answers = [
	{ match: { equals: 'yes' }, target: 'ordered' },
	{ match: { any: true }, target: 'hello' },
];

/** A greeting test: two greetings by weight, the goal an order placed. */
export const greetingTest = (split: Record<string, unknown> = {}) =>
	scenario({
		hello: {
			split: {
				name: 'greeting',
				variants: [
					{ name: 'short', weight: 1, target: 'short' },
					{ name: 'warm', weight: 1, target: 'warm' },
				],
				goal: { state: 'ordered' },
				...split,
			},
		},
		short: { messages: ['Hi. Order?'], on: answers },
		warm: { messages: ['Welcome, lovely to see you! Shall I take your order?'], on: answers },
		ordered: { messages: ['Ordered.'], end: true },
	});

/** Which greeting a client got, from the bot's first reply. */
export const greetingOf = (replies: string[]) => (replies[0]?.startsWith('Hi.') ? 'short' : 'warm');
