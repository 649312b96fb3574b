import { BadRequestError, normaliseHistoryItem, ResponseFormatError } from '../../runtime/api';
import { json, scriptedClient, type Reply } from '../helpers/scripted';

const always = (reply: Reply) => scriptedClient(() => reply).client;
const record = { id: 'cl_a', email: 'a@x.test', tags: ['vip'] };

// Strict in what is sent, tolerant in what is accepted: every shape the spec leaves open
// (docs/service-assumptions.md, "client stance") is read into the same result.
describe('Send Message answers (A12)', () => {
	const send = (reply: Reply) =>
		always(reply).sendMessage('bot_a', { client_id: 'cl_a', text: 'hi', type: 'text' });
	const sent = { bot_id: 'bot_a', client_id: 'cl_a', text: 'hi', type: 'text' };

	it.each([
		['204', { status: 204 }],
		['{success: true}', json(200, { success: true })],
		['201 plain text', { status: 201, body: 'Accepted' }],
	])('%s: what was sent, and no id', async (_name, reply) => {
		expect(await send(reply)).toEqual(sent);
	});

	it('reads the id as message_id or id, and passes the rest through', async () => {
		const documented = json(200, { success: true, data: { message_id: 'm1', status: 'sent' } });
		expect(await send(documented)).toEqual({ ...sent, message_id: 'm1', status: 'sent' });
		const asId = json(202, { success: true, data: { id: 42 }, request_id: 'r1' });
		expect(await send(asId)).toEqual({ ...sent, id: 42, message_id: '42', request_id: 'r1' });
	});

	it('a 2xx with success: false is refused, not "sent"', async () => {
		await expect(send(json(200, { success: false, error: 'Channel closed' }))).rejects.toThrow(
			BadRequestError,
		);
	});
});

describe('Activate Scenario answers (A14)', () => {
	const activate = (reply: Reply) => always(reply).activateScenario('bot_a', 'welcome');

	it.each([
		['204', { status: 204 }],
		['{success: true}', json(200, { success: true })],
		['no success member', json(200, {})],
	])('%s: the ids and the new status', async (_name, reply) => {
		expect(await activate(reply)).toEqual({
			bot_id: 'bot_a',
			scenario_id: 'welcome',
			status: 'active',
		});
	});

	it("takes the service's own words over ours, and keeps its extra fields", async () => {
		const reply = json(201, { success: true, data: { status: 'scheduled', at: 'x' }, trace: 't' });
		expect(await activate(reply)).toEqual({
			bot_id: 'bot_a',
			scenario_id: 'welcome',
			status: 'scheduled',
			at: 'x',
			trace: 't',
		});
	});
});

describe('Update Tags answers (A21)', () => {
	const update = (reply: Reply) =>
		always(reply).updateTags('cl_a', { add: ['vip'], remove: ['lead'] });

	it('without a record: the id and the change asked for, no tags invented', async () => {
		const result = await update({ status: 204 });
		expect(result).toEqual({ id: 'cl_a', tags_added: ['vip'], tags_removed: ['lead'] });
		expect(result).not.toHaveProperty('tags');
	});

	it('with the record (200 or 201): the record beside the change', async () => {
		for (const status of [200, 201]) {
			expect(await update(json(status, { success: true, data: record }))).toEqual({
				...record,
				tags_added: ['vip'],
				tags_removed: ['lead'],
			});
		}
	});
});

describe('Create Client: created or existing (A18)', () => {
	const create = async (reply: Reply) =>
		(await always(reply).createClient({ email: 'a@x.test' })).created;

	it.each([
		['201', json(201, { success: true, data: record }), true],
		['200', json(200, { success: true, data: record }), false],
		[
			'200 and created: true beside data',
			json(200, { success: true, created: true, data: record }),
			true,
		],
		[
			'201 and created: false beside data',
			json(201, { success: true, created: false, data: record }),
			false,
		],
		['is_new inside data', json(200, { success: true, data: { ...record, is_new: true } }), true],
		['existing: true', json(201, { success: true, existing: true, data: record }), false],
		['202 with no flag', json(202, { success: true, data: record }), null],
		[
			'a created timestamp (not a flag)',
			json(202, { data: { ...record, created: '2025-01-01' } }),
			null,
		],
	])('%s → %p', async (_name, reply, expected) => {
		expect(await create(reply)).toBe(expected);
	});

	it('a create answered without the record is an error naming what was missing', async () => {
		await expect(create({ status: 204 })).rejects.toThrow(
			new ResponseFormatError(
				'The service answered HTTP 204 with no body where its client was expected',
				204,
			),
		);
	});
});

