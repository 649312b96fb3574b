/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test tooling: the CLI as a child process, never loaded by n8n */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { runCli as run } from './harness';
import { root, examples, scratch } from './cli-fixture';

const { file } = scratch();

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
			['runtime/cli/scenario.ts', 'validate', 'examples/scenarios/order-status.json'],
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
			['runtime/cli/scenario.ts', 'chat', 'examples/scenarios/order-status.json'],
			{
				cwd: root,
				encoding: 'utf8',
				input: 'hello\norder\n',
			},
		);
		expect(chat.status).toBe(0);
		expect(chat.stdout).toContain('bot> What email address did you use for the order?');
	});
});
