import { changeTags, type Client, type TagUpdate } from '../../runtime/api';

/** A service with a client tagged `had`, answering the update as `answer` says. */
function service(had: string[], answer: (asked: { add?: string[]; remove?: string[] }) => object) {
	return {
		getClient: async () => ({ id: 'cl_a', tags: had }) as unknown as Client,
		updateTags: async (id: string, change: { add?: string[]; remove?: string[] }) =>
			({
				id,
				tags_added: change.add ?? [],
				tags_removed: change.remove ?? [],
				...answer(change),
			}) as TagUpdate,
	};
}

describe('changeTags: what changed, whatever the service answers', () => {
	const change = { add: ['customer', 'new'], remove: ['lead', 'gone'] };

	it('from the tags before, when the answer has no record (the spec shows none)', async () => {
		const result = await changeTags(
			service(['customer', 'lead'], () => ({})),
			'cl_a',
			change,
		);
		expect(result).toMatchObject({ tags_added: ['new'], tags_removed: ['lead'] });
	});

	it('checked against the record that comes back', async () => {
		// The service kept "new" off (a limit of its own): it was not added.
		const result = await changeTags(
			service(['lead'], () => ({ tags: ['customer'] })),
			'cl_a',
			change,
		);
		expect(result).toMatchObject({ tags_added: ['customer'], tags_removed: ['lead'] });
	});

	it("the service's own lists stand when it names what it changed", async () => {
		const result = await changeTags(
			service(['customer'], () => ({ tags_added: ['new'], tags_removed: [] })),
			'cl_a',
			change,
		);
		expect(result).toMatchObject({ tags_added: ['new'], tags_removed: [] });
	});

	it('without reading first (a bulk job): one request, the lists repeat the change asked for', async () => {
		let reads = 0;
		const api = service(['customer', 'lead'], () => ({}));
		const counted = {
			...api,
			getClient: async () => {
				reads += 1;
				return await api.getClient();
			},
		};
		const result = await changeTags(counted, 'cl_a', change, { readFirst: false });
		expect(reads).toBe(0);
		expect(result).toMatchObject({
			tags_added: ['customer', 'new'],
			tags_removed: ['lead', 'gone'],
		});
	});
});
