import type { IDataObject, INode } from 'n8n-workflow';

import { admin, sentTexts, useEmulator } from '../helpers/emulator';
import { outputOf, runWorkflow } from '../helpers/n8n';
import { byId, itemsIntoMessagingBot } from '../helpers/workflows';

// What a user types into the Messaging Bot node's form, read and checked as n8n-core's
// WorkflowExecute runs the real node against the emulator: refused before anything is sent, with
// the field named by its label; tags typed in one field.
describe('Messaging Bot node: what the user types', () => {
	const emulator = useEmulator({ rateLimit: 100_000 });
	beforeEach(async () => {
		await admin(emulator(), 'POST', '/reset');
	});
	const credentials = () => ({
		messagingBotApi: { baseUrl: emulator().baseUrl, apiKey: emulator().apiKey },
	});
	const requestCount = async () =>
		(await admin<unknown[]>(emulator(), 'GET', '/requests')).body.data.length;
	const run = async (parameters: INode['parameters'], items: IDataObject[] = [{}]) => {
		const result = await runWorkflow(itemsIntoMessagingBot(items, parameters), credentials());
		const error = result.data.resultData.error;
		return { error, output: error ? [] : outputOf(result, 'Messaging Bot') };
	};

	describe('Send Message refuses a text with nothing to read, and sends nothing', () => {
		it.each([
			['only spaces', '   '],
			['spaces, tabs and line breaks', ' \t\n  '],
			// n8n itself refuses a Text left empty; an expression can still give nothing.
			['an expression that gives nothing', '={{ $json.nothing }}'],
			['an expression that gives spaces', '={{ "  " + ($json.nothing ?? "") }}'],
		])('text made of %s', async (_what, text) => {
			const before = await requestCount();
			const { error } = await run({
				resource: 'bot',
				operation: 'sendMessage',
				botId: byId('bot_shop'),
				clientId: byId('cl_ada'),
				text,
			});
			expect(error?.message).toBe('Text must not be empty or only spaces');
			expect(error?.description).toBe(
				'Nothing was sent. Correct the field and run the step again.',
			);
			expect(await requestCount()).toBe(before);
			expect(await sentTexts(emulator(), 'cl_ada')).toEqual([]);
		});

		it('still sends a text with words and spaces around them, as typed', async () => {
			const { output } = await run({
				resource: 'bot',
				operation: 'sendMessage',
				botId: byId('bot_shop'),
				clientId: byId('cl_ada'),
				text: '  Hello  ',
			});
			expect(output[0].json.text).toBe('  Hello  ');
		});
	});

	describe('validation errors name the label once', () => {
		it('one broken field: the title is the label and the rule; the description adds no copy', async () => {
			const { error } = await run({
				resource: 'bot',
				operation: 'getStats',
				botId: byId('bot_shop'),
				from: '2024-05-02T00:00:00',
				to: '2024-05-01T00:00:00',
			});
			expect(error?.message).toBe('From must not be after the "To" date');
			expect(error?.description).not.toMatch(/From|from|date/);
		});

		it('several broken fields: a count in the title, each field once in the bullets', async () => {
			const before = await requestCount();
			const { error } = await run({
				resource: 'client',
				operation: 'create',
				email: 'not-an-email',
				phone: '12345',
				additionalFields: { custom_fields: '[1, 2]' },
			});
			// The JSON check runs first, on its own: the form's fields are read before the API's rules.
			expect(error?.message).toBe('Custom Fields must be a JSON object, like {"plan": "pro"}');
			const { error: two } = await run({
				resource: 'client',
				operation: 'create',
				email: 'not-an-email',
				phone: '12345',
				additionalFields: {},
			});
			expect(two?.message).toBe('2 fields need correcting');
			const bullets = String(two?.description).split('\n');
			expect(bullets).toEqual([
				'• Email must be a valid email address, like name@example.com',
				expect.stringMatching(/^• Phone must be in international format/),
				'Nothing was sent.',
			]);
			expect(await requestCount()).toBe(before);
		});

		it('speaks of the labels the form shows, never of API fields', async () => {
			const both = await run({
				resource: 'client',
				operation: 'updateTags',
				clientId: byId('cl_ada'),
				add: 'vip',
				remove: 'vip',
			});
			expect(both.error?.message).toBe(
				'Tags to Remove must not name a tag that is also being added',
			);
			const none = await run({
				resource: 'client',
				operation: 'updateTags',
				clientId: byId('cl_ada'),
				add: ' , ',
				remove: '',
			});
			expect(none.error?.message).toBe('Tags to Add or Tags to Remove must list at least one tag');
			const noClient = await run({
				resource: 'client',
				operation: 'get',
				clientId: byId('={{ $json.missing }}'),
			});
			expect(noClient.error?.message).toBe('Client must be a non-empty client ID');
			const badTag = await run({
				resource: 'client',
				operation: 'updateTags',
				clientId: byId('cl_ada'),
				add: `ok, ${'x'.repeat(65)}`,
			});
			expect(badTag.error?.message).toBe('Tags to Add (entry 2) must be at most 64 characters');
			for (const e of [both.error, none.error, noClient.error, badTag.error])
				expect(`${e?.message} ${e?.description}`).not.toMatch(
					/client_id|\badd\b|\bremove\b|tags\./,
				);
		});
	});

	describe('tags in one field', () => {
		it('Update Tags reads "a, b" as two tags', async () => {
			const { output } = await run({
				resource: 'client',
				operation: 'updateTags',
				clientId: byId('cl_grace'),
				add: 'customer, vip',
				remove: 'lead',
			});
			expect(output[0].json.tags).toEqual(['customer', 'vip']);
		});

		it('still reads the list of rows that workflows saved before (one tag a row, or "a, b" in a row)', async () => {
			const { output } = await run({
				resource: 'client',
				operation: 'updateTags',
				clientId: byId('cl_grace'),
				add: ['customer', 'vip, newsletter'],
				remove: ['lead'],
			});
			expect(output[0].json.tags).toEqual(['customer', 'vip', 'newsletter']);
		});

		it('Create and the Get Many filter take the same comma-separated field', async () => {
			const created = await run({
				resource: 'client',
				operation: 'create',
				email: 'tagged@example.com',
				phone: '',
				additionalFields: { tags: 'lead,  newsletter ,' },
			});
			expect(created.output[0].json.tags).toEqual(['lead', 'newsletter']);
			const found = await run({
				resource: 'client',
				operation: 'getAll',
				returnAll: true,
				filters: { tags: 'lead, newsletter' },
			});
			expect(found.output.map((i) => i.json.id).sort()).toEqual(
				['cl_linus', created.output[0].json.id].sort(),
			);
		});

		it('an expression giving a list of tags works too', async () => {
			const { output } = await run(
				{
					resource: 'client',
					operation: 'updateTags',
					clientId: byId('cl_alan'),
					add: '={{ $json.tags }}',
				},
				[{ tags: ['customer', 'vip'] }],
			);
			expect(output[0].json.tags).toEqual(['customer', 'vip']);
		});
	});
});