describe('message history items (A24)', () => {
	it.each([
		['the documented names', { message_id: 'm1', direction: 'inbound', timestamp: 'T', text: 'x' }],
		['id, sender and created_at', { id: 'm1', sender: 'client', created_at: 'T', text: 'x' }],
		['id, direction in and sent_at', { id: 'm1', direction: 'in', sent_at: 'T', body: 'x' }],
		['from as an object', { id: 'm1', from: { type: 'customer' }, createdAt: 'T', content: 'x' }],
		['from as the client id', { id: 'm1', client_id: 'c1', from: 'c1', date: 'T', text: 'x' }],
	])('reads %s into the documented shape, keeping the originals', (_name, raw) => {
		const item = normaliseHistoryItem(raw) as Record<string, unknown>;
		expect(item).toMatchObject({
			message_id: 'm1',
			direction: 'inbound',
			timestamp: 'T',
			text: 'x',
		});
		// Fields under other names stay as they came; a documented name holds the documented value.
		const others = Object.entries(raw).filter(([key]) => !['direction', 'text'].includes(key));
		expect(item).toMatchObject(Object.fromEntries(others));
	});

	it('reads the bot side as outbound, and passes an unknown direction through', () => {
		expect(normaliseHistoryItem({ id: 'm', direction: 'out' })).toMatchObject({
			direction: 'outbound',
		});
		expect(normaliseHistoryItem({ id: 'm', sender: 'bot' })).toMatchObject({
			direction: 'outbound',
		});
		expect(normaliseHistoryItem({ id: 'm', bot_id: 'b', author: 'b' })).toMatchObject({
			direction: 'outbound',
		});
		expect(normaliseHistoryItem({ id: 'm', direction: 'system' })).toMatchObject({
			direction: 'system',
		});
		expect(normaliseHistoryItem({ id: 'm', sender: 'someone' })).not.toHaveProperty('direction');
	});

	it('the client reads pages and full records through it', async () => {
		const page = json(200, { success: true, data: [{ id: 'm1', sender: 'bot', created_at: 'T' }] });
		const [item] = await always(page).getClientMessages('cl_a');
		expect(item).toEqual({
			message_id: 'm1',
			direction: 'outbound',
			timestamp: 'T',
			id: 'm1',
			sender: 'bot',
			created_at: 'T',
		});
		const full = json(200, {
			success: true,
			data: { ...record, messages: [{ id: 'm2', direction: 'in' }] },
		});
		const client = await always(full).getClient('cl_a');
		expect(client.messages).toEqual([{ message_id: 'm2', direction: 'inbound', id: 'm2' }]);
	});
});

describe('lists that are not what they should be', () => {
	it('says what came instead of the list', async () => {
		await expect(always({ status: 200, body: '<html>login</html>' }).listBots()).rejects.toThrow(
			'The service answered HTTP 200 with a body that is not JSON where its bot list was expected',
		);
		await expect(
			always(json(200, { success: true, data: { bots: [] } })).listBots(),
		).rejects.toThrow(ResponseFormatError);
	});

	it('reads a list without a success member, extra members and all', async () => {
		const reply = json(200, {
			data: [{ id: 'b', name: 'B', status: 'paused', color: 'red' }],
			meta: {},
		});
		expect(await always(reply).listBots()).toEqual([
			{ id: 'b', name: 'B', status: 'paused', color: 'red', channels: [] },
		]);
	});
});
