/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: a temporary state file, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { ECHO_SCENARIO } from '../../bench/reply-workflows';
import { admin, apiCredential, useEmulator } from '../helpers/emulator';
import { credentialReads, outputOf, runWorkflow } from '../helpers/n8n';
import { byId, itemsInto, itemsIntoMessagingBot, scenarioNode } from '../helpers/workflows';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-reads-'));
afterAll(async () => {
	await closeSharedSqliteStores();
	rmSync(dir, { recursive: true, force: true });
});

// n8n reads and decrypts a credential from its database at every read; n8n's request helper would
// read it again for every request unless the node hands it the one it read.
describe('the Messaging Bot API credential, read once per execution', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	const credentials = () => ({ messagingBotApi: apiCredential(emulator()) });
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});

	it('Messaging Bot: three messages sent, one read', async () => {
		const before = credentialReads('messagingBotApi');
		const run = await runWorkflow(
			itemsIntoMessagingBot([{ who: 'cl_ada' }, { who: 'cl_grace' }, { who: 'cl_alan' }], {
				resource: 'bot',
				operation: 'sendMessage',
				botId: byId('bot_shop'),
				clientId: byId('={{ $json.who }}'),
				text: 'Hello',
			}),
			credentials(),
		);
		expect(outputOf(run, 'Messaging Bot')).toHaveLength(3);
		expect(credentialReads('messagingBotApi') - before).toBe(1);
	});

	it('Scenario: a new conversation greeted, then a message answered, one read', async () => {
		const before = credentialReads('messagingBotApi');
		const at = Date.now();
		const message = (n: number, text: string) => ({
			event: 'message.received',
			message_id: `msg_r${n}`,
			client_id: 'cl_ada',
			bot_id: 'bot_shop',
			text,
			timestamp: new Date(at + n).toISOString(),
		});
		const run = await runWorkflow(
			itemsInto(
				[message(1, 'hi'), message(2, 'again')],
				scenarioNode({
					operation: 'handleMessage',
					scenario: JSON.stringify(ECHO_SCENARIO),
					options: { statePath: path.join(dir, 'state.sqlite'), reorderWindowSeconds: 0 },
				}),
			),
			credentials(),
		);
		expect(outputOf(run, 'Scenario').flatMap((i) => i.json.sent)).toEqual([
			'Hello',
			'You said again',
		]);
		expect(credentialReads('messagingBotApi') - before).toBe(1);
	});
});
