import { zlibDeflate } from './files';

/**
 * A PNG file from RGB pixels: Node's zlib compresses, and the file around it is three chunks.
 */

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

/** A chunk: its length, type, data and the CRC-32 of type and data, as PNG frames it. */
function chunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
	out.set(data, 8);
	let c = 0xffffffff;
	for (let i = 4; i < 8 + data.length; i++) c = CRC_TABLE[(c ^ out[i]) & 0xff] ^ (c >>> 8);
	view.setUint32(8 + data.length, (c ^ 0xffffffff) >>> 0);
	return out;
}

/** An 8-bit RGB PNG of `rgb` (width × height × 3 bytes, row by row). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
	const stride = width * 3;
	// Filter type 0 (None) on every row: a copy, where a computed filter cost more time than it
	// saved bytes on a drawing of flat colours.
	const filtered = new Uint8Array((stride + 1) * height);
	for (let y = 0; y < height; y++)
		filtered.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
	const header = new Uint8Array(13);
	const view = new DataView(header.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	header.set([8, 2, 0, 0, 0], 8);
	const parts = [
		new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', zlibDeflate(filtered)),
		chunk('IEND', new Uint8Array(0)),
	];
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}
