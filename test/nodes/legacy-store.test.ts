/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: a copy of a fixture file, never loaded by n8n */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import type { IDataObject, INode } from 'n8n-workflow';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { LEGACY_SCENARIO } from '../fixtures/legacy-store/scenario';
import { admin, apiCredential, sentTexts, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { itemsInto, scenarioNode } from '../helpers/workflows';

// A state store as older versions wrote it, conversations kept under the workflow's id ("test",
// the id of these tests' workflows): see test/fixtures/legacy-store/write.ts for what it holds.
const dir = mkdtempSync(path.join(tmpdir(), 'mb-legacy-'));
const statePath = path.join(dir, 'state.sqlite');
copyFileSync(path.join(__dirname, '../fixtures/legacy-store/state.sqlite'), statePath);
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});

const scenario = JSON.stringify(LEGACY_SCENARIO);

describe('a store written by an older version, opened by the Scenario node', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	const credentials = () => ({ messagingBotApi: apiCredential(emulator()) });
	const run = async (items: IDataObject[], parameters: INode['parameters']) =>
		outputOf(
			await runWorkflow(
				itemsInto(items, scenarioNode({ scenario, options: { statePath }, ...parameters })),
				credentials(),
			),
			'Scenario',
		).map((i) => i.json);
	const message = (id: string, clientId: string, text: string) => ({
		message_id: id,
		client_id: clientId,
		bot_id: 'bot_shop',
		text,
	});
	const oldRows = () => {
		const db = new DatabaseSync(statePath, { readOnly: true });
		try {
			return ['records', 'dues', 'inbox'].map(
				(table) =>
					(
						db
							.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ns IN (?, ?)`)
							.get('scenario:test', 'inbox:test') as { n: number }
					).n,
			);
		} finally {
			db.close();
		}
	};

	beforeAll(async () => {
		await admin(emulator(), 'POST', '/reset');
	});

	it('continues its conversations: no reply repeated, every timer fired once, the stranded message applied', async () => {
		expect(oldRows()).toEqual([3, 3, 1]);
		// Get Conversation finds Ada where she was: asked her name.
		const [ada] = await run([{ bot_id: 'bot_shop', client_id: 'cl_ada' }], {
			operation: 'getConversation',
		});
		expect(ada).toMatchObject({ found: true, state: 'ask', scenario: 'legacy' });
		// A redelivery of what she wrote before the upgrade is a duplicate; her answer goes on.
		expect(
			await run([message('m-ada-1', 'cl_ada', 'hi'), message('m-ada-2', 'cl_ada', 'Ada')], {
				operation: 'handleMessage',
			}),
		).toEqual([
			expect.objectContaining({ status: 'duplicate', sent: [] }),
			expect.objectContaining({ status: 'handled', state: 'thanks', sent: ['Thanks, Ada'] }),
		]);
		// Run Due Work: Grace's timer, Alan's reply left by the dead process, Linus's message.
		const due = await run([{}], { operation: 'fireTimers' });
		const summary = due.at(-1);
		expect(summary).toMatchObject({
			status: 'checked',
			scenario: 'legacy',
			conversations: 3,
			messages_applied: 1,
			carried_over: 2,
		});
		expect(oldRows()).toEqual([0, 0, 0]);
		const again = await run([{}], { operation: 'fireTimers' });
		expect(again).toEqual([expect.objectContaining({ status: 'checked', conversations: 0 })]);
		const sent = async (client: string) => await sentTexts(emulator(), client);
		expect(await sent('cl_ada')).toEqual(['Thanks, Ada']);
		expect(await sent('cl_grace')).toEqual(['Still there?']);
		// His reply went out once (the history showed it missing), then his silence timer.
		expect(await sent('cl_alan')).toEqual(['What is your name?', 'Still there?']);
		expect(await sent('cl_linus')).toEqual(['What is your name?']);
	});
});
