/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { RedisStore } from '../../runtime/stores/redis';
import { SqliteStore } from '../../runtime/stores/sqlite';
import type { StateStore } from '../../runtime/stores/types';
import { Chat, MINUTE, runCli, scenario } from './harness';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-diagram-traffic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHOP = scenario(
	{
		welcome: {
			messages: ['Hi'],
			on: [
				{ match: { equals: 'order' }, target: 'ask' },
				{ match: { equals: 'help' }, target: 'faq' },
			],
		},
		faq: { messages: ['See the site'], on: [{ match: { equals: 'back' }, target: 'welcome' }] },
		ask: { messages: ['Which?'], on: [{ match: { equals: 'bye' }, actions: [{ end: true }] }] },
	},
	{ id: 'shop', fallback: 'Sorry?' },
);
const file = path.join(dir, 'shop.json');
const store = path.join(dir, 'state.sqlite');
const TODAY = new Date().toISOString().slice(0, 10);

const run = runCli;

const digest = (at: string) => createHash('sha256').update(readFileSync(at)).digest('hex');

/** Three clients through the engine into a store: two order and finish, one stays in "welcome". */
async function fill(open: (now: () => number) => StateStore): Promise<void> {
	const chat = new Chat([SHOP], { openStore: open });
	chat.time = Date.parse(`${TODAY}T00:10:00Z`);
	for (const client of ['cl_ada', 'cl_grace']) {
		await chat.say('hi', client);
		await chat.say('order', client);
		chat.time += MINUTE;
		await chat.say('bye', client);
	}
	await chat.say('hi', 'cl_alan');
	await chat.store.close();
}

beforeAll(async () => {
	writeFileSync(file, JSON.stringify(SHOP));
	await fill((now) => new SqliteStore(store, now));
});

describe('messaging-bot-scenario diagram --store', () => {
	it("draws the period's traffic on the SVG, reading the store without writing to it", async () => {
		const before = digest(store);
		const result = await run(['diagram', file, '--format', 'svg', '--store', store]);
		expect(result).toMatchObject({ code: 0, err: '' });
		// Alan wrote today, within the quiet time (24 h): in progress, not dropped off.
		expect(result.out).toContain("data-traffic='3 0'");
		expect(result.out).toContain('3 entered · 0 dropped off (0%)');
		expect(result.out).toContain("data-traffic='2 0'");
		expect(result.out).toMatch(/order.*×2/);
		// The arrows for "help" and "back", never taken, are drawn faded; "faq" was never entered.
		expect(result.out.match(/opacity='0.45'/g)).toHaveLength(2);
		expect(result.out).toContain("data-traffic='0 0'");
		expect(digest(store)).toBe(before);
	});

	it('draws nothing counted for a period before the conversations, and a PNG to a file', async () => {
		const old = await run(
			['diagram', file, '--format', 'svg', '--store', store, '--from', '2025-01-01'].concat([
				'--to',
				'2025-01-07',
			]),
		);
		expect(old.out.match(/data-traffic='0 0'/g)).toHaveLength(3);
		const png = path.join(dir, 'shop.png');
		const written = await run(['diagram', file, '--format', 'png', '--store', store, '--out', png]);
		expect(written).toEqual({ code: 0, out: `wrote ${png}\n`, err: '' });
		const plain = path.join(dir, 'plain.png');
		await run(['diagram', file, '--format', 'png', '--out', plain]);
		// The traffic's legend line makes the picture taller.
		expect(readFileSync(png).readUInt32BE(20)).toBeGreaterThan(
			readFileSync(plain).readUInt32BE(20),
		);
	});

	it('says what is wrong: Mermaid with a store, a store that is not there', async () => {
		const mermaid = await run(['diagram', file, '--store', store]);
		expect(mermaid.code).toBe(2);
		expect(mermaid.err).toMatch(/^--store draws traffic on the picture: add --format svg or png/);
		const missing = path.join(dir, 'none.sqlite');
		expect(await run(['diagram', file, '--format', 'svg', '--store', missing])).toEqual({
			code: 1,
			out: '',
			err: `No state store file at ${missing}\n`,
		});
	});
});

describe('messaging-bot-scenario diagram --store redis://…', () => {
	// A database of its own: none an end-to-end suite keeps its state in (test/e2e/queue.ts STATE_DBS),
	// which this suite's FLUSHDB would empty under it.
	const url = 'redis://127.0.0.1:6379/4';
	const redis = new Redis(url);
	afterAll(async () => {
		await redis.flushdb();
		await redis.quit();
	});

	it("draws the period's traffic from Redis, with reads only", async () => {
		await redis.flushdb();
		await fill((now) => new RedisStore(url, undefined, now));
		const keys = async () => {
			const names = (await redis.keys('*')).sort();
			return Promise.all(names.map(async (k) => [k, await redis.dump(k)]));
		};
		const before = await keys();
		const result = await run(['diagram', file, '--format', 'svg', '--store', url]);
		expect(result).toMatchObject({ code: 0, err: '' });
		expect(result.out).toContain("data-traffic='3 0'");
		expect(result.out).toMatch(/order.*×2/);
		expect(await keys()).toEqual(before);
	});
});
