import type { SplitTestReport } from '../analytics/split-reading';

/**
 * The CLI `stats`' table of each split test: per variant its clients, those that reached the
 * goal, the conversion with its 95 % interval and the probability it is best; then the verdict.
 */

const pct1 = (share: number | null) => (share === null ? '-' : `${(share * 100).toFixed(1)}%`);

export function splitTable(split: SplitTestReport, from: string, to: string): string {
	const period = from === to ? from : `${from} to ${to}`;
	const header = ['variant', 'clients', 'goal', 'conversion', '95% interval', 'best'];
	const rows = split.variants.map((v) => [
		v.variant,
		String(v.clients),
		String(v.goal),
		pct1(v.conversion),
		v.interval ? `${pct1(v.interval.low)} to ${pct1(v.interval.high)}` : '-',
		pct1(v.probabilityBest),
	]);
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		cells
			.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
			.join('  ')
			.trimEnd();
	return [
		`split test ${split.test} of ${split.scenario}, ${period} (conversations of ${split.scope})`,
		line(header),
		...rows.map(line),
		`verdict: ${split.verdict.text}`,
		'',
	].join('\n');
}
