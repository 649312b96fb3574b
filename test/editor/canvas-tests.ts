import { canvasNode, openWorkflow, screenshot } from './browser';
import { exampleWorkflows } from '../../scripts/lib/demo-setup';
import { TOUR_ID } from './tour';
import type { EditorSession } from './session';

// The package's nodes as the canvas and the node picker show them.

/** The example workflows on the canvas, each retaken as a README screenshot; subtitles in the user's words. */
export function canvasTests(session: EditorSession): void {
	it("retakes the README's screenshots: each example workflow on the canvas", async () => {
		for (const workflow of exampleWorkflows()) {
			await openWorkflow(session.page, session.demo.n8n.url, workflow.id);
			await session.collectLinks();
			await screenshot(session.page, `${workflow.id}.png`);
		}
		// Subtitles show the names the user picked, never internal values.
		await openWorkflow(session.page, session.demo.n8n.url, 'mbTagOnOrder0001');
		await expect(canvasNode(session.page, 'Tag as Customer').textContent()).resolves.toContain(
			'Client: Update Tags',
		);
		await openWorkflow(session.page, session.demo.n8n.url, 'mbOrderStatusBot');
		const scenario = await canvasNode(session.page, 'Order-Status Scenario').textContent();
		expect(scenario).toContain('Handle Message');
		expect(scenario).not.toContain('handleMessage');
	});
}

/** The node picker names each operation as the panel does. */
export function nodePickerTests(session: EditorSession): void {
	it('the node picker names each operation as the panel does', async () => {
		await openWorkflow(session.page, session.demo.n8n.url, TOUR_ID);
		await session.page.getByTestId('node-creator-plus-button').click();
		const creator = session.page.getByTestId('node-creator');
		await creator.waitFor();
		await session.page.getByTestId('node-creator-search-bar').fill('Messaging Bot');
		await creator
			.getByTestId('item-iterator-item')
			.filter({ has: session.page.getByText('Messaging Bot', { exact: true }) })
			.first()
			.click();
		await creator.getByText('Get many clients').first().waitFor();
		const actions = String(await creator.textContent());
		for (const action of ['Send a message', 'Update tags of a client', 'Get bot statistics'])
			expect(actions).toContain(action);
		expect(actions).not.toContain('Search clients');
		await session.collectLinks();
		await session.page.keyboard.press('Escape');
	});
}
