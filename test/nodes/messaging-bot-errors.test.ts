import { admin, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { byId, itemsIntoMessagingBot } from '../helpers/workflows';
import { run } from './messaging-bot-fixture';

describe('Messaging Bot node: errors, continue-on-fail and paired items', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		await admin(emulator(), 'POST', '/config', { rate_limit: 100_000 });
	});

	const tagItems = [{ id: 'cl_ada' }, { id: 'cl_nobody' }, { id: 'cl_grace' }];
	const tagParams = {
		resource: 'client',
		operation: 'updateTags',
		clientId: byId('={{ $json.id }}'),
		add: ['customer'],
	};

	it('stops at the first failed item with the service message and a hint', async () => {
		const { error } = await run(emulator(), tagItems, tagParams);
		expect(error?.message).toBe('Invalid client_id');
		expect(error?.description).toMatch(/No client has this ID/);
	});

	it('with continue-on-fail gives an error item for the failed input and carries on', async () => {
		const { output, error } = await run(emulator(), tagItems, tagParams, {
			onError: 'continueRegularOutput',
		});
		expect(error).toBeUndefined();
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.tags).toContain('customer');
		expect(output[1].json).toEqual({ error: 'Invalid client_id' });
		expect(output[1].error?.description).toMatch(/No client has this ID/);
		expect(output[2].json.tags).toContain('customer');
	});

	it('explains 403 Bot is inactive with how to switch the bot on', async () => {
		const { error } = await run(emulator(), [{}], {
			resource: 'bot',
			operation: 'sendMessage',
			botId: byId('bot_legacy'),
			clientId: byId('cl_ada'),
			text: 'hi',
		});
		expect(error?.message).toBe('Bot is inactive');
		expect(error?.description).toMatch(/switched off.*set its status to Active/);
	});

	it('explains 401 without ever showing the key', async () => {
		const key = 'mb_test_this_key_is_secret';
		const result = await runWorkflow(
			itemsIntoMessagingBot([{}], { resource: 'bot', operation: 'getAll', returnAll: true }),
			{
				messagingBotApi: { baseUrl: emulator().baseUrl, apiKey: key, authHeader: 'both' },
			},
		);
		const error = result.data.resultData.error;
		expect(error?.message).toBe('Unauthorized');
		expect(error?.description).toMatch(/refused the API key/);
		expect(JSON.stringify(result)).not.toContain(key);
	});

	it('refuses bad input before any request, naming the field and rule', async () => {
		const before = (await admin<unknown[]>(emulator(), 'GET', '/requests')).body.data.length;
		const { error } = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'create',
			email: '',
			phone: '020 7123 4567',
			additionalFields: {},
		});
		expect(error?.message).toBe(
			'Phone must be in international format: a plus sign, then 7 to 15 digits (e.g. +44 7911 123456)',
		);
		const custom = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'create',
			email: 'a@b.co',
			phone: '',
			additionalFields: { custom_fields: '{not json' },
		});
		expect(custom.error?.message).toMatch(/^Custom Fields must be valid JSON/);
		const after = (await admin<unknown[]>(emulator(), 'GET', '/requests')).body.data.length;
		expect(after).toBe(before);
	});

	it('adds /v1 to a base URL that lacks it', async () => {
		const result = await runWorkflow(
			itemsIntoMessagingBot([{}], { resource: 'bot', operation: 'getAll', returnAll: true }),
			{
				messagingBotApi: {
					baseUrl: emulator().baseUrl.replace(/\/v1$/, '/'),
					apiKey: emulator().apiKey,
					authHeader: 'xApiKey',
				},
			},
		);
		expect(outputOf(result, 'Messaging Bot')).toHaveLength(3);
	});
});
