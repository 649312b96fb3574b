/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: files and a local server, never loaded by n8n */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startStudio, type RunningStudio } from '../../runtime/studio/server/server';
import { versionsFrom, type StudioVersions } from '../../runtime/studio/server/versions';
import { SHOP_V1, SHOP_V2, seenVersions } from './versions-fixture';

/**
 * The studio server's versions routes without a browser, on a SQLite store that has seen the pizza
 * shop's two versions: what they answer, and each bad field refused by its label.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'mb-studio-versions-routes-'));
const storeFile = path.join(dir, 'state.sqlite');
const pageDir = path.join(dir, 'page');
let studio: RunningStudio;
let bare: RunningStudio;
let versions: StudioVersions;

beforeAll(async () => {
	mkdirSync(pageDir);
	writeFileSync(path.join(pageDir, 'index.html'), '<!doctype html><title>studio</title>');
	await seenVersions(storeFile, [SHOP_V1, SHOP_V2]);
	versions = versionsFrom(storeFile);
	studio = await startStudio({ files: [], pageDir, versions });
	bare = await startStudio({ files: [], pageDir });
});
afterAll(async () => {
	await Promise.all([studio.close(), bare.close()]);
	await versions.close();
	rmSync(dir, { recursive: true, force: true });
});

async function post(what: string, body: Record<string, unknown>, on = studio) {
	const answer = await fetch(`${on.origin}/api/versions/${what}`, {
		method: 'POST',
		headers: { 'x-studio-token': on.token, 'content-type': 'application/json' },
		body: JSON.stringify({ scenario: JSON.stringify(SHOP_V2), ...body }),
	});
	const text = await answer.text();
	return { status: answer.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

test('lists the versions with the states that wait and their main path; without a store, nothing', async () => {
	const { status, body } = await post('list', {});
	expect(status).toBe(200);
	expect(body.versions).toEqual([
		expect.objectContaining({
			version: 2,
			live: true,
			conversations: 0,
			states: ['hello', 'short', 'warm', 'menu'],
		}),
		expect.objectContaining({
			version: 1,
			live: false,
			states: ['welcome', 'menu'],
			mainPath: ['welcome', 'menu', 'ordered'],
		}),
	]);
	expect((await post('list', {}, bare)).status).toBe(204);
});

test('Roll Back: version 1 numbered above every version seen; one the store lacks is a 404', async () => {
	const { body } = await post('rollback', { version: 1 });
	expect(body.document).toEqual({ ...SHOP_V1, version: 3 });
	const missing = await post('rollback', { version: 7 });
	expect(missing).toEqual({
		status: 404,
		body: { error: 'The store has no version 7 of "shop" any more' },
	});
});

test('bad fields are refused by their label: versions, the state map, a scenario with problems', async () => {
	const plan = { from: 1, states: { menu: 'menu' }, unmapped: 'finish' };
	expect((await post('preview', { plan })).body).toMatchObject({ conversations: 0, states: [] });
	const refused = async (body: Record<string, unknown>) => {
		const answer = await post('preview', body);
		return [answer.status, answer.body.error];
	};
	await expect(refused({ plan: { ...plan, from: 0 } })).resolves.toEqual([
		400,
		'From Version must be a version number (1 or more)',
	]);
	await expect(refused({ plan: { ...plan, states: { menu: 'kitchen' } } })).resolves.toEqual([
		400,
		'State Map: "kitchen" (for "menu") is not a state of version 2',
	]);
	await expect(refused({ plan: { ...plan, states: { menu: 'ordered' } } })).resolves.toEqual([
		400,
		'State Map: "ordered" (for "menu") is an end state; map it to a state that waits',
	]);
	await expect(refused({ plan: { ...plan, unmapped: 'drop' } })).resolves.toEqual([
		400,
		'Unmapped States must be finish or restart',
	]);
	await expect(refused({ plan, scenario: '{' })).resolves.toEqual([
		400,
		expect.stringMatching(/^Scenario is not JSON: /),
	]);
	const broken = JSON.stringify({ ...SHOP_V2, start: 'nowhere' });
	await expect(refused({ plan, scenario: broken })).resolves.toEqual([
		422,
		expect.stringMatching(/^The scenario has problems: /),
	]);
});
