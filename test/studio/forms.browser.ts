/* eslint-disable @n8n/community-nodes/no-restricted-imports -- studio test tooling: files, a local server and a browser, never loaded by n8n */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import type { RunningStudio } from '../../runtime/studio/server/server';
import { editorText, stateBox, studioIn1280 } from './page';

/**
 * Keywords, a choose step's conditions and a call's inputs filled in as rows, nothing typed as
 * JSON; the JSON view shows what the rows made.
 */

const root = mkdtempSync(path.join(tmpdir(), 'mb-studio-forms-'));
const file = path.join(root, 'shop.json');
let studio: RunningStudio;
let page: Page;
let close: () => Promise<void>;

type Doc = { keywords?: unknown[]; states: Record<string, Record<string, unknown>> };
const json = async () => {
	const doc = JSON.parse(await editorText(page)) as Doc;
	await page.getByTestId('tab-form').click();
	return doc;
};

beforeAll(async () => {
	writeFileSync(
		file,
		JSON.stringify({
			id: 'shop',
			version: 1,
			start: 'welcome',
			workflows: { lookup: {} },
			states: {
				welcome: { messages: ['Hi'], on: [{ match: { any: true }, target: 'route' }] },
				route: { messages: ['One moment'], on: [{ match: { any: true }, target: 'done' }] },
				done: { messages: ['Bye'], end: true },
			},
		}),
	);
	({ studio, page, close } = await studioIn1280([file], root));
	await stateBox(page, 'done').waitFor();
});
afterAll(async () => {
	await close?.();
	await studio?.close();
	rmSync(root, { recursive: true, force: true });
});

test('2: a keyword is a row: its words and the state it leads to', async () => {
	await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
	await page.getByTestId('add-keyword').click();
	await page.getByTestId('keyword-0-text').fill('stop');
	await page.getByTestId('keyword-0-target').selectOption('done');
	expect((await json()).keywords).toEqual([{ match: { equals: 'stop' }, target: 'done' }]);
});

test("2: a choose step's condition is a row: has tag, and its tag", async () => {
	await stateBox(page, 'route').click();
	await page.getByTestId('choose-on').check();
	await page.getByTestId('choose-0-when-add').selectOption('tag');
	await page.getByTestId('choose-0-when-0-tag').fill('vip');
	const choose = (await json()).states.route.choose as Array<{ when?: unknown }>;
	expect(choose[0].when).toEqual([{ tag: 'vip' }]);
});

test("2: a call's inputs are rows of a name and a value", async () => {
	await stateBox(page, 'done').click();
	await page.getByTestId('call-on').check();
	await page.getByTestId('call-inputs-add').click();
	await page.getByTestId('call-inputs-0-name').fill('email');
	await page.getByTestId('call-inputs-0-value').fill('{{vars.email}}');
	const call = (await json()).states.done.call as { workflow?: string; inputs?: unknown };
	expect(call).toMatchObject({ workflow: 'lookup', inputs: { email: '{{vars.email}}' } });
});
