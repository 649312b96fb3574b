import { admin, useEmulator } from '../helpers/emulator';
import { byId } from '../helpers/workflows';
import { run, list, type Logged } from './messaging-bot-fixture';

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
