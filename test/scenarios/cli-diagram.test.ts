/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: the files the CLI writes, never loaded by n8n */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parseStringPromise } from 'xml2js';

import { runCli as run } from './harness';
import { examples, scratch } from './cli-fixture';

const { dir } = scratch();

describe('messaging-bot-scenario CLI', () => {
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
});
