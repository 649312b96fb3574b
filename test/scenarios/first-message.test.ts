import { backends, scenario } from './harness';
import { opener } from './format-fixture';

/** A shop whose start state answers "order" by a transition, a menu or an email capture. */
const shop = (start: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
	scenario(
		{
			greet: { messages: ['Welcome to Pizza Place!'], ...start },
			size: { messages: ['Which size?'] },
			stopped: { messages: ['Stopped.'], end: true },
		},
		{ keywords: [{ match: { equals: 'stop' }, target: 'stopped' }], ...extra },
	);
const byWord = { on: [{ match: { contains: 'order' }, target: 'size' }], fallback: 'Say "order".' };
/** A capture in the start state, of the given kind. */
const captureOf = (check: string) => ({
	capture: {
		into: 'answer',
		check,
		retry: 'Again?',
		retries: 1,
		giveUp: { target: 'stopped' },
		target: 'size',
	},
});
const byMenu = {
	menu: { options: [{ label: 'Order a pizza', synonyms: ['order'], target: 'size' }] },
};

describe.each(backends())(
	'a first message that answers the start state ($name store)',
	(backend) => {
		const open = opener(backend);

		it('is handled after the greeting by default: "order" gets the greeting and the next question', async () => {
			const chat = open([shop(byWord)]);
			expect(await chat.say('I want to order')).toEqual(['Welcome to Pizza Place!', 'Which size?']);
			expect((await chat.state())?.state).toBe('size');
		});

		it('picks a menu option, meets a keyword, fills a capture of a given kind', async () => {
			let chat = open([shop(byMenu)]);
			expect(await chat.say('Order')).toEqual([
				'Welcome to Pizza Place!',
				'1. Order a pizza',
				'Which size?',
			]);
			chat = open([shop(byWord)]);
			expect(await chat.say('stop')).toEqual(['Welcome to Pizza Place!', 'Stopped.']);
			chat = open([shop(captureOf('email'))]);
			expect(await chat.say('ada@example.com')).toEqual(['Welcome to Pizza Place!', 'Which size?']);
			expect((await chat.state())?.vars).toEqual({ answer: 'ada@example.com' });
		});

		it('gets only the greeting when it answers nothing, or matches only "any message" or free text', async () => {
			let chat = open([shop(byWord)]);
			expect(await chat.say('hello')).toEqual(['Welcome to Pizza Place!']);
			expect(await chat.say('order')).toEqual(['Which size?']);
			chat = open([shop({ on: [{ match: { any: true }, target: 'size' }] })]);
			expect(await chat.say('order')).toEqual(['Welcome to Pizza Place!']);
			chat = open([shop(captureOf('text'))]);
			expect(await chat.say('hi')).toEqual(['Welcome to Pizza Place!']);
		});

		it('gets only the greeting with "firstMessage": "greet"', async () => {
			const chat = open([shop(byWord, { firstMessage: 'greet' })]);
			expect(await chat.say('order')).toEqual(['Welcome to Pizza Place!']);
			expect(await chat.say('order')).toEqual(['Which size?']);
		});
	},
);
