/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test tooling: files and the CLI as a child process, never loaded by n8n */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parseStringPromise } from 'xml2js';

import { runCli } from './harness';
import { admin, useEmulator } from '../helpers/emulator';

const root = path.resolve(__dirname, '../..');
const examples = path.join(root, 'examples/scenarios');
const dir = mkdtempSync(path.join(tmpdir(), 'mb-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
	const full = path.join(dir, name);
	writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content));
	return full;
}

const run = runCli;

describe('messaging-bot-scenario CLI', () => {
	it('validate: ok for the examples', async () => {
		const names = ['order-status', 'lead-qualification', 'support'];
		const result = await run(['validate', ...names.map((n) => path.join(examples, `${n}.json`))]);
		expect(result).toEqual({
			code: 0,
			out: names
				.map(
					(n, i) =>
						`ok ${path.join(examples, `${n}.json`)}: ${n} v${[2, 1, 1][i]}, ${[7, 4, 3][i]} states\n`,
				)
				.join(''),
			err: '',
		});
	});

	it('validate: every problem with its JSON path, exit code 1', async () => {
		const broken = file('broken.json', {
			id: 'shop',
			version: 1,
			start: 'menu',
			states: {
				menu: {
					messages: ['Hi {{client.name}}'],
					on: [{ match: { equals: 'ship' }, target: 'shiping' }],
					capture: {
						into: 'email',
						check: 'email',
						retry: 'Again',
						retries: 0,
						giveUp: { target: 'menu' },
					},
				},
				shipping: {},
			},
		});
		const result = await run(['validate', broken]);
		expect(result.code).toBe(1);
		expect(result.err).toBe(
			[
				`${broken}: 3 problems`,
				'  states.menu.capture.retries: must be at least 1',
				'  states.menu.messages[0]: {{client.name}}: the client has no field "name" (fields: id, first_name, last_name, email, phone, tags, custom_fields)',
				'  states.menu.on[0].target: no state named "shiping" (did you mean "shipping"?) (states: menu, shipping)',
				'',
			].join('\n'),
		);
	});

	it('validate: jumps between the files given together; a file that is not JSON', async () => {
		const jumper = file('jumper.json', {
			id: 'jumper',
			version: 1,
			start: 'a',
			states: {
				a: { on: [{ match: { any: true }, actions: [{ goto: { scenario: 'suport' } }] }] },
			},
		});
		const result = await run([
			'validate',
			jumper,
			path.join(examples, 'support.json'),
			file('bad.json', '{\n  "id": "x",\n}'),
		]);
		expect(result.code).toBe(1);
		expect(result.err).toContain(
			'  states.a.on[0].actions[0].goto.scenario: no scenario "suport" is loaded (did you mean "support"?) (loaded: jumper, support)',
		);
		expect(result.err).toContain(
			'bad.json: 1 problem\n  (document): is not valid JSON at line 3, column 1: a comma before a closing bracket; remove it',
		);
		expect(result.out).toContain('ok ');
	});

	it('diagram: a Mermaid state diagram', async () => {
		const result = await run(['diagram', path.join(examples, 'support.json')]);
		expect(result.code).toBe(0);
		expect(result.out).toBe(
			[
				'stateDiagram-v2',
				'  [*] --> welcome',
				'  state "(any state)" as any_state',
				'  any_state --> agent : keyword contains "human" / "agent"',
				'  any_state --> welcome : keyword "restart"',
				'  welcome --> suggest : problem = valid text',
				'  welcome --> agent : invalid after 1 retry',
				'  welcome --> welcome : after 10 min silence',
				'  suggest --> [*] : "yes" / "y" / "it did" / "fixed"',
				'  suggest --> agent : starts with "no"',
				'  suggest --> [*] : after 30 min silence',
				'  agent --> welcome : any message',
				'',
			].join('\n'),
		);
	});

	it('diagram --format svg | png: the picture, printed or written to --out', async () => {
		const scenario = path.join(examples, 'order-status.json');
		const out = path.join(dir, 'order-status.svg');
		const written = await run(['diagram', scenario, '--format', 'svg', '--out', out]);
		expect(written).toEqual({ code: 0, out: `wrote ${out}\n`, err: '' });
		const svg = readFileSync(out, 'utf8');
		const xml = (await parseStringPromise(svg, { strict: true })) as { svg: { $: object } };
		expect(xml.svg.$).toMatchObject({ xmlns: 'http://www.w3.org/2000/svg' });
		for (const state of ['welcome', 'ask_email', 'ask_number', 'lookup', 'status', 'human'])
			expect(svg).toContain(`data-state='${state}'`);
		const printed = await run(['diagram', scenario, '--format', 'svg']);
		expect(printed).toEqual({ code: 0, out: svg, err: '' });
		const gif = await run(['diagram', scenario, '--format', 'gif']);
		expect(gif.code).toBe(2);
		expect(gif.err).toMatch(/^--format must be "mermaid", "svg" or "png", not "gif"/);
		const png = path.join(dir, 'order-status.png');
		expect(await run(['diagram', scenario, '--format', 'png'])).toMatchObject({ code: 2 });
		expect(await run(['diagram', scenario, '--format', 'png', '--out', png])).toEqual({
			code: 0,
			out: `wrote ${png}\n`,
			err: '',
		});
		const file = readFileSync(png);
		expect(file.subarray(1, 4).toString()).toBe('PNG');
		const [width, height] = [file.readUInt32BE(16), file.readUInt32BE(20)];
		expect(svg).toContain(`width='${width}' height='${height}'`);
	});

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

	it('validate: the problems of a workflow step, with their paths', async () => {
		const bad = file('call.json', {
			id: 'c',
			version: 1,
			start: 'a',
			workflows: { 'lookup-order': { returns: ['status'] } },
			states: {
				a: {
					call: {
						workflow: 'lookup-ordr',
						store: { status: 'state' },
						success: { say: 'It is {{vars.status}} {{vars.eta}}', target: 'b' },
					},
				},
				b: { end: true },
			},
			variables: ['eta'],
		});
		const result = await run(['validate', bad]);
		expect(result.code).toBe(1);
		expect(result.err.split('\n')).toEqual([
			`${bad}: 3 problems`,
			'  states.a.call.failure: is required',
			'  states.a.call.workflow: no workflow named "lookup-ordr" (did you mean "lookup-order"?); declare it in "workflows" (workflows: lookup-order)',
			'  states.a.call.success.say: {{vars.eta}} is never stored: add it to this call\'s "store" (stores: status)',
			'',
		]);
	});

	it('usage errors exit with 2', async () => {
		expect((await run([])).code).toBe(2);
		expect((await run(['frobnicate', 'x.json'])).err).toContain('Unknown command "frobnicate"');
		expect((await run(['validate'])).err).toContain('validate needs a scenario file');
		expect(
			(await run(['chat', path.join(examples, 'support.json'), '--base-url', 'http://x/v1'])).err,
		).toBe('--base-url needs --api-key and --bot as well\n');
	});

	it('runs as a program: exit code and output', () => {
		const tsx = path.join(root, 'node_modules/.bin/tsx');
		const ok = spawnSync(
			tsx,
			['runtime/scenarios/offline/cli.ts', 'validate', 'examples/scenarios/order-status.json'],
			{
				cwd: root,
				encoding: 'utf8',
			},
		);
		expect([ok.status, ok.stdout]).toEqual([
			0,
			'ok examples/scenarios/order-status.json: order-status v2, 7 states\n',
		]);
		const chat = spawnSync(
			tsx,
			['runtime/scenarios/offline/cli.ts', 'chat', 'examples/scenarios/order-status.json'],
			{
				cwd: root,
				encoding: 'utf8',
				input: 'hello\norder\n',
			},
		);
		expect(chat.status).toBe(0);
		expect(chat.stdout).toContain('bot> What email address did you use for the order?');
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
			expect(body.data.map((m) => m.text)).toEqual([
				'Hi Grace! I can tell you where your order is. Type "order" to start.',
				'What email address did you use for the order?',
			]);
		});
	});
});
