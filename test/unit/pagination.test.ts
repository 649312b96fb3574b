import { RepeatedPageError, ResponseFormatError } from '../../runtime/api';
import { json, scriptedClient, type Script } from '../helpers/scripted';

const clients = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => ({ id: `cl_${from + i}`, email: `c${from + i}@x.test` }));

/** Honours `limit` but answers every page from the start, as a service ignoring `offset` would. */
const ignoresOffset =
	(make: (n: number, from: number) => unknown[]): Script =>
	(request) => {
		const limit = Number(new URL(request.url).searchParams.get('limit'));
		return json(200, { success: true, data: make(limit, 0) });
	};

/** Pages as documented: `limit` items from `offset`, out of `total`. */
const pages =
	(total: number): Script =>
	(request) => {
		const q = new URL(request.url).searchParams;
		const offset = Number(q.get('offset'));
		const limit = Number(q.get('limit'));
		return json(200, {
			success: true,
			data: clients(Math.max(0, Math.min(limit, total - offset)), offset),
		});
	};

async function drain<T>(source: AsyncIterable<T>): Promise<{ items: T[]; error?: unknown }> {
	const items: T[] = [];
	try {
		for await (const item of source) items.push(item);
		return { items };
	} catch (error) {
		return { items, error };
	}
}

// Return All pages until a short page (A16); a service that ignores `offset` would answer full
// pages forever, so a page that repeats the one before it stops the reading with an error.
describe('pagination: a page that repeats the previous one', () => {
	it('Client: Get Many stops on the second request and names the operation', async () => {
		const { client, requests } = scriptedClient(ignoresOffset(clients));
		const { items, error } = await drain(client.iterateClients());
		expect(error).toBeInstanceOf(RepeatedPageError);
		expect(error).toBeInstanceOf(ResponseFormatError);
		expect((error as Error).message).toBe(
			'Client: Get Many — the service returned the same page twice (offset ignored?): the page at offset 1000 repeats the one before it, so reading stopped after 1000 items instead of looping forever.',
		);
		expect(requests.map((r) => new URL(r.url).search)).toEqual([
			'?limit=1000&offset=0',
			'?limit=1000&offset=1000',
		]);
		expect(items).toHaveLength(1000);
	});

	it('Client: Get Messages stops too, whatever the page size', async () => {
		const history = (n: number) =>
			Array.from({ length: n }, (_, i) => ({ id: `m${i}`, sender: 'client', text: `t${i}` }));
		const { client, requests } = scriptedClient(ignoresOffset(history));
		const { items, error } = await drain(client.iterateClientMessages('cl_a', { pageSize: 2 }));
		expect(error).toBeInstanceOf(RepeatedPageError);
		expect((error as Error).message).toMatch(
			/^Client: Get Messages — the service returned the same page twice \(offset ignored\?\)/,
		);
		expect(items.map((m) => m.message_id)).toEqual(['m0', 'm1']);
		expect(requests).toHaveLength(2);
	});

	it('catches it under a Limit too, where the second page is shorter than the first', async () => {
		const { client } = scriptedClient(ignoresOffset(clients));
		const { items, error } = await drain(client.iterateClients({}, { max: 1_500 }));
		expect(error).toBeInstanceOf(RepeatedPageError);
		expect(new Set(items.map((c) => c.id)).size).toBe(items.length);
	});

	it('reads a service that pages as documented to the end, with no false alarm', async () => {
		const { client, requests } = scriptedClient(pages(2_345));
		const { items, error } = await drain(client.iterateClients());
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2_345);
		expect(requests).toHaveLength(3);
	});
});
