import { backends, scenario } from './harness';
import { answer, opener } from './format-fixture';

describe.each(backends())('scenario format ($name store)', (backend) => {
	const open = opener(backend);

	describe('fallback and keywords', () => {
		it('a state fallback replaces the scenario fallback; without one, nothing is sent', async () => {
			const chat = open([
				scenario(
					{
						a: {
							on: [
								{ match: { equals: 'b' }, target: 'b' },
								{ match: { equals: 'c' }, target: 'c' },
							],
						},
						b: { fallback: 'State fallback', on: [{ match: { equals: 'a' }, target: 'a' }] },
						c: {},
					},
					{ fallback: 'Scenario fallback: {{message.text}}?' },
				),
			]);
			await chat.say('hi');
			expect(await chat.say('huh')).toEqual(['Scenario fallback: huh?']);
			await chat.say('b');
			expect(await chat.say('huh')).toEqual(['State fallback']);
			const silent = open([scenario({ a: { messages: ['Hi'] } })]);
			await silent.say('hi');
			expect(await silent.say('anything')).toEqual([]);
		});

		it('keywords work in every state, before its transitions and its capture', async () => {
			const chat = open([
				scenario(
					{
						a: {
							messages: ['Menu'],
							on: [
								{ match: { equals: 'ask' }, target: 'ask' },
								answer({ equals: 'stop' }, 'never'),
							],
						},
						ask: {
							messages: ['Email?'],
							capture: {
								into: 'email',
								check: 'email',
								retry: 'Email please',
								retries: 1,
								giveUp: { target: 'a' },
							},
						},
					},
					{
						keywords: [
							{ match: { equals: 'restart' }, target: 'a' },
							{ match: { equals: 'stop' }, actions: [{ reply: 'Stopped' }, { end: true }] },
						],
					},
				),
			]);
			await chat.say('hi');
			expect(await chat.say('stop')).toEqual(['Stopped']);
			await chat.say('hi');
			await chat.say('ask');
			expect(await chat.say('RESTART')).toEqual(['Menu']);
			await chat.say('ask');
			expect(await chat.say('x')).toEqual(['Email please']);
			// A keyword is not an answer: it does not use up the last try.
			expect(await chat.say('restart')).toEqual(['Menu']);
		});
	});
});
