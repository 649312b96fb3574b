import { encodePng } from './png';

/**
 * A wide picture cut into pages side by side, each at most `most` px wide, as PNG files. n8n's
 * output panel scales an image into its width (about 800 px): a 1,700 px diagram shown whole has
 * its 12 px text at 5 px; a page of 800 px or less keeps it at its size. None when it fits.
 */
export function pagesOf(
	width: number,
	height: number,
	rgb: Uint8Array,
	most: number,
): Uint8Array[] {
	if (width <= most) return [];
	const n = Math.ceil(width / most);
	const each = Math.ceil(width / n);
	const pages: Uint8Array[] = [];
	for (let x0 = 0; x0 < width; x0 += each) {
		const w = Math.min(each, width - x0);
		const page = new Uint8Array(w * height * 3);
		for (let y = 0; y < height; y++)
			page.set(rgb.subarray((y * width + x0) * 3, (y * width + x0 + w) * 3), y * w * 3);
		pages.push(encodePng(w, height, page));
	}
	return pages;
}
