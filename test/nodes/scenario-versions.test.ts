/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { sentTexts } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { SHOP, shopMessage, useScenarioNodeSetup } from '../helpers/shop-scenario';
import { itemsInto, scenarioNode } from '../helpers/workflows';

const V1 = JSON.stringify(SHOP);
// Version 2 renames `ask` to `number` and words it differently.
const { ask, ...kept } = SHOP.states;
const V2 = JSON.stringify({
	...SHOP,
	version: 2,
	states: {
		...kept,
		welcome: {
			...kept.welcome,
			messages: ['Hello (v2)'],
			on: [{ match: { equals: 'order' }, target: 'number' }],
		},
		number: {
			...ask,
			messages: ['Your order number?'],
			capture: { ...ask.capture, retry: 'Digits please' },
		},
		done: { messages: ['Thank you (v2)'], end: true },
	},
});

describe('Messaging Bot Scenario node: versions', () => {
	const { dir, emulator, credentials } = useScenarioNodeSetup('mb-versions-');
	let file = 0;
	const run = async (
		scenario: string,
		items: IDataObject[],
		parameters: Record<string, unknown>,
		statePath: string,
	) => {
		const node = scenarioNode({
			scenario,
			...parameters,
			options: { statePath, ...(parameters.options as object) },
		});
		const done = await runWorkflow(itemsInto(items, node), credentials());
		return outputOf(done, 'Scenario').map((item) => item.json);
	};
	const handle = async (
		scenario: string,
		messages: IDataObject[],
		statePath: string,
		options = {},
	) => await run(scenario, messages, { operation: 'handleMessage', options }, statePath);

	async function twoHalfWay(statePath: string): Promise<void> {
		const messages = ['cl_ada', 'cl_grace'].flatMap((c) =>
			['hi', 'order'].map((t, i) => shopMessage(c, t, i)),
		);
		await handle(V1, messages, statePath);
	}

	it('finishes a live conversation on its version (the default), says so, and starts new ones on the live one', async () => {
		const statePath = path.join(dir, `s${++file}.sqlite`);
		await twoHalfWay(statePath);
		const [older, fresh] = await handle(
			V2,
			[shopMessage('cl_ada', 'x', 2), shopMessage('cl_alan', 'hi', 0)],
			statePath,
		);
		expect(older).toMatchObject({
			status: 'handled',
			state: 'ask',
			restart: null,
			older_version: { version: 1, live_version: 2 },
		});
		expect(fresh).toMatchObject({ status: 'started', state: 'welcome' });
		expect(fresh.older_version).toBeUndefined();
		expect(await sentTexts(emulator(), 'cl_ada')).toEqual(['Hi', 'Number?', 'A number please']);
		expect(await sentTexts(emulator(), 'cl_alan')).toEqual(['Hello (v2)']);

		const versions = await run(V2, [{}], { operation: 'getVersions' }, statePath);
		expect(versions.map((v) => [v.version, v.live, v.conversations])).toEqual([
			[2, true, 1],
			[1, false, 2],
		]);
	});

	it('moves the conversations of a version on purpose: a preview first, then each moved once', async () => {
		const statePath = path.join(dir, `s${++file}.sqlite`);
		await twoHalfWay(statePath);
		const move = {
			operation: 'moveConversations',
			moveFrom: 1,
			moveStates: { pairs: [{ from: 'ask', to: 'number' }] },
		};
		const preview = await run(V2, [{}], move, statePath);
		expect(preview).toEqual([
			{
				from_version: 1,
				to_version: 2,
				state: 'ask',
				conversations: 2,
				outcome: 'moves',
				to: 'number',
			},
		]);
		const [summary] = await run(V2, [{}], { ...move, movePreview: false }, statePath);
		expect(summary).toMatchObject({
			kind: 'summary',
			moved: 2,
			stayed: 0,
			restarted: 0,
			not_moved: 0,
		});
		const [answer] = await handle(V2, [shopMessage('cl_grace', 'x', 2)], statePath);
		expect(answer).toMatchObject({ status: 'handled', state: 'number', restart: null });
		expect(await sentTexts(emulator(), 'cl_grace')).toEqual(['Hi', 'Number?', 'Digits please']);
		const again = await run(V2, [{}], { ...move, movePreview: false }, statePath);
		expect(again[0]).toMatchObject({ moved: 0 });

		const wrong = { ...move, moveStates: { pairs: [{ from: 'ask', to: 'nowhere' }] } };
		const refused = await runWorkflow(
			itemsInto([{}], scenarioNode({ scenario: V2, ...wrong, options: { statePath } })),
			credentials(),
		);
		expect(refused.data.resultData.error?.message).toBe(
			'State Map: "nowhere" (for "ask") is not a state of version 2',
		);
	});

	it('follows the live version under Live Conversations: Move to This Version', async () => {
		const statePath = path.join(dir, `s${++file}.sqlite`);
		await twoHalfWay(statePath);
		const [answer] = await handle(V2, [shopMessage('cl_ada', 'x', 2)], statePath, {
			liveConversations: 'move',
		});
		expect(answer).toMatchObject({
			status: 'started',
			state: 'welcome',
			restart: 'scenario-changed',
		});
	});
});
