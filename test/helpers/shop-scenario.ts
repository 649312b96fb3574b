/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { closeSharedSqliteStores } from '../../runtime/stores/sqlite';
import { admin, apiCredential, useEmulator } from './emulator';

/** A shop's order-taking scenario: a number to capture, a retry, a give-up and a handoff. */
export const SHOP = {
	id: 'shop',
	version: 1,
	start: 'welcome',
	states: {
		welcome: {
			messages: ['Hi'],
			on: [
				{ match: { equals: 'order' }, target: 'ask' },
				{ match: { equals: 'help' }, target: 'human' },
			],
		},
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
};

/** The `n`th message a client sends the shop's bot. */
export const shopMessage = (client: string, text: string, n: number) => ({
	event: 'message.received',
	message_id: `m_${client}_${n}`,
	client_id: client,
	bot_id: 'bot_shop',
	text,
});

/**
 * For node tests of the Scenario node: a temporary folder for state files (the stores closed
 * and the folder removed after the tests), and an emulator reset before each test with the
 * Messaging Bot API credential for it.
 */
export function useScenarioNodeSetup(prefix: string) {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	afterAll(async () => {
		await closeSharedSqliteStores();
		rmSync(dir, { recursive: true, force: true });
	});
	const emulator = useEmulator({ rateLimit: 100_000 });
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});
	const credentials = () => ({ messagingBotApi: apiCredential(emulator()) });
	return { dir, emulator, credentials };
}
