/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: files for the CLI, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { runCli as run } from './harness';
import { admin, useEmulator } from '../helpers/emulator';
import { GRACE_TRACKS_AN_ORDER, root, examples, scratch } from './cli-fixture';

const { file } = scratch();

describe('messaging-bot-scenario CLI', () => {
	it('chat: offline, with time passing and a handoff released', async () => {
		const result = await run(
			['chat', path.join(examples, 'support.json'), '--first-name', 'Lin'],
			[
				'hi',
				'/wait 10',
				'it is broken',
				'no',
				'hello?',
				'/release',
				'/state',
				'ok',
				'/quit',
				'never read',
			],
		);
		expect(result.code).toBe(0);
		expect(result.out.split('\n')).toEqual([
			'Chatting with "support" v1 as cl_local (offline). /quit to leave.',
			'bot> Hi Lin, this is support. Describe the problem in one message, or type "human" to reach an agent.',
			'     [10 min later]',
			'bot> Are you still there? Tell me what went wrong and I will help.',
			'bot> Thanks. About "it is broken": signing out and in again fixes most problems. Did that help? (yes/no)',
			'bot> I am handing you to a support agent, who will reply here.',
			'     [tags +support-escalated]',
			'     [handed to a human: the bot is silent until /release]',
			'     [a human has this conversation; /release to give it back]',
			'     [the bot has the conversation again]',
			'     {"scenario":"support","state":"agent","vars":{"problem":"it is broken"},"tags":["support-escalated"],"handedOff":false,"timer":null}',
			'     [tags -support-escalated]',
			'bot> Hi Lin, this is support. Describe the problem in one message, or type "human" to reach an agent.',
			'',
		]);
	});

	it('chat: workflow steps answered from a fixtures file; orders from a file', async () => {
		const faq = path.join(examples, 'faq.json');
		const fixtures = path.join(root, 'examples/fixtures/faq-lookup.json');
		const result = await run(
			['chat', faq, '--call', `faq-lookup=${fixtures}`],
			['hi', 'When do you deliver?', 'parking', 'is the shop down?'],
		);
		expect(result.out.split('\n').slice(2)).toEqual([
			'     [workflow faq-lookup {"question":"When do you deliver?"}: success]',
			'bot> We deliver in 2 to 3 working days.',
			'     [workflow faq-lookup {"question":"parking"}: empty]',
			'bot> I have no answer to that. Try other words, or type "human".',
			'     [workflow faq-lookup {"question":"is the shop down?"}: failure (The knowledge base is unreachable)]',
			'bot> I cannot look that up right now. Type "human" to talk to a person.',
			'',
		]);
		const orders = await run(
			[
				'chat',
				path.join(examples, 'order-status.json'),
				'--orders',
				path.join(root, 'examples/fixtures/orders.json'),
			],
			['hi', 'order', 'a@b.co', '1001'],
		);
		expect(orders.out).toContain('bot> Order 1001 has shipped.');
		const missing = await run(['chat', faq], ['hi', 'hello']);
		expect(missing.out).toContain(
			'failure (No fixtures for the workflow "faq-lookup" (give --call faq-lookup=FILE))',
		);
	});

	it('chat: --call once per workflow, a path with a comma kept whole', async () => {
		const faq = path.join(examples, 'faq.json');
		const cases = readFileSync(path.join(root, 'examples/fixtures/faq-lookup.json'), 'utf8');
		const fixtures = file('faq, answers.json', cases);
		const result = await run(
			['chat', faq, '--call', `faq-lookup=${fixtures}`, '--call', `unused=${fixtures}`],
			['hi', 'When do you deliver?'],
		);
		expect(result.err).toBe('');
		expect(result.out).toContain('bot> We deliver in 2 to 3 working days.');
		const unknown = await run(['chat', faq, '--frobnicate', 'x'], []);
		expect(unknown.code).toBe(2);
		expect(unknown.err).toContain("Unknown option '--frobnicate'");
	});

	describe('chat against the emulator', () => {
		const emulator = useEmulator();

		it('sends the replies through the service', async () => {
			const e = emulator();
			const result = await run(
				[
					'chat',
					path.join(examples, 'order-status.json'),
					'--base-url',
					e.baseUrl,
					'--api-key',
					e.apiKey,
					'--bot',
					'bot_shop',
					'--client',
					'cl_grace',
				],
				['hi', 'track my order'],
			);
			expect(result.out).toContain(`through ${e.baseUrl} (bot bot_shop)`);
			const { body } = await admin<Array<{ text: string }>>(
				e,
				'GET',
				'/sent-messages?client_id=cl_grace',
			);
			expect(body.data.map((m) => m.text)).toEqual(GRACE_TRACKS_AN_ORDER);
		});
	});
});
