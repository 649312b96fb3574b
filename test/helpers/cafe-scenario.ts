/** A scenario as a designer writes it: placeholders n8n must leave alone. */
export const CAFE = {
	id: 'cafe',
	version: 1,
	start: 'hello',
	variables: ['party'],
	states: {
		hello: {
			messages: ['Hi {{client.first_name}}! Welcome to Cafe Luna. For how many?'],
			capture: {
				into: 'party',
				check: 'number',
				retry: 'How many, as a number?',
				retries: 1,
				giveUp: { target: 'noted' },
				target: 'noted',
			},
		},
		noted: { messages: ['Table for {{vars.party}} noted!'], end: true },
	},
};
