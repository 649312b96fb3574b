import { pictureScene, type PictureOptions } from './scene';
import { smoothRoute, type Point, type Scene, type Shape } from './shapes';
import { escapeXml } from './text';

/**
 * The picture as SVG text: no browser, no Node module, so the CLI, a browser and n8n (as a file
 * to download) get the same drawing as the PNG.
 */

export type { PictureOptions };

export function renderPicture(doc: unknown, options: PictureOptions = {}): string {
	return writeSvg(pictureScene(doc, options));
}

const FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'";

export function writeSvg(scene: Scene): string {
	const { width, height } = scene;
	return [
		`<svg xmlns='http://www.w3.org/2000/svg' width='${width}' height='${height}' viewBox='0 0 ${width} ${height}' ${FONT} font-size='12'>`,
		`<title>${escapeXml(scene.title)}</title>`,
		`<rect width='${width}' height='${height}' fill='#ffffff'/>`,
		...scene.shapes.map(shape),
		'</svg>',
		'',
	].join('\n');
}

const attr = (name: string, value: string | number | undefined) =>
	value === undefined ? '' : ` ${name}='${typeof value === 'number' ? value : escapeXml(value)}'`;

const dashAttr = (dash: [number, number] | undefined) =>
	dash ? attr('stroke-dasharray', `${dash[0]} ${dash[1]}`) : '';

function shape(s: Shape): string {
	switch (s.kind) {
		case 'rect':
			return `<rect${attr('x', s.x)}${attr('y', s.y)}${attr('width', s.width)}${attr('height', s.height)}${attr('rx', s.radius || undefined)} fill='${s.fill ?? 'none'}'${attr('fill-opacity', s.fillOpacity)}${attr('stroke', s.stroke)}${attr('stroke-width', s.strokeWidth)}${dashAttr(s.dash)}/>`;
		case 'circle':
			return `<circle${attr('cx', s.cx)}${attr('cy', s.cy)}${attr('r', s.r)}${attr('fill', s.fill)}${attr('stroke', s.stroke)}${attr('stroke-width', s.strokeWidth)}/>`;
		case 'route':
			return `<path d='${routePath(s.points)}' fill='none'${attr('stroke', s.stroke)}${attr('stroke-width', s.width)}${dashAttr(s.dash)}/>`;
		case 'polygon':
			return `<polygon points='${s.points.map((p) => `${p.x},${p.y}`).join(' ')}'${attr('fill', s.fill)}/>`;
		case 'text': {
			const anchor = s.anchor && s.anchor !== 'start' ? s.anchor : undefined;
			return `<text${attr('x', s.x)}${attr('y', s.y)}${attr('text-anchor', anchor)}${attr('font-size', s.size)}${attr('font-weight', s.bold ? 'bold' : undefined)}${attr('font-style', s.italic ? 'italic' : undefined)}${attr('fill', s.fill)}>${escapeXml(s.text)}</text>`;
		}
		case 'group': {
			const attrs = Object.entries(s.attrs).map(([k, v]) => attr(k, v));
			const title = s.title ? `<title>${escapeXml(s.title)}</title>` : '';
			return `<g${attrs.join('')}${attr('opacity', s.opacity)}>${title}${s.children.map(shape).join('')}</g>`;
		}
	}
}

/** A route as an SVG path: the picture's arrows, and the studio's. */
export function routePath(points: Point[]): string {
	const pieces = smoothRoute(points).map(({ to, control }) =>
		control ? `Q ${control.x} ${control.y} ${to.x} ${to.y}` : `L ${to.x} ${to.y}`,
	);
	return `M ${points[0].x} ${points[0].y} ${pieces.join(' ')}`;
}
