import { compileScenario, ScenarioEngine, type MessageReceived } from '../../runtime/scenarios';
import { MemoryStore } from '../../runtime/stores';
import { clientFor, realClock } from '../helpers/client';
import { admin, useEmulator } from '../helpers/emulator';
import { example } from './harness';

type Sent = { message_id: string; client_id: string; bot_id: string; text: string };
type Logged = { method: string; path: string; status: number };

// The engine against the service's twin over HTTP: replies through POST /bots/{id}/messages,
// tags through PUT /clients/{id}/tags, the profile from GET /clients/{id}.
describe('scenario engine against the emulator', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	let client: ReturnType<typeof clientFor>;
	let engine: ScenarioEngine;
	beforeAll(() => {
		client = clientFor(emulator(), { rateLimit: { limit: 100_000, windowMs: 60_000 } });
	});
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
		engine = new ScenarioEngine({
			scenarios: [compileScenario(example('order-status'))],
			store: new MemoryStore(),
			api: client,
			clock: realClock,
		});
	});
	afterAll(async () => client.close());

	/** The client writes through the emulator, which gives the message its id and channel. */
	async function write(text: string): Promise<MessageReceived> {
		const { body } = await admin<{ message: MessageReceived }>(emulator(), 'POST', '/inbound', {
			bot_id: 'bot_shop',
			client_id: 'cl_ada',
			text,
		});
		return body.data.message;
	}

	const sent = async () =>
		(await admin<Sent[]>(emulator(), 'GET', '/sent-messages?client_id=cl_ada')).body.data.map(
			(m) => m.text,
		);

	it('sends the replies in order, and the tags', async () => {
		// The order ships: the dashboard's order event updates the client's record.
		await admin(emulator(), 'POST', '/events', {
			event: 'order.updated',
			data: { client_id: 'cl_ada', order_id: 'ord_1001', status: 'shipped' },
		});
		for (const text of ['hi', 'where is my order', 'ada@example.com', '1001', 'human']) {
			const result = await engine.handle(await write(text));
			expect(result.problems).toEqual([]);
		}
		expect(await sent()).toEqual([
			'Hi Ada! I can tell you where your order is. Type "order" to start.',
			'What email address did you use for the order?',
			'Thanks! And the order number? It is in the confirmation we sent to ada@example.com.',
			'Order 1001 has shipped. Tracking details are on their way to ada@example.com.',
			'Anything else? Type "order" for another order, or "no" to finish.',
			'I am passing you to a colleague, who will answer here shortly.',
		]);
		const ada = await client.getClient('cl_ada');
		expect(ada.tags).toEqual(['customer', 'vip', 'needs-human']);
	});

	it('answers the real status from the client record, and "not found" for a number it lacks', async () => {
		for (const text of ['hi', 'order', 'ada@example.com', '1001', 'order', '4242'])
			expect((await engine.handle(await write(text))).problems).toEqual([]);
		const texts = await sent();
		expect(texts.filter((t) => t.startsWith('Order 1001 '))).toEqual([
			expect.stringMatching(/^Order 1001 is paid \(last update \d{4}-\d\d-\d\dT/),
		]);
		expect(texts).toContain('I could not find order 4242 among your orders.');
		// The record was read for each step of the conversation, through the public API.
		const reads = (await admin<Logged[]>(emulator(), 'GET', '/requests')).body.data.filter(
			(r) => r.method === 'GET' && r.path === '/v1/clients/cl_ada',
		);
		expect(reads.length).toBe(6);
	});

	it('does not re-send a reply whose outcome the service left unknown (a 500)', async () => {
		await engine.handle(await write('hi'));
		await admin(emulator(), 'POST', '/faults', { path: '/v1/bots/bot_shop/messages', count: 1 });
		const event = await write('order');
		const result = await engine.handle(event);
		expect(result.problems.map((p) => [p.text, p.status])).toEqual([
			['What email address did you use for the order?', 'unknown'],
		]);
		expect((await engine.handle(event)).status).toBe('duplicate');
		const posts = (await admin<Logged[]>(emulator(), 'GET', '/requests')).body.data.filter(
			(r) => r.method === 'POST' && r.path === '/v1/bots/bot_shop/messages',
		);
		expect(posts.map((r) => r.status)).toEqual([200, 500]);
		expect(await sent()).toEqual([
			'Hi Ada! I can tell you where your order is. Type "order" to start.',
		]);
	});

	// The spec does not show the send response: any 2xx means the service took the message.
	it.each([
		['200 {}', 200, '{}'],
		['200 with no body', 200, ''],
		['201', 201, '{"success":true}'],
		['204', 204, ''],
		['200 plain text', 200, 'OK'],
		['200 without message_id', 200, '{"success":true,"data":{"status":"queued"}}'],
	])('sends each reply once when Send Message is answered %s', async (_name, status, body) => {
		await admin(emulator(), 'POST', '/faults', {
			path: '/v1/bots/bot_shop/messages',
			kind: 'answer',
			status,
			body,
			count: 10,
		});
		const first = await engine.handle(await write('hi'));
		expect(first.problems).toEqual([]);
		expect(first.actions.map((a) => a.status)).toEqual(['done']);
		await engine.handle(await write('order'));
		expect(await engine.runDueWork(Date.now() + 3_600_000)).toMatchObject({ failures: [] });
		await admin(emulator(), 'DELETE', '/faults');
		expect(await sent()).toEqual([
			'Hi Ada! I can tell you where your order is. Type "order" to start.',
			'What email address did you use for the order?',
		]);
	});
});
