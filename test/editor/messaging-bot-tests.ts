import { admin } from '../helpers/emulator';
import {
	executeStep,
	openNode,
	openWorkflow,
	outputJson,
	pick,
	pickerItems,
	screenshot,
	closeNode,
} from './browser';
import { DOCS, type EditorSession } from './session';
import { TOUR_ID } from './tour';

/** Messaging Bot's panel: the pickers read the emulator, a step sends; an error names its field and sends nothing (the second test goes on in the panel the first opened). */
export function messagingBotTests(session: EditorSession): void {
	it("Messaging Bot: the pickers list the emulator's bots and clients; a step sends the message", async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		const ndv = await openNode(session.page, 'Send Message');
		await expect(ndv.getByRole('link', { name: 'Docs' }).getAttribute('href')).resolves.toBe(
			DOCS.messagingBot,
		);
		const bots = (
			(await (
				await fetch(`${session.demo.emulator.baseUrl}/bots`, {
					headers: { Authorization: `Bearer ${session.demo.emulator.apiKey}` },
				})
			).json()) as { data: Array<{ name: string }> }
		).data;
		expect(await pickerItems(session.page, 'botId')).toEqual(
			bots.map((b) => expect.stringContaining(b.name)),
		);
		await pick(session.page, 'Shop Assistant');
		const clients = await pickerItems(session.page, 'clientId');
		expect(clients).toContain('Ada Lovelace · ada@example.com');
		expect(clients).toHaveLength(5);
		await pick(session.page, 'Ada Lovelace');
		await executeStep(session.page);
		await expect(outputJson(session.page)).resolves.toContain('Hello from the editor');
		const sent = (
			await admin<Array<{ text: string }>>(
				session.demo.emulator,
				'GET',
				'/sent-messages?client_id=cl_ada',
			)
		).body.data.map((m) => m.text);
		expect(sent).toContain('Hello from the editor');
		await session.collectLinks();
	});

	it('an error names the field by its label, and nothing is sent', async () => {
		const before = (await admin<unknown[]>(session.demo.emulator, 'GET', '/sent-messages')).body
			.data.length;
		await session.page.getByTestId('parameter-input-text').locator('textarea').fill('   ');
		const output = await executeStep(session.page);
		await expect(output.getByTestId('node-error-message').textContent()).resolves.toBe(
			'Text must not be empty or only spaces',
		);
		await screenshot(session.page, 'editor-error.png');
		const after = (await admin<unknown[]>(session.demo.emulator, 'GET', '/sent-messages')).body.data
			.length;
		expect(after).toBe(before);
		await closeNode(session.page);
	});
}
