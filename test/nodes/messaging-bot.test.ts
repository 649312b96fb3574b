import type { IDataObject, INode, IVersionedNodeType } from 'n8n-workflow';

import type { RunningEmulator } from '../emulator';
import { admin, apiCredential, useEmulator } from '../helpers/emulator';
import { n8nCacheDir } from '../../scripts/lib/n8n-install';
import { outputOf, registerNodeType, runWorkflow } from '../helpers/n8n';
import { byId, itemsIntoMessagingBot } from '../helpers/workflows';

type Logged = { method: string; path: string; query: string; status: number };

const credentialsFor = (e: RunningEmulator, extra: IDataObject = {}) => ({
	messagingBotApi: apiCredential(e, extra),
});

async function run(
	e: RunningEmulator,
	items: IDataObject[],
	parameters: INode['parameters'],
	extra: Partial<INode> = {},
	creds: IDataObject = {},
) {
	const result = await runWorkflow(
		itemsIntoMessagingBot(items, parameters, extra),
		credentialsFor(e, creds),
	);
	return {
		result,
		error: result.data.resultData.error,
		output: result.data.resultData.error ? [] : outputOf(result, 'Messaging Bot'),
	};
}

const list = (value: string) => ({ __rl: true, mode: 'list', value });

// Every operation of the Messaging Bot node, executed by n8n-core's WorkflowExecute with the
// real node and credential classes, against the emulator over HTTP.
describe('Messaging Bot node: operations', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		await admin(emulator(), 'POST', '/config', { rate_limit: 100_000 });
	});
	const requests = async () => (await admin<Logged[]>(emulator(), 'GET', '/requests')).body.data;

	it('Bot: Get Many lists bots, with a limit', async () => {
		const { output } = await run(emulator(), [{}], {
			resource: 'bot',
			operation: 'getAll',
			returnAll: false,
			limit: 2,
		});
		expect(output.map((i) => i.json.id)).toEqual(['bot_shop', 'bot_support']);
	});

	it('Bot: Send Message sends through the emulator, one item per input item', async () => {
		const { output } = await run(emulator(), [{ who: 'cl_ada' }, { who: 'cl_grace' }], {
			resource: 'bot',
			operation: 'sendMessage',
			botId: list('bot_shop'),
			clientId: byId('={{ $json.who }}'),
			text: '=Hello {{ $json.who }}',
		});
		expect(output.map((i) => [i.json.client_id, i.json.text, i.pairedItem])).toEqual([
			['cl_ada', 'Hello cl_ada', { item: 0 }],
			['cl_grace', 'Hello cl_grace', { item: 1 }],
		]);
		const sent = (
			await admin<Array<{ client_id: string; text: string }>>(emulator(), 'GET', '/sent-messages')
		).body.data;
		expect(sent.map((m) => [m.client_id, m.text])).toEqual([
			['cl_ada', 'Hello cl_ada'],
			['cl_grace', 'Hello cl_grace'],
		]);
	});

	it('Bot: Get Statistics sends the dates as YYYY-MM-DD', async () => {
		const { output } = await run(emulator(), [{}], {
			resource: 'bot',
			operation: 'getStats',
			botId: byId('bot_shop'),
			from: '2020-01-01T00:00:00',
			to: '2099-12-31T00:00:00',
		});
		expect(output[0].json).toMatchObject({ bot_id: 'bot_shop', new_clients: 1, messages: 2 });
		expect((await requests()).at(-1)?.query).toBe('?from=2020-01-01&to=2099-12-31');
	});

	it('Bot: Activate Scenario', async () => {
		const { output } = await run(emulator(), [{}], {
			resource: 'bot',
			operation: 'activateScenario',
			botId: list('bot_shop'),
			scenarioId: 'order_status',
		});
		expect(output[0].json).toMatchObject({
			bot_id: 'bot_shop',
			scenario_id: 'order_status',
			status: 'active',
		});
	});

	it('Client: Create makes one client and says whether it was new', async () => {
		const parameters = {
			resource: 'client',
			operation: 'create',
			email: 'new@example.com',
			phone: '',
			additionalFields: {
				first_name: 'New',
				tags: ['lead', 'newsletter'],
				custom_fields: '{"plan": {"name": "pro"}}',
			},
		};
		const first = await run(emulator(), [{}], parameters);
		const second = await run(emulator(), [{}], parameters);
		expect(first.output[0].json).toMatchObject({
			email: 'new@example.com',
			tags: ['lead', 'newsletter'],
			custom_fields: { plan: { name: 'pro' } },
			created: true,
		});
		expect(second.output[0].json).toMatchObject({ id: first.output[0].json.id, created: false });
	});

	it('Client: Get returns the full record', async () => {
		const { output } = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'get',
			clientId: list('cl_ada'),
		});
		expect(output[0].json).toMatchObject({
			id: 'cl_ada',
			tags: ['customer', 'vip'],
			message_count: 2,
		});
	});

	it('Client: Get Many filters by tags and email', async () => {
		const tags = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'getAll',
			returnAll: true,
			filters: { tags: ['customer'] },
		});
		expect(tags.output.map((i) => i.json.id)).toEqual(['cl_ada', 'cl_katherine']);
		const email = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'getAll',
			returnAll: true,
			filters: { email: 'alan@example.com' },
		});
		expect(email.output.map((i) => i.json.id)).toEqual(['cl_alan']);
	});

	it('Client: Update Tags adds and removes', async () => {
		const { output } = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'updateTags',
			clientId: byId('cl_grace'),
			add: ['customer'],
			remove: ['lead'],
		});
		expect(output[0].json.tags).toEqual(['customer']);
	});

	it('Client: Create tidies a phone written with spaces, as people write it', async () => {
		const { output } = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'create',
			email: '',
			phone: '+44 7911 123456',
			additionalFields: {},
		});
		expect(output[0].json).toMatchObject({ phone: '+447911123456', created: true });
	});

	it('says in plain words, with the counts, when a message is too long', async () => {
		const { error } = await run(emulator(), [{}], {
			resource: 'bot',
			operation: 'sendMessage',
			botId: byId('bot_shop'),
			clientId: byId('cl_ada'),
			text: 'x'.repeat(5_000),
		});
		expect(error?.message).toBe(
			'Text is too long: 5,000 characters, and the service sends at most 4,096. Shorten it, or send it as two messages',
		);
	});

	it('Client: Update Tags reports only what changed, not what was asked', async () => {
		// Ada has customer and vip, not lead or new.
		const { output } = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'updateTags',
			clientId: byId('cl_ada'),
			add: 'customer, new',
			remove: 'lead, vip',
		});
		expect(output[0].json).toMatchObject({
			id: 'cl_ada',
			tags_added: ['new'],
			tags_removed: ['vip'],
			tags: ['customer', 'new'],
		});
	});

	it('Client: Get Messages returns the history oldest first', async () => {
		const { output } = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'getMessages',
			clientId: byId('cl_ada'),
			returnAll: true,
		});
		expect(output.map((i) => i.json.message_id)).toEqual(['msg_seed_1', 'msg_seed_2']);
	});

	it('Return All over 2,500 clients spends 3 requests; Limit 120 spends 1', async () => {
		await admin(emulator(), 'POST', '/clients', { count: 2_495 });
		const all = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'getAll',
			returnAll: true,
			filters: {},
		});
		expect(all.output).toHaveLength(2_500);
		expect(new Set(all.output.map((i) => i.json.id)).size).toBe(2_500);
		expect(all.output.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect((await requests()).filter((r) => r.path === '/v1/clients')).toHaveLength(3);
		const limited = await run(emulator(), [{}], {
			resource: 'client',
			operation: 'getAll',
			returnAll: false,
			limit: 120,
			filters: {},
		});
		expect(limited.output).toHaveLength(120);
		expect((await requests()).filter((r) => r.path === '/v1/clients')).toHaveLength(4);
	});
});

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

