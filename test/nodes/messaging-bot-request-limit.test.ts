import type { IVersionedNodeType } from 'n8n-workflow';
import { admin, useEmulator } from '../helpers/emulator';
import { n8nCacheDir } from '../../scripts/lib/n8n-install';
import { registerNodeType, runWorkflow } from '../helpers/n8n';
import { byId, itemsIntoMessagingBot } from '../helpers/workflows';
import { run, type Logged } from './messaging-bot-fixture';

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
