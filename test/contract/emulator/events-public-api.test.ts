import { call } from '../../helpers/emulator';
import { useEventCapture, type Client } from './event-capture';

// docs/service-assumptions.md#a32 (which operation emits which event), #a33 (data of each event),
// #a30 (signature on every delivery), #a25 (order fields), #a14 (bot.started on activation), #a6 (bot switched off).
describe('emulator events: the documented mapping reaches a subscribed receiver', () => {
	const { capture } = useEventCapture();

	describe('from the public API', () => {
		it('POST /clients of a new client emits client.created with the record; an existing one emits nothing', async () => {
			const created = await capture((e) =>
				call<Client>(e, 'POST', '/clients', {
					body: { email: 'new.person@example.com', first_name: 'New', tags: ['trial'] },
				}),
			);
			expect(created.result.status).toBe(201);
			expect(created.events).toHaveLength(1);
			expect(created.events[0]).toMatchObject({
				event: 'client.created',
				data: { client_id: created.result.body.data.id, client: created.result.body.data },
			});

			for (const body of [
				{ email: 'NEW.person@example.com' },
				{ email: 'ada@example.com', first_name: 'Someone else' },
				{ phone: '+12025550123' },
			]) {
				const existing = await capture((e) => call<Client>(e, 'POST', '/clients', { body }));
				expect(existing.result.status).toBe(200);
				expect(existing.events).toEqual([]);
			}
		});

		it('a refused client creation emits nothing', async () => {
			const refused = await capture((e) =>
				call(e, 'POST', '/clients', { body: { first_name: 'No key' } }),
			);
			expect(refused.result.status).toBe(400);
			expect(refused.events).toEqual([]);
		});

		it('adding tags emits client.tagged with tags_added', async () => {
			const { result, events } = await capture((e) =>
				call<Client>(e, 'PUT', '/clients/cl_grace/tags', { body: { add: ['vip', 'lead'] } }),
			);
			expect(result.status).toBe(200);
			expect(events).toHaveLength(1);
			expect(events[0]).toMatchObject({
				event: 'client.tagged',
				data: { client_id: 'cl_grace', tags_added: ['vip'] },
			});
			expect(events[0].data.tags).toEqual(result.body.data.tags);
			expect(result.body.data.tags).toEqual(expect.arrayContaining(['lead', 'vip']));
		});

		it('removing tags only emits client.updated, not client.tagged', async () => {
			const { result, events } = await capture((e) =>
				call<Client>(e, 'PUT', '/clients/cl_linus/tags', { body: { remove: ['newsletter'] } }),
			);
			expect(result.status).toBe(200);
			expect(events.map((g) => g.event)).toEqual(['client.updated']);
			expect(events[0].data).toMatchObject({ client_id: 'cl_linus', changes: expect.any(Object) });
			expect(JSON.stringify(events[0].data.changes)).toContain('newsletter');
		});

		it('adding and removing together emits client.tagged', async () => {
			const { events } = await capture((e) =>
				call(e, 'PUT', '/clients/cl_linus/tags', { body: { add: ['beta'], remove: ['lead'] } }),
			);
			const tagged = events.filter((g) => g.event === 'client.tagged');
			expect(tagged).toHaveLength(1);
			expect(tagged[0].data).toMatchObject({ client_id: 'cl_linus', tags_added: ['beta'] });
			expect(tagged[0].data.tags).not.toContain('lead');
		});

		it('a tag update that changes nothing emits nothing', async () => {
			const { result, events } = await capture((e) =>
				call(e, 'PUT', '/clients/cl_ada/tags', { body: { add: ['vip'], remove: ['not-there'] } }),
			);
			expect(result.status).toBe(200);
			expect(events).toEqual([]);
		});

		it('sending a message emits message.sent: the send response plus metadata', async () => {
			const { result, events } = await capture((e) =>
				call<Record<string, unknown>>(e, 'POST', '/bots/bot_shop/messages', {
					body: { client_id: 'cl_ada', text: 'Your parcel is on its way', type: 'text' },
				}),
			);
			expect(result.status).toBe(200);
			expect(events).toHaveLength(1);
			expect(events[0].event).toBe('message.sent');
			expect(events[0].data).toEqual({
				...result.body.data,
				metadata: { message_type: 'text', has_attachments: false },
			});
			expect(events[0].data).toMatchObject({
				client_id: 'cl_ada',
				bot_id: 'bot_shop',
				text: 'Your parcel is on its way',
			});
		});

		it('a send refused by an inactive bot emits nothing', async () => {
			const { result, events } = await capture((e) =>
				call(e, 'POST', '/bots/bot_legacy/messages', {
					body: { client_id: 'cl_ada', text: 'hello?' },
				}),
			);
			expect(result.status).toBe(403);
			expect(events).toEqual([]);
		});

		it('activating a scenario emits bot.started', async () => {
			const { result, events } = await capture((e) =>
				call<Record<string, unknown>>(e, 'PUT', '/bots/bot_shop/scenarios/order_status/activate'),
			);
			expect(result.status).toBe(200);
			expect(events).toHaveLength(1);
			expect(events[0]).toMatchObject({
				event: 'bot.started',
				data: {
					...result.body.data,
					bot_id: 'bot_shop',
					scenario_id: 'order_status',
					reason: 'scenario_activated',
				},
			});
		});
	});
});
