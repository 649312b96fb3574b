import type { RunningEmulator } from '../../emulator';
import { call } from '../../helpers/emulator';
import {
	CLIENT_KEYS,
	emulatorForSuite,
	expectError,
	expectInvalid,
	type Client,
	type FullClient,
} from './api-fixture';

// docs/service-assumptions.md#a9, #a21 (tag rules, no-ops, response = updated client), #a23.
describe('emulator: PUT /clients/{id}/tags', () => {
	const emulator = emulatorForSuite();
	const put = (e: RunningEmulator, id: string, body: unknown) =>
		call<Client>(e, 'PUT', `/clients/${id}/tags`, { body });

	it('adds and removes tags and answers with the updated client record', async () => {
		const e = emulator();
		const added = await put(e, 'cl_grace', { add: ['vip', '  spaced  '] });
		expect(added.status).toBe(200);
		expect(added.body.success).toBe(true);
		expect(Object.keys(added.body.data).sort()).toEqual(CLIENT_KEYS);
		expect(added.body.data).toMatchObject({
			id: 'cl_grace',
			email: 'grace@example.com',
			tags: ['lead', 'vip', 'spaced'],
		});
		expect(added.body.data.updated_at >= added.body.data.created_at).toBe(true);

		const removed = await put(e, 'cl_grace', { remove: ['lead'] });
		expect(removed.body.data.tags).toEqual(['vip', 'spaced']);

		const both = await put(e, 'cl_grace', { add: ['new'], remove: ['vip'] });
		expect(both.body.data.tags).toEqual(['spaced', 'new']);

		const full = await call<FullClient>(e, 'GET', '/clients/cl_grace');
		expect(full.body.data.tags).toEqual(['spaced', 'new']);
		const { tags, updated_at } = full.body.data;
		expect({ tags, updated_at }).toEqual({
			tags: both.body.data.tags,
			updated_at: both.body.data.updated_at,
		});
	});

	it('is idempotent: adding a present tag or removing an absent one changes nothing', async () => {
		const e = emulator();
		const first = await put(e, 'cl_ada', { add: ['repeat'] });
		const second = await put(e, 'cl_ada', { add: ['repeat'] });
		expect(second.status).toBe(200);
		expect(second.body.data).toEqual(first.body.data);
		expect(second.body.data.tags).toEqual(['customer', 'vip', 'repeat']);
		const absent = await put(e, 'cl_ada', { remove: ['never-there'] });
		expect(absent.status).toBe(200);
		expect(absent.body.data).toEqual(first.body.data);
		const duplicates = await put(e, 'cl_ada', { add: ['dup', 'dup', ' dup'] });
		expect(duplicates.body.data.tags).toEqual(['customer', 'vip', 'repeat', 'dup']);
	});

	it('refuses an update that lists no tag', async () => {
		const e = emulator();
		for (const body of [{}, { add: [] }, { remove: [] }, { add: [], remove: [] }]) {
			expectError(await put(e, 'cl_ada', body), 400, 'validation_error', /at least one tag/);
		}
	});

	it('refuses a tag that is both added and removed', async () => {
		const e = emulator();
		expectInvalid(await put(e, 'cl_ada', { add: ['vip'], remove: ['vip'] }), 'remove');
		expectInvalid(await put(e, 'cl_ada', { add: ['x', 'y'], remove: [' y '] }), 'remove');
		expect((await call<FullClient>(e, 'GET', '/clients/cl_ada')).body.data.tags).toEqual([
			'customer',
			'vip',
		]);
	});

	it('refuses empty, blank, too long and non-string tags', async () => {
		const e = emulator();
		expectInvalid(await put(e, 'cl_ada', { add: [''] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { add: ['   '] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { remove: [''] }), 'remove');
		expectInvalid(await put(e, 'cl_ada', { add: ['t'.repeat(65)] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { add: [5] }), 'add');
		expectInvalid(await put(e, 'cl_ada', { add: 'vip' }), 'add');
		expectInvalid(
			await put(e, 'cl_ada', { add: Array.from({ length: 101 }, (_, i) => `t${i}`) }),
			'add',
		);
		expect((await put(e, 'cl_ada', { add: ['t'.repeat(64)] })).status).toBe(200);
	});

	it('answers 400 Invalid client_id for an unknown client', async () => {
		const r = await put(emulator(), 'cl_nobody', { add: ['x'] });
		expect(r.body).toEqual({
			success: false,
			error: { code: 'invalid_client_id', message: 'Invalid client_id' },
		});
		expect(r.status).toBe(400);
	});
});
