/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end tooling: reads the example, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The order-status example (examples/scenarios/order-status.json) with a split step in front of
 * its email question: half the clients are asked plainly (the example's `ask_email`), half in
 * friendlier words (`ask_email_friendly`); the goal is the order's status. What each reply tells
 * of the states a client went through is written out here by hand, for tallies read from
 * transcripts.
 */

type State = Record<string, unknown> & { on?: unknown[]; messages?: string[] };
const EXAMPLE = JSON.parse(
	readFileSync(path.join(__dirname, '../../examples/scenarios/order-status.json'), 'utf8'),
) as { version: number; states: Record<string, State> };

const TEST_NAME = 'asking';
export const GOAL_STATE = 'status';

const SPLIT_SCENARIO = {
	...EXAMPLE,
	version: EXAMPLE.version + 1,
	states: {
		...EXAMPLE.states,
		welcome: {
			...EXAMPLE.states.welcome,
			on: [{ match: { contains: ['order', 'status', 'where', 'track'] }, target: 'pick' }],
		},
		pick: {
			split: {
				name: TEST_NAME,
				variants: [
					{ name: 'plain', weight: 50, target: 'ask_email' },
					{ name: 'friendly', weight: 50, target: 'ask_email_friendly' },
				],
				goal: { state: GOAL_STATE },
			},
		},
		ask_email_friendly: {
			...EXAMPLE.states.ask_email,
			messages: ['Happy to look it up! Which email address did you order with?'],
		},
	},
};

/** The scenario as the Scenario nodes hold it. */
export const SCENARIO_JSON = JSON.stringify(SPLIT_SCENARIO);

/** Which variant a reply shows, by the question it asks. */
export const VARIANT_OF: Record<string, string> = {
	'What email address did you use for the order?': 'plain',
	'Happy to look it up! Which email address did you order with?': 'friendly',
};

/** The states a reply shows the client went through (entered, in order); none for a word in place. */
export function statesShownBy(text: string): { states: string[]; fallback?: true } {
	const variant = VARIANT_OF[text];
	if (variant)
		return { states: ['pick', variant === 'plain' ? 'ask_email' : 'ask_email_friendly'] };
	const rules: Array<[RegExp, string[]]> = [
		[/^Hi .*! I can tell you where your order is\./, ['welcome']],
		[/^Thanks! And the order number\?/, ['ask_number']],
		[/^Order \d+ (has|is) /, ['lookup']],
		[/^I could not find order \d+/, ['lookup']],
		[/^Which order number should I look for\?/, ['retry_number']],
		[/^Anything else\?/, ['status']],
		[/^I am passing you to a colleague/, ['human']],
		[/^Happy to help, .*Bye!$/, ['__end']],
		[/^OK, I will stop here\./, ['__end']],
		// A retry, a give-up's own words: the state is left by the next reply, if at all.
		[/^That does not look like an email address\./, []],
		[/^Order numbers are 4 to 8 digits/, []],
		[/^I could not read the email address\./, []],
	];
	for (const [pattern, states] of rules) if (pattern.test(text)) return { states };
	if (text.startsWith('Sorry, I did not get')) return { states: [], fallback: true };
	throw new Error(`no state of the scenario sends "${text}"`);
}

/** What the client's message is, to the scenario's keywords: a keyword's move is counted apart. */
export function isKeyword(text: string): boolean {
	const t = text.trim().toLowerCase();
	return ['restart', 'menu', 'stop'].includes(t) || /human|agent|person/.test(t);
}
