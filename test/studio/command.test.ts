/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: temporary files, never loaded by n8n */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { studioCommand } from '../../runtime/studio/server/command';

/** `studio --store`: the store named without its password, a missing file refused. */

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
			values: { port: '0', store: 'redis://:s3cret-pass@127.0.0.1:6379/13' },
		},
		printed,
	);
	if (typeof started === 'number') throw new Error(printed.said.err);
	await started.close();
	expect(printed.said.out).toContain('Traffic from: 127.0.0.1:6379 (read only)\n');
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
