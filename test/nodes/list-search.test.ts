import { LoadOptionsContext } from 'n8n-core';
import type { INode } from 'n8n-workflow';

import { getBots, searchBots, searchClients } from '../../nodes/shared/listSearch';
import { freePort } from '../../scripts/lib/n8n-process';
import { useEmulator } from '../helpers/emulator';
import { additionalDataFor, workflowOf, type TestWorkflow } from '../helpers/n8n';

const node: INode = {
	id: 'b',
	name: 'Messaging Bot',
	type: 'n8n-nodes-messaging-bot.messagingBot',
	typeVersion: 1,
	position: [0, 0],
	parameters: { resource: 'client', operation: 'get' },
	credentials: { messagingBotApi: { id: 'a', name: 'API' } },
};

/** The panel's list context, as n8n builds it when a list is opened, on the given credential. */
function panel(baseUrl: string, apiKey: string): LoadOptionsContext {
	const workflow: TestWorkflow = { nodes: [node], connections: {} };
	const credentials = {
		messagingBotApi: { baseUrl, apiKey, authHeader: 'bearer', rateLimit: 100 },
	};
	return new LoadOptionsContext(
		workflowOf(workflow),
		node,
		additionalDataFor(workflow, credentials),
		'parameters.clientId',
	);
}

describe('the bot and client lists', () => {
	const emulator = useEmulator();

	it('list the bots and clients', async () => {
		const ctx = panel(emulator().baseUrl, emulator().apiKey);
		expect((await searchBots.call(ctx)).results.map((r) => r.value)).toContain('bot_shop');
		expect((await getBots.call(ctx)).map((r) => r.value)).toContain('bot_support');
		expect((await searchClients.call(ctx, 'ada')).results.map((r) => r.value)).toEqual(['cl_ada']);
	});

	it('say in words that the service cannot be reached, not its error code', async () => {
		// Nothing listens there: the service is down.
		const ctx = panel(`http://127.0.0.1:${await freePort()}/v1`, 'mb_key');
		for (const list of [() => searchBots.call(ctx), () => searchClients.call(ctx)]) {
			const error = (await list().catch((e: unknown) => e)) as Error;
			expect(error.message).toMatch(/^Could not reach the service: it may be down/);
			expect(error.message).not.toMatch(/ECONNREFUSED/);
		}
	}, 60_000);
});
