/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- studio test tooling: a real n8n, a browser and screenshots, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { pageDir } from '../../runtime/studio/server/command';
import { putBody, type N8nWorkflow } from '../../runtime/studio/server/n8n-workflow';
import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';
import { clientOf } from '../e2e/conversation';
import { startDemo, type Demo } from '../editor/demo';
import { makeApiKey, readWorkflow, scenarioOf } from './n8n';
import { editorText, openBrowser, screenshot, stateBox } from './page';
import { seenVersions, studioWithStore } from './versions-fixture';

/**
 * The studio against a real n8n 2.41 (the demo `npm start` sets up: the packed package, the
 * example workflows published): a designer opens the FAQ bot's Scenario node from n8n, edits a
 * message, saves; n8n's API returns the workflow with the new scenario, published, and the bot
 * answers a client with it. Then, through the studio server's API: both Scenario nodes of
 * order-status written together, and what is refused (a stale save, a scenario with problems,
 * a wrong key, publishing over changes not yet published from n8n's editor).
 */

const FAQ = 'mbFaqBot00000001';
const ORDERS = 'mbOrderStatusBot';
const FIRST_WELCOME = 'Hello {{client.first_name|there}}! This is version 1.';
const NEW_WELCOME =
	'Hello {{client.first_name|there}}! The studio wrote this. Ask me about delivery, returns or payment.';
let demo: Demo;
let studio: RunningStudio;
let page: Page;
let close: () => Promise<void>;
let apiKey: string;

beforeAll(async () => {
	demo = await startDemo();
	apiKey = await makeApiKey(demo.n8n.url, demo.cookie, [
		'workflow:read',
		'workflow:list',
		'workflow:update',
		'workflow:activate',
	]);
	studio = await startStudio({ files: [], pageDir: pageDir() });
	({ page, close } = await openBrowser());
}, 600_000);

afterAll(async () => {
	await close?.();
	await studio?.close();
	await demo?.stop();
}, 60_000);

