/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tooling, never loaded by n8n */
import { writeFileSync } from 'node:fs';

/**
 * One picture in a fresh process, as the CLI's `diagram --format svg | png` makes it: from loading
 * the picture's modules to the file written. Prints `<milliseconds> <bytes> <characters not drawn>`.
 */
async function main(): Promise<void> {
	const [format, file, out] = process.argv.slice(2);
	const started = performance.now();
	const { readFileSync } = await import('node:fs');
	const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
	const picture = await import('../runtime/scenarios/offline/picture');
	let bytes: Uint8Array | string;
	let missing = 0;
	if (format === 'png') {
		const drawn = picture.renderPng(doc);
		bytes = drawn.png;
		missing = drawn.missing.length;
	} else bytes = picture.renderPicture(doc);
	writeFileSync(out, bytes);
	process.stdout.write(`${Math.round(performance.now() - started)} ${bytes.length} ${missing}\n`);
}

void main();