describe('Messaging Bot node: the request limit', () => {
	// The window is scaled from 60 s to 1.5 s (emulator and credential alike) so the test runs fast.
	const emulator = useEmulator({ rateLimit: 100, rateWindowMs: 1_500 });

	it('tags 500 clients with no failure and no 429', async () => {
		const e = emulator();
		const { body } = await admin<{ ids: string[] }>(e, 'POST', '/clients', { count: 500 });
		await admin(e, 'POST', '/config', { rate_limit: 100_000 });
		await admin(e, 'POST', '/config', { rate_limit: 100, rate_window_ms: 1_500 });
		const items = body.data.ids.map((id) => ({ id }));
		const started = Date.now();
		const { output, error } = await run(
			e,
			items,
			{
				resource: 'client',
				operation: 'updateTags',
				clientId: byId('={{ $json.id }}'),
				add: ['customer'],
			},
			{},
			{ rateLimit: 100, rateWindowSeconds: 1.5 },
		);
		const elapsed = Date.now() - started;
		expect(error).toBeUndefined();
		expect(output).toHaveLength(500);
		expect(output.every((i) => (i.json.tags as string[]).includes('customer'))).toBe(true);
		const log = (await admin<Logged[]>(e, 'GET', '/requests')).body.data.filter((r) =>
			r.path.endsWith('/tags'),
		);
		expect(log).toHaveLength(500);
		expect(log.filter((r) => r.status === 429)).toEqual([]);
		// 500 requests at 100 per 1.5 s cannot take less than four full windows.
		expect(elapsed).toBeGreaterThanOrEqual(6_000);
	});

	it("where n8n's HTTP Request node with default settings, run the same way, fails", async () => {
		// The real node from the n8n that the end-to-end suite installs (npm test installs it first).
		const modulePath = `${n8nCacheDir()}/node_modules/n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js`;
		const { HttpRequest } = (await import(modulePath)) as {
			HttpRequest: new () => IVersionedNodeType;
		};
		registerNodeType('n8n-nodes-base.httpRequest', new HttpRequest());
		const e = emulator();
		await admin(e, 'POST', '/reset');
		const { body } = await admin<{ ids: string[] }>(e, 'POST', '/clients', { count: 500 });
		await admin(e, 'POST', '/config', { rate_limit: 100, rate_window_ms: 1_500 });
		const workflow = itemsIntoMessagingBot(
			body.data.ids.map((id) => ({ id })),
			{},
		);
		workflow.nodes[1] = {
			id: 'h',
			name: 'Messaging Bot',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: [200, 0],
			parameters: {
				method: 'PUT',
				url: `=${e.baseUrl}/clients/{{ $json.id }}/tags`,
				sendHeaders: true,
				headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${e.apiKey}` }] },
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '{"add": ["customer"]}',
				options: {},
			},
		};
		const result = await runWorkflow(workflow, {});
		expect(result.data.resultData.error?.message).toMatch(/429|too many requests/i);
		const log = (await admin<Logged[]>(e, 'GET', '/requests')).body.data.filter((r) =>
			r.path.endsWith('/tags'),
		);
		expect(log.filter((r) => r.status === 429).length).toBeGreaterThan(0);
	});
});
