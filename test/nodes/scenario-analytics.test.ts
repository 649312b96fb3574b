/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { admin, apiCredential, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { itemsInto, scenarioNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-analytics-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});

const SHOP = JSON.stringify({
	id: 'shop',
	version: 1,
	start: 'welcome',
	states: {
		welcome: { messages: ['Hi'], on: [{ match: { equals: 'order' }, target: 'ask' }] },
		ask: {
			messages: ['Number?'],
			capture: {
				into: 'n',
				check: 'number',
				retry: 'A number please',
				retries: 1,
				giveUp: { target: 'human' },
				target: 'done',
			},
		},
		done: { messages: ['Thanks'], end: true },
		human: { messages: ['A person will answer'], actions: [{ handoff: true }] },
	},
});

const message = (client: string, text: string, n: number) => ({
	event: 'message.received',
	message_id: `m_${client}_${n}`,
	client_id: client,
	bot_id: 'bot_shop',
	text,
});

describe('Messaging Bot Scenario node: Get Analytics', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	const credentials = () => ({ messagingBotApi: apiCredential(emulator()) });
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});

	it('gives one item per state and a summary of the conversations the node stepped', async () => {
		const options = { statePath: path.join(dir, 'state.sqlite'), analyticsDays: 30 };
		const messages = [
			...['hi', 'order', '12'].map((text, i) => message('cl_ada', text, i)),
			...['hi', 'order', 'x', 'y'].map((text, i) => message('cl_grace', text, i)),
		];
		const handled = await runWorkflow(
			itemsInto(messages, scenarioNode({ operation: 'handleMessage', scenario: SHOP, options })),
			credentials(),
		);
		expect(outputOf(handled, 'Scenario')).toHaveLength(6);
		const read = await runWorkflow(
			itemsInto([{}], scenarioNode({ operation: 'getAnalytics', scenario: SHOP, options })),
			credentials(),
		);
		const items = outputOf(read, 'Scenario').map((item) => item.json);
		const today = new Date().toISOString().slice(0, 10);
		const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
		expect(items.map((i) => [i.kind, i.state])).toEqual([
			['state', 'welcome'],
			['state', 'ask'],
			['state', 'done'],
			['state', 'human'],
			['summary', undefined],
		]);
		expect(items[0]).toMatchObject({ scenario: 'shop', version: 1, from: weekAgo, to: today });
		expect(items[0]).toMatchObject({ entered: 2, dropOff: 0, edges: [{ to: 'ask', count: 2 }] });
		expect(items[1]).toMatchObject({
			entered: 2,
			dropOff: 0,
			retries: 1,
			giveUps: 1,
			edges: [
				{ to: 'done', count: 1 },
				{ to: 'human', count: 1 },
			],
		});
		expect(items[2]).toMatchObject({ entered: 1, dropOff: 1, now: 0 });
		expect(items[3]).toMatchObject({ entered: 1, dropOff: 1, dropOffShare: 1, now: 1 });
		expect(items[4]).toMatchObject({
			conversations: 2,
			completed: 1,
			completionRate: 0.5,
			handoffs: 1,
			handoffRate: 0.5,
			messages: 7,
			replies: { sent: 7, unknown: 0, failed: 0 },
		});
	});
});
