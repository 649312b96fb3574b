import { admin } from '../helpers/emulator';
import { closeNode, openNode, openWorkflow, outputJson } from './browser';
import { DEMO_SECRET } from './demo';
import { DOCS, type EditorSession } from './session';
import { TOUR_ID } from './tour';

/** Both triggers listening in the editor: past the service's test event to the real event. */
export function triggerTests(session: EditorSession): void {
	it('the Trigger: the notice in n8n 2.41 words; listening goes past the service test event to the message', async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		const ndv = await openNode(session.page, 'Client Writes');
		const text = String(await ndv.textContent());
		expect(text).toContain('Execute step');
		expect(text).not.toContain('Listen for test event');
		await expect(ndv.getByRole('link', { name: 'Docs' }).getAttribute('href')).resolves.toBe(
			DOCS.trigger,
		);
		await session.page.getByTestId('node-execute-button').click();
		const url = `${session.demo.n8n.url}/webhook-test/messaging-bot-editor-tour/messaging-bot`;
		await session.page
			.getByText(/Listening for|Waiting for/)
			.first()
			.waitFor({ timeout: 30_000 });
		await subscribe(session, url);
		// The test event is acknowledged and listening goes on: the next real event shows
		// (this trigger listens to messages).
		await admin(session.demo.emulator, 'POST', '/inbound', {
			bot_id: 'bot_shop',
			client_id: 'cl_grace',
			text: 'hi from the editor',
		});
		const shown = await outputJson(session.page);
		expect(shown).toContain('hi from the editor');
		expect(shown).not.toContain('webhook.test');
		await session.collectLinks();
		await closeNode(session.page);
	});

	it('the Own Port Trigger: listening on its port goes past the test event to the order', async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		await openNode(session.page, 'Burst Receiver');
		await session.page.getByTestId('node-execute-button').click();
		const url = `http://127.0.0.1:${session.demo.ownPort}/messaging-bot`;
		await listening(session, url);
		await subscribe(session, url);
		// The test event is acknowledged and listening goes on: the next real event shows.
		await placeOrder(session);
		const shown = await outputJson(session.page);
		expect(shown).toContain('order.created');
		expect(shown).not.toContain('webhook.test');
		await session.collectLinks();
		await closeNode(session.page);
	});
}

/** The service (the emulator) subscribes the URL; it sends its test event when saving. */
async function subscribe(session: EditorSession, url: string): Promise<void> {
	const saved = await admin<{ test_delivery: { state: string } }>(
		session.demo.emulator,
		'POST',
		'/subscriptions',
		{ url, secret: DEMO_SECRET, events: ['*'] },
	);
	expect(saved.body.data.test_delivery.state).toBe('delivered');
}

/** An order arrives from the dashboard: the service delivers order.created. */
async function placeOrder(session: EditorSession): Promise<void> {
	await admin(session.demo.emulator, 'POST', '/events', {
		event: 'order.created',
		data: { client_id: 'cl_grace', order_id: `ord_tour_${Date.now()}`, total: 12 },
	});
}

/** Waits until something answers on the URL's port: the trigger listens. */
async function listening(session: EditorSession, url: string): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const answered = await fetch(url, { method: 'GET' }).then(
			() => true,
			() => false,
		);
		if (answered) return;
		await session.page.waitForTimeout(300);
	}
	throw new Error(`Nothing listens on ${url}`);
}
