import type { MovePreview, MoveReport } from '../engine/versions/move';
import type { VersionListed } from '../engine/versions/versioning';

/** The CLI's `versions` and `move` output, as plain-text tables. */

function table(header: string[], rows: string[][]): string {
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		cells
			.map((c, i) => c.padEnd(widths[i]))
			.join('  ')
			.trimEnd();
	return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

const day = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16);

export function versionsTable(versions: readonly VersionListed[]): string {
	if (versions.length === 0) return 'The store has seen no version of this scenario.\n';
	return table(
		['scenario', 'version', 'in FILE', 'conversations', 'first seen', 'last seen', 'hash'],
		versions.map((v) => [
			v.id,
			String(v.version),
			v.live ? 'yes' : '',
			String(v.conversations),
			day(v.firstSeen),
			day(v.lastSeen),
			v.hash,
		]),
	);
}

export function movePreviewTable(preview: MovePreview): string {
	const head = `Preview: ${preview.conversations} live conversations of "${preview.from.id}" version ${preview.from.version} → version ${preview.to.version} (nothing moved; --apply moves them)\n`;
	const where = (row: MovePreview['states'][number]) =>
		row.outcome === 'moves'
			? `moves to ${row.to}`
			: row.outcome === 'stays'
				? `finishes on version ${preview.from.version}`
				: row.outcome === 'restarts'
					? 'starts over with its next message'
					: `not moved: ${row.reason}`;
	return (
		head +
		table(
			['state', 'conversations', 'lands'],
			preview.states.map((r) => [r.state, String(r.conversations), where(r)]),
		)
	);
}

export function moveReportTable(report: MoveReport): string {
	const head = `Moved ${report.moved}, left on version ${report.from.version} ${report.stayed}, started over ${report.restarted}, not moved ${report.notMoved.length} (version ${report.from.version} → ${report.to.version})\n`;
	if (report.notMoved.length === 0) return head;
	return (
		head +
		table(
			['conversation', 'state', 'why not'],
			report.notMoved.map((n) => [n.conversation, n.state, n.reason]),
		)
	);
}
