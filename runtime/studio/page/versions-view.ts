import type { MovePreview, VersionWithStates } from './runtime-bridge';

/** The version list's and the Move dialog's words and defaults; pure, so the views only draw. */

/** A moment as the CLI's `versions` table writes it: the day and the minute, UTC. */
export const seenAt = (ms: number) =>
	`${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** Where a preview row's conversations land, in the CLI's words. */
export function lands(row: MovePreview['states'][number], from: number): string {
	if (row.outcome === 'moves') return `moves to ${row.to ?? '?'}`;
	if (row.outcome === 'stays') return `stays: finishes on version ${from}`;
	if (row.outcome === 'restarts') return 'starts over with its next message';
	return `not moved: ${row.reason ?? ''}`;
}

/** The map a Move starts from: each state of the old version to the state of that name, if any. */
export function sameNames(from: readonly string[], to: readonly string[]): Record<string, string> {
	const there = new Set(to);
	return Object.fromEntries(from.filter((s) => there.has(s)).map((s) => [s, s]));
}

/** The states a version has: the stored definition's, or the draft's for the version edited. */
export function statesOf(
	version: number,
	versions: readonly VersionWithStates[],
	draftStates: readonly string[],
	draftVersion: number,
): string[] {
	if (version === draftVersion) return [...draftStates];
	return versions.find((v) => v.version === version)?.states ?? [];
}
