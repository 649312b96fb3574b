/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the PNG picture's fonts are files shipped beside this module (dist/lib/fonts), read once per process when a text needs them; node:zlib compresses the PNG natively (a JavaScript deflate took seconds on a large picture) */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

/**
 * What the PNG picture takes from Node.js, in one module shipped as dist/lib/picture-files.js:
 * its font files and zlib. The picture is drawn in n8n and in the command-line tool, never in a
 * browser (the studio draws with React Flow).
 */

/** A font file's bytes: beside this module, in fonts/ (the sources) or dist/lib/fonts (the package). */
export function fontFile(file: string): ArrayBuffer {
	const bytes = readFileSync(path.join(__dirname, 'fonts', file));
	return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/** zlib-wrapped deflate, as PNG's IDAT holds; level 3: a quarter of level 6's time, 20 % more bytes. */
export function zlibDeflate(data: Uint8Array): Uint8Array {
	return deflateSync(data, { level: 3 });
}
