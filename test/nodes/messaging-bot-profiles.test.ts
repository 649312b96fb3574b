import type { IDataObject, INode } from 'n8n-workflow';

import type { RunningEmulator } from '../emulator';
import { admin, apiCredential, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { byId, itemsIntoMessagingBot } from '../helpers/workflows';

async function run(e: RunningEmulator, parameters: INode['parameters']) {
	const result = await runWorkflow(itemsIntoMessagingBot([{}], parameters), {
		messagingBotApi: apiCredential(e),
	});
	const error = result.data.resultData.error;
	return { error, output: error ? [] : outputOf(result, 'Messaging Bot').map((i) => i.json) };
}

type Case = {
	parameters: INode['parameters'];
	/** Fields every output item has, under any answer of the service. */
	fields: string[];
	/** Fields whose values do not depend on how the service words its answer. */
	same: string[];
};

const client = ['id', 'email', 'phone', 'first_name', 'last_name', 'custom_fields', 'tags'];
const cases: Record<string, Case> = {
	'Bot: Get Many': {
		parameters: { resource: 'bot', operation: 'getAll', returnAll: true },
		fields: ['id', 'name', 'status', 'channels'],
		same: ['id', 'name', 'status', 'channels'],
	},
	'Bot: Send Message': {
		parameters: {
			resource: 'bot',
			operation: 'sendMessage',
			botId: byId('bot_shop'),
			clientId: byId('cl_ada'),
			text: 'Shipped',
		},
		fields: ['message_id', 'bot_id', 'client_id', 'text', 'type'],
		same: ['bot_id', 'client_id', 'text', 'type'],
	},
	'Bot: Get Statistics': {
		parameters: { resource: 'bot', operation: 'getStats', botId: byId('bot_shop') },
		fields: ['bot_id', 'new_clients', 'messages', 'active_clients', 'conversion'],
		same: ['bot_id', 'new_clients', 'messages', 'active_clients', 'conversion'],
	},
	'Bot: Activate Scenario': {
		parameters: {
			resource: 'bot',
			operation: 'activateScenario',
			botId: byId('bot_shop'),
			scenarioId: 'order_status',
		},
		fields: ['bot_id', 'scenario_id', 'status'],
		same: ['bot_id', 'scenario_id', 'status'],
	},
	'Client: Create': {
		parameters: {
			resource: 'client',
			operation: 'create',
			email: 'new@example.com',
			phone: '',
			additionalFields: { first_name: 'New', tags: ['lead'] },
		},
		fields: [...client, 'created'],
		same: ['email', 'first_name', 'tags', 'created'],
	},
	'Client: Get': {
		parameters: { resource: 'client', operation: 'get', clientId: byId('cl_ada') },
		fields: [...client, 'messages', 'message_count', 'orders'],
		same: client.filter((f) => f !== 'id').concat('id', 'message_count'),
	},
	'Client: Get Many': {
		parameters: { resource: 'client', operation: 'getAll', returnAll: true, filters: {} },
		fields: client,
		same: client,
	},
	'Client: Update Tags': {
		parameters: {
			resource: 'client',
			operation: 'updateTags',
			clientId: byId('cl_grace'),
			add: ['customer'],
			remove: ['lead'],
		},
		fields: ['id', 'tags', 'tags_added', 'tags_removed'],
		same: ['id', 'tags', 'tags_added', 'tags_removed'],
	},
	'Client: Get Messages': {
		parameters: {
			resource: 'client',
			operation: 'getMessages',
			clientId: byId('cl_ada'),
			returnAll: true,
		},
		fields: [
			'message_id',
			'client_id',
			'bot_id',
			'direction',
			'text',
			'type',
			'channel',
			'timestamp',
		],
		same: ['message_id', 'client_id', 'bot_id', 'direction', 'text', 'type', 'channel'],
	},
};

const missing = (items: IDataObject[], fields: string[]) =>
	items.flatMap((item, i) => fields.filter((f) => !(f in item)).map((f) => `item ${i}: ${f}`));
const pick = (items: IDataObject[], fields: string[]) =>
	items.map((item) => Object.fromEntries(fields.map((f) => [f, item[f]])));

// What a no-code user sees does not depend on how the service words the answers the spec leaves
// open: the same fields, with the same values, under the emulator's default and variant answers.
describe('Messaging Bot node: the same output under either way of answering', () => {
	const standard = useEmulator({ rateLimit: 100_000 });
	const variant = useEmulator({ rateLimit: 100_000, profile: 'variant' });
	beforeEach(async () => {
		await Promise.all([admin(standard(), 'POST', '/reset'), admin(variant(), 'POST', '/reset')]);
	});

	it.each(Object.entries(cases))('%s', async (_name, { parameters, fields, same }) => {
		const a = await run(standard(), parameters);
		const b = await run(variant(), parameters);
		expect([a.error?.message, b.error?.message]).toEqual([undefined, undefined]);
		expect(b.output).toHaveLength(a.output.length);
		expect(a.output.length).toBeGreaterThan(0);
		expect(missing(a.output, fields)).toEqual([]);
		expect(missing(b.output, fields)).toEqual([]);
		expect(pick(b.output, same)).toEqual(pick(a.output, same));
	});

	it('Bot: Send Message gives message_id null when the service sends none', async () => {
		const a = await run(standard(), cases['Bot: Send Message'].parameters);
		const b = await run(variant(), cases['Bot: Send Message'].parameters);
		expect(a.output[0].message_id).toMatch(/^msg_/);
		expect(b.output[0].message_id).toBeNull();
	});

	it('Client: Create says created, then existing, however the service tells it', async () => {
		const parameters = cases['Client: Create'].parameters;
		for (const e of [standard(), variant()]) {
			const first = await run(e, parameters);
			const again = await run(e, parameters);
			expect([first.output[0].created, again.output[0].created]).toEqual([true, false]);
			expect(again.output[0].id).toBe(first.output[0].id);
		}
	});

	it.each([
		[
			'an unknown client',
			{ ...cases['Client: Update Tags'].parameters, clientId: byId('cl_nobody') },
		],
		['a switched-off bot', { ...cases['Bot: Send Message'].parameters, botId: byId('bot_legacy') }],
		['an unknown scenario', { ...cases['Bot: Activate Scenario'].parameters, scenarioId: 'nope' }],
	])('explains %s in the same words, whatever the error body', async (_name, parameters) => {
		const a = await run(standard(), parameters);
		const b = await run(variant(), parameters);
		expect(a.error?.message).toEqual(expect.any(String));
		expect([b.error?.message, b.error?.description]).toEqual([
			a.error?.message,
			a.error?.description,
		]);
	});

	it('explains a refused key in the same words, though the 401 has no body', async () => {
		const stranger = async (e: RunningEmulator) =>
			(
				await runWorkflow(itemsIntoMessagingBot([{}], cases['Bot: Get Many'].parameters), {
					messagingBotApi: apiCredential(e, { apiKey: 'mb_test_wrong' }),
				})
			).data.resultData.error;
		const [a, b] = [await stranger(standard()), await stranger(variant())];
		expect(b?.message).toBe('Unauthorized');
		expect([b?.message, b?.description]).toEqual([a?.message, a?.description]);
	});
});
