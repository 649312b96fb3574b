import { drawPngPages } from './draw';
import { pictureScene, type PictureOptions } from './scene';
import { writeSvg } from './svg';

export { renderPng } from './draw';
export { renderFunnel, type FunnelTraffic } from './funnel';
export { renderPicture } from './svg';
export type { PictureOptions } from './scene';

/** The widest page of a wide PNG: n8n's output panel's width, where 12 px text stays 12 px. */
const PAGE_WIDTH = 800;

/** What the picture's user is told, once, of the characters its fonts lack. */
export function undrawn(missing: readonly string[]): string {
	const list = missing.map(
		(c) => `"${c}" (U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`,
	);
	return `The PNG has no font for ${list.join(', ')}: drawn as empty boxes (the SVG leaves them to the viewer's fonts).`;
}

/**
 * The scenario laid out once and written both ways: SVG text and a PNG file (and the PNG cut into
 * pages when wider than n8n's output panel), with the characters the PNG's fonts lack (drawn
 * there as empty boxes; the SVG leaves them to the viewer's fonts).
 */
export function renderPictures(
	doc: unknown,
	options: PictureOptions = {},
): { svg: string; png: Uint8Array; pages: Uint8Array[]; missing: string[] } {
	const scene = pictureScene(doc, options);
	return { svg: writeSvg(scene), ...drawPngPages(scene, PAGE_WIDTH) };
}
