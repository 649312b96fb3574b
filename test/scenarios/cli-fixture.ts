/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling: scratch files for the CLI, never loaded by n8n */
/** What the CLI tests share: the example scenarios, and a scratch folder for the files they write. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const root = path.resolve(__dirname, '../..');
export const examples = path.join(root, 'examples/scenarios');

/** A temporary folder, removed after the test file, and `file` to write a scenario into it. */
export function scratch(): { dir: string; file: (name: string, content: unknown) => string } {
	const dir = mkdtempSync(path.join(tmpdir(), 'mb-cli-'));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	function file(name: string, content: unknown): string {
		const full = path.join(dir, name);
		writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content));
		return full;
	}
	return { dir, file };
}

/** What the order-status example sends Grace for "hi", then "track my order". */
export const GRACE_TRACKS_AN_ORDER = [
	'Hi Grace! I can tell you where your order is. Type "order" to start.',
	'What email address did you use for the order?',
];
