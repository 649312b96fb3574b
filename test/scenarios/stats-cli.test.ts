/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { main } from '../../runtime/cli/scenario';
import { RedisStore } from '../../runtime/stores/redis';
import { SqliteStore } from '../../runtime/stores/sqlite';
import type { StateStore } from '../../runtime/stores/types';
import { Chat, MINUTE, scenario } from './harness';

const dir = mkdtempSync(path.join(tmpdir(), 'mb-stats-'));
// A database of its own: the CLI reads the store's default key prefix.
const REDIS_URL = 'redis://127.0.0.1:6379/12';
afterAll(async () => {
	rmSync(dir, { recursive: true, force: true });
	const redis = new Redis(REDIS_URL);
	await redis.flushdb();
	await redis.quit();
});

const SHOP = scenario(
	{
		welcome: { messages: ['Hi'], on: [{ match: { equals: 'order' }, target: 'ask' }] },
		ask: { messages: ['Which?'], on: [{ match: { equals: 'bye' }, actions: [{ end: true }] }] },
	},
	{ id: 'shop', fallback: 'Sorry?' },
);

async function run(args: string[]) {
	let out = '';
	let err = '';
	const io = {
		lines: (async function* () {})(),
		out: (t: string) => (out += t),
		err: (t: string) => (err += t),
		interactive: false,
	};
	const code = await main(args, io);
	return { code, out, err };
}

/** Two clients: one finishes after 3 minutes in "ask", one stops in "welcome" after a fallback. */
async function play(open: (now: () => number) => StateStore): Promise<void> {
	const chat = new Chat([SHOP], { openStore: open, engine: { scope: '@shop' } });
	// Today: the counters of older days are gone once their days kept are over, by the store's clock.
	chat.time = Date.parse(`${TODAY}T00:10:00Z`);
	await chat.say('hi');
	await chat.say('order');
	chat.time += 3 * MINUTE;
	await chat.say('bye');
	await chat.say('hi', 'cl_grace');
	await chat.say('what?', 'cl_grace');
	await chat.store.close();
}

const TODAY = new Date().toISOString().slice(0, 10);
const TABLE = `shop v1, ${TODAY} (conversations of @shop)
state    reached  visits  ended  handed off  dropped  share  in progress  to next  now  went on to
welcome        2       2      0           0        0     0%            1       1s    1  ask 1
ask            1       1      0           0        0     0%            0       3m    0  __end 1
__end          1       1      1           0        0     0%            0        -    0
conversations 2, completed 1 (50%), handed off 0 (0%), released 0; stopped: dropped 0, in progress 1
messages 5, fallback answers 1 (20%), late 0; replies sent 4, unknown 0, failed 0
`;

describe.each([
	{
		name: 'sqlite',
		where: () => path.join(dir, 'state.sqlite'),
		open: (w: string, now: () => number) => new SqliteStore(w, now),
	},
	{
		name: 'redis',
		where: () => REDIS_URL,
		open: (w: string, now: () => number) => new RedisStore(w, undefined, now),
	},
])('messaging-bot-scenario stats: $name', ({ where, open }) => {
	beforeAll(async () => play((now) => open(where(), now)));

	it('prints the funnel of the store as a table', async () => {
		const result = await run(['stats', '--store', where(), '--from', TODAY, '--to', TODAY]);
		expect(result).toEqual({ code: 0, out: TABLE, err: '' });
	});

	it('prints nothing counted for another scenario or period', async () => {
		const other = await run([
			'stats',
			'--store',
			where(),
			'--scenario',
			'faq',
			'--from',
			TODAY,
			'--to',
			TODAY,
		]);
		expect(other.out).toBe(`No conversations counted from ${TODAY} to ${TODAY}.\n`);
		const before = await run([
			'stats',
			'--store',
			where(),
			'--from',
			'2025-12-01',
			'--to',
			'2025-12-07',
		]);
		expect(before.out).toContain('shop v1, 2025-12-01 to 2025-12-07');
		expect(before.out).toContain('conversations 0,');
	});
});

describe('messaging-bot-scenario stats: mistakes', () => {
	it('needs a store that exists, and days in order', async () => {
		const none = await run(['stats']);
		expect(none.code).toBe(2);
		expect(none.err).toContain('stats needs --store');
		const quiet = await run(['stats', '--store', dir, '--quiet-hours', 'soon']);
		expect(quiet).toMatchObject({
			code: 2,
			err: '--quiet-hours must be a number of hours, 0 or more (got soon)\n',
		});
		expect((await run(['stats', '--store', dir, '--per-week'])).code).toBe(2);
		expect(await run(['stats', '--store', path.join(dir, 'none.sqlite')])).toMatchObject({
			code: 1,
			err: `No state store file at ${path.join(dir, 'none.sqlite')}\n`,
		});
		const file = path.join(dir, 'state.sqlite');
		expect(
			await run(['stats', '--store', file, '--from', '2026-01-07', '--to', '2026-01-05']),
		).toMatchObject({
			code: 1,
			err: 'From (2026-01-07) is after To (2026-01-05)\n',
		});
	});
});