/** The studio server's n8n routes, as the page calls them (with the token). */
async function studioApi(route: 'open' | 'save' | 'workflows', body: Record<string, unknown>) {
	const answer = await fetch(`${studio.origin}/api/n8n/${route}`, {
		method: 'POST',
		headers: { 'x-studio-token': studio.token, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await answer.text();
	return { status: answer.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

/** Open from n8n, as a designer does it: the URL, the key, the workflow's address; its nodes listed. */
async function findInN8n(workflowId: string) {
	await page.getByTestId('open-n8n').click();
	await page.getByTestId('n8n-baseUrl').fill(demo.n8n.url);
	await page.getByTestId('n8n-apiKey').fill(apiKey);
	// The workflow's address as n8n's editor shows it.
	await page.getByTestId('n8n-workflowId').fill(`${demo.n8n.url}/workflow/${workflowId}`);
	await page.getByTestId('n8n-find').click();
	await expect(page.getByTestId('n8n-found').textContent()).resolves.toContain('published');
}

test('opens the FAQ bot from n8n, edits a message, saves: n8n has it published and the bot says it', async () => {
	await page.goto(studio.url);
	const asked = Date.now();
	await findInN8n(FAQ);
	const found = Date.now() - asked;
	await screenshot(page, 'studio-n8n.png');
	await page.getByTestId('n8n-node-FAQ Scenario').click();
	await stateBox(page, 'welcome').click();
	await page.getByTestId('message-0').fill(NEW_WELCOME);
	await page.getByTestId('save').click();
	const diff = await page.getByTestId('diff').textContent();
	expect(diff).toContain('+   "version": 2,');
	expect(diff).toContain('The studio wrote this');
	// Named for what it does there: the workflow is saved and published, no file is written.
	expect(await page.getByTestId('confirm-save').textContent()).toBe('Save to n8n and publish');
	const saving = Date.now();
	await page.getByTestId('confirm-save').click();
	await page.getByTestId('save-dialog').waitFor({ state: 'detached' });
	process.stdout.write(
		`n8n through the studio: the workflow's Scenario nodes found in ${found} ms; saved and published again in ${Date.now() - saving} ms\n`,
	);
	await expect(page.getByTestId('status').textContent()).resolves.toContain(
		'Saved to n8n and published: FAQ bot: a workflow step answers what no state matches › FAQ Scenario',
	);
	// The key was typed into a password field and is shown nowhere.
	expect(await page.content()).not.toContain(apiKey);

	const workflow = await readWorkflow(demo.n8n.url, apiKey, FAQ);
	const saved = scenarioOf(workflow.nodes, 'FAQ Scenario');
	expect(saved.version).toBe(2);
	expect(saved.states.welcome.messages).toEqual([NEW_WELCOME]);
	// Published: the version n8n runs is the one saved.
	expect(workflow.activeVersionId).toBe(workflow.versionId);
	expect(scenarioOf(workflow.activeVersion?.nodes ?? [], 'FAQ Scenario').version).toBe(2);
	// n8n may take a moment to run the version just published: a client greeted by the old one
	// keeps that version, so the next try is another client's first message.
	let greeting: string[] = [];
	let write = clientOf(() => demo.emulator, 'bot_support', 'cl_katherine').write;
	for (const id of ['cl_katherine', 'cl_grace', 'cl_linus', 'cl_alan']) {
		write = clientOf(() => demo.emulator, 'bot_support', id).write;
		greeting = await write('hi', 1);
		if (greeting[0]?.includes('The studio wrote this')) break;
		process.stdout.write(
			`n8n answered ${id} with the version before the save; trying another client\n`,
		);
		await new Promise((resolve) => setTimeout(resolve, 2_000));
	}
	expect(greeting).toEqual([
		expect.stringMatching(
			/^Hello \w+! The studio wrote this\. Ask me about delivery, returns or payment\.$/,
		),
	]);
	expect(await write('how do returns work?', 1)).toHaveLength(1);
}, 120_000);

test("a call step opened from n8n picks its workflow from that n8n's list, declared in one click", async () => {
	// The FAQ bot is open from n8n (the test before): its "lookup" state calls "faq-lookup".
	await stateBox(page, 'lookup').click();
	await page.getByTestId('call-from-n8n').click();
	const list = page.getByTestId('call-n8n-workflow');
	await list.waitFor();
	const names = await list.locator('option').allTextContents();
	expect(names).toEqual(
		expect.arrayContaining([
			expect.stringMatching(/^FAQ lookup: answers a question/),
			expect.stringMatching(/^Tag a client as customer when an order arrives/),
		]),
	);
	// The workflow the scenario already declares: named as declared, nothing added.
	await list.selectOption('mbFaqLookup0001');
	await expect(page.getByTestId('call-workflow').inputValue()).resolves.toBe('faq-lookup');
	// Another: named from its n8n name, declared with that name and its ID.
	await list.selectOption('mbTagOnOrder0001');
	const name = 'tag-a-client-as-customer-when-an-order-arrives';
	await expect(page.getByTestId('call-workflow').inputValue()).resolves.toBe(name);
	await page.getByTestId('tab-json').click();
	const json = JSON.parse(await editorText(page)) as {
		workflows: Record<string, { description?: string }>;
		states: { lookup: { call: { workflow: string } } };
	};
	expect(json.states.lookup.call.workflow).toBe(name);
	expect(json.workflows[name].description).toContain('mbTagOnOrder0001');
	expect(Object.keys(json.workflows)).toContain('faq-lookup');
	await page.getByTestId('tab-form').click();

	// The same list through the studio server; a wrong key refused and not repeated.
	const listed = await studioApi('workflows', { baseUrl: demo.n8n.url, apiKey });
	expect(listed.status).toBe(200);
	const ids = (listed.body.workflows as Array<{ id: string }>).map((w) => w.id);
	expect(ids).toEqual(expect.arrayContaining([FAQ, ORDERS, 'mbFaqLookup0001']));
	const wrongKey = ['wrong', apiKey.slice(-12)].join('-');
	const refused = await studioApi('workflows', { baseUrl: demo.n8n.url, apiKey: wrongKey });
	expect(refused.status).toBe(401);
	expect(refused.text).not.toContain(wrongKey);
}, 60_000);

test('order-status: both Scenario nodes holding the scenario are written; stale, broken and wrongly keyed saves are refused', async () => {
	const target = { baseUrl: demo.n8n.url, apiKey, workflowId: ORDERS };
	const opened = await studioApi('open', target);
	expect(opened.status).toBe(200);
	const nodes = opened.body.nodes as Array<{ name: string; operation: string; scenario: string }>;
	expect(nodes.map((n) => [n.name, n.operation])).toEqual([
		['Order-Status Scenario', 'handleMessage'],
		['Send Due Reminders', 'fireTimers'],
	]);
	const baseline = nodes[0].scenario;
	const scenario = JSON.parse(baseline) as { version: number; states: Record<string, unknown> };
	const next = JSON.stringify({ ...scenario, version: scenario.version + 1 }, null, 2);
	const save = (body: Record<string, unknown>) =>
		studioApi('save', { ...target, nodeName: 'Order-Status Scenario', ...body });

	const broken = JSON.stringify({ ...scenario, start: 'nowhere' });
	const refusedBroken = await save({ scenario: broken, baseline });
	expect(refusedBroken.status).toBe(422);
	expect(refusedBroken.body.error).toMatch(/^Not saved: the scenario has \d+ problem/);

	const wrongKey = ['wrong', apiKey.slice(-12)].join('-');
	const refusedKey = await studioApi('save', {
		...target,
		apiKey: wrongKey,
		nodeName: 'Order-Status Scenario',
		scenario: next,
		baseline,
	});
	expect(refusedKey.status).toBe(401);
	expect(refusedKey.text).not.toContain(wrongKey);

	const ok = await save({ scenario: next, baseline });
	expect(ok.body).toMatchObject({
		nodes: ['Order-Status Scenario', 'Send Due Reminders'],
		outcome: 'published',
	});
	const workflow = await readWorkflow(demo.n8n.url, apiKey, ORDERS);
	for (const name of ['Order-Status Scenario', 'Send Due Reminders'])
		expect(scenarioOf(workflow.activeVersion?.nodes ?? [], name).version).toBe(
			scenario.version + 1,
		);
	// The settings n8n keeps for the workflow are still there.
	expect(workflow.settings).toMatchObject({ saveDataSuccessExecution: 'none' });

	// Saved again from the baseline it replaced: refused, n8n's version stays.
	const stale = await save({ scenario: next.replace('"version": ', '"version": 1'), baseline });
	expect(stale.status).toBe(409);
	expect(stale.body.error).toContain('changed in n8n since the studio opened it');
	expect(
		scenarioOf((await readWorkflow(demo.n8n.url, apiKey, ORDERS)).nodes, 'Send Due Reminders')
			.version,
	).toBe(scenario.version + 1);
}, 120_000);

test('a published workflow with changes not yet published from the editor is saved as a draft, not published', async () => {
	const before = await readWorkflow(demo.n8n.url, apiKey, ORDERS);
	// As a colleague saving in n8n's editor without publishing: the same body, kept as a draft.
	const edited = JSON.parse(JSON.stringify(before)) as N8nWorkflow;
	const note = edited.nodes.find((n) => n.name === 'About the Hand-Off');
	if (!note?.parameters) throw new Error('no sticky note');
	note.parameters.content = 'Draft note';
	const draft = await fetch(`${demo.n8n.url}/api/v1/workflows/${ORDERS}?publishIfActive=false`, {
		method: 'PUT',
		headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
		body: JSON.stringify(putBody(edited)),
	});
	expect(draft.status).toBe(200);
	const published = before.activeVersionId;
	const baseline = JSON.stringify(scenarioOf(before.nodes, 'Order-Status Scenario'));
	const scenario = JSON.parse(baseline) as { version: number };
	const saved = await studioApi('save', {
		baseUrl: demo.n8n.url,
		apiKey,
		workflowId: ORDERS,
		nodeName: 'Order-Status Scenario',
		scenario: JSON.stringify({ ...scenario, version: scenario.version + 1 }),
		baseline,
	});
	expect(saved.body).toMatchObject({ outcome: 'draft' });
	expect(saved.body.message).toContain('not yet published');
	const after = await readWorkflow(demo.n8n.url, apiKey, ORDERS);
	expect(after.activeVersionId).toBe(published);
	expect(scenarioOf(after.nodes, 'Order-Status Scenario').version).toBe(scenario.version + 1);
}, 60_000);

test("Roll Back to v1 from the store's version list: version 1's content written to the FAQ node through n8n's API, published", async () => {
	const current = scenarioOf((await readWorkflow(demo.n8n.url, apiKey, FAQ)).nodes, 'FAQ Scenario');
	// The store has seen version 1 and the version in n8n (recorded as the Scenario node records them).
	const v1 = {
		...current,
		version: 1,
		states: {
			...current.states,
			welcome: { ...current.states.welcome, messages: [FIRST_WELCOME] },
		},
	};
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-studio-rollback-'));
	const storeFile = path.join(dir, 'state.sqlite');
	await seenVersions(storeFile, [v1, current]);
	const withStore = await studioWithStore(storeFile, []);
	try {
		await page.goto(withStore.url);
		await findInN8n(FAQ);
		await page.getByTestId('n8n-node-FAQ Scenario').click();
		await page.getByTestId('toggle-versions').check();
		await page.getByTestId('rollback-1').click();
		const next = current.version + 1;
		const diff = await page.getByTestId('diff').textContent();
		expect(diff).toContain(`+   "version": ${next},`);
		expect(diff).toContain(FIRST_WELCOME);
		expect(await page.getByTestId('confirm-save').textContent()).toBe('Save to n8n and publish');
		await page.getByTestId('confirm-save').click();
		await page.getByTestId('save-dialog').waitFor({ state: 'detached' });
		await expect(page.getByTestId('status').textContent()).resolves.toContain(
			'Saved to n8n and published',
		);
		const workflow = await readWorkflow(demo.n8n.url, apiKey, FAQ);
		const saved = scenarioOf(workflow.nodes, 'FAQ Scenario');
		expect(saved).toEqual({ ...v1, version: next });
		expect(workflow.activeVersionId).toBe(workflow.versionId);
		expect(scenarioOf(workflow.activeVersion?.nodes ?? [], 'FAQ Scenario').version).toBe(next);
	} finally {
		await withStore.close();
		rmSync(dir, { recursive: true, force: true });
	}
}, 60_000);
