import { drawPng } from './draw';
import { pictureScene, type PictureOptions } from './scene';
import { writeSvg } from './svg';

export { renderPng } from './draw';
export { renderPicture } from './svg';
export type { PictureOptions } from './scene';
/** The scenario laid out once and written both ways: SVG text and a PNG file. */
export function renderPictures(
	doc: unknown,
	options: PictureOptions = {},
): { svg: string; png: Uint8Array } {
	const scene = pictureScene(doc, options);
	return { svg: writeSvg(scene), png: drawPng(scene) };
}
