/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Redis } from 'ioredis';

import { SqliteStore } from '../../runtime/stores/sqlite';
import { studioCommand } from '../../runtime/studio/server/command';
import { TOKEN_HEADER } from '../../runtime/studio/server/guard';

/**
 * `studio --store`: the store named without its password, a missing file refused, the store
 * closed with the studio.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'mb-studio-command-'));
const file = path.join(dir, 'bot.json');
writeFileSync(file, '{ "id": "bot" }\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
	const said = { out: '', err: '' };
	return {
		said,
		out: (t: string) => (said.out += t),
		err: (t: string) => (said.err += t),
	};
}

test('prints where traffic is read from, never a Redis password', async () => {
	const printed = io();
	const started = await studioCommand(
		{
			positionals: [file],
			values: { port: '0', store: 'redis://:s3cret-pass@127.0.0.1:6379/5' },
		},
		printed,
	);
	if (typeof started === 'number') throw new Error(printed.said.err);
	await started.close();
	expect(printed.said.out).toContain('Traffic from: 127.0.0.1:6379 database 5 (read only)\n');
	expect(printed.said.out + printed.said.err).not.toContain('s3cret');
});

test('refuses a store file that is not there', async () => {
	const printed = io();
	const missing = path.join(dir, 'none.sqlite');
	const started = await studioCommand(
		{ positionals: [file], values: { port: '0', store: missing } },
		printed,
	);
	expect(started).toBe(2);
	expect(printed.said.err).toBe(`--store: No state store file at ${missing}\n`);
});

/** The files this process holds open (Linux). */
const openFiles = () =>
	readdirSync('/proc/self/fd').flatMap((fd) => {
		try {
			return [readlinkSync(`/proc/self/fd/${fd}`)];
		} catch {
			return []; // the directory's own handle, closed once listed
		}
	});

test('closes the SQLite file it reads traffic from when the studio closes', async () => {
	const stateFile = path.join(dir, 'state.sqlite');
	await new SqliteStore(stateFile).close();
	const printed = io();
	const started = await studioCommand(
		{ positionals: [file], values: { port: '0', store: stateFile } },
		printed,
	);
	if (typeof started === 'number') throw new Error(printed.said.err);
	expect(openFiles()).toContain(stateFile);
	await started.close();
	expect(openFiles()).not.toContain(stateFile);
});

test('closes its Redis connection when the studio closes', async () => {
	const name = `mb-studio-close-${process.pid}`;
	const clients = new Redis('redis://127.0.0.1:6379/5');
	const connected = async () => String(await clients.client('LIST')).includes(` name=${name} `);
	try {
		const printed = io();
		const started = await studioCommand(
			{
				positionals: [file],
				values: { port: '0', store: `redis://127.0.0.1:6379/5?connectionName=${name}` },
			},
			printed,
		);
		if (typeof started === 'number') throw new Error(printed.said.err);
		// The store connects when the page first asks for traffic.
		const asked = await fetch(`${started.origin}/api/traffic?scenario=bot`, {
			headers: { [TOKEN_HEADER]: started.token },
		});
		expect(asked.status).toBe(200);
		expect(await connected()).toBe(true);
		await started.close();
		expect(await connected()).toBe(false);
	} finally {
		await clients.quit();
	}
});

test('a file not there yet inside --dir is a new scenario; one outside it is refused', async () => {
	const printed = io();
	const started = await studioCommand(
		{ positionals: [path.join(dir, 'new', 'pizza.json')], values: { port: '0', dir } },
		printed,
	);
	if (typeof started === 'number') throw new Error(printed.said.err);
	await started.close();
	expect(printed.said.out).toContain(
		`Opens, saves and creates .json files inside ${dir} and nowhere else\n`,
	);
	const refused = io();
	const outside = path.join(tmpdir(), 'elsewhere-not-there.json');
	expect(await studioCommand({ positionals: [outside], values: { port: '0', dir } }, refused)).toBe(
		2,
	);
	expect(refused.said.err).toContain(`No such file: ${outside} (a new file must be inside ${dir}`);
});
