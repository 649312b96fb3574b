/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- node:sqlite and node:fs, see sqlite.ts: the marker's copy is a small file beside the database; it is written from the event loop's own timer */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';

import type { LostWrites } from './loss';

/** The copy beside the database follows its commits within this long. */
const COPY_EVERY_MS = 1000;

// Taken at load: a test's fake timers must not stop the copy.
const later = setTimeout;

type Mark = { id: string; written: number };

/**
 * The loss marker of a SQLite file: the `meta` table holds the file's id and the time of its
 * latest commit (written in each commit), and `<file>.mark` beside it a copy of both, written
 * within COPY_EVERY_MS of a commit. A file whose own time is older than its copy's came back from
 * an older backup (or was put back by hand); one with another id than its copy is another file.
 * A restore of a backup taken within COPY_EVERY_MS of the copy's time is not seen.
 */
export class SqliteMarker {
	private readonly copy: string;
	private readonly stampStatement: StatementSync;
	private id = '';
	private written = 0;
	private copying?: ReturnType<typeof setTimeout>;
	/** What the file came back without, found at open. */
	readonly lost?: LostWrites;

	constructor(
		db: DatabaseSync,
		file: string,
		private readonly now: () => number,
	) {
		this.copy = `${file}.mark`;
		db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('id', ?), ('written', '0')").run(
			randomUUID(),
		);
		const rows = db.prepare('SELECT key, value FROM meta').all() as Array<{
			key: string;
			value: string;
		}>;
		const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
		this.id = meta.id;
		this.written = Number(meta.written);
		this.stampStatement = db.prepare("UPDATE meta SET value = ? WHERE key = 'written'");
		this.lost = this.compare(readCopy(this.copy));
		this.writeCopy();
	}

	private compare(copy: Mark | undefined): LostWrites | undefined {
		const foundAt = this.now();
		if (!copy) return undefined;
		const at = (ms: number) => new Date(ms).toISOString();
		if (copy.id !== this.id)
			return { foundAt, since: 0, detail: 'the file was replaced by another, or made anew' };
		if (copy.written <= this.written) return undefined;
		return {
			foundAt,
			since: this.written,
			detail: `the file is as it was at ${at(this.written)}, older than its last write acknowledged at ${at(copy.written)}: restored from an older backup?`,
		};
	}

	/** In each commit, just before it: the file's own time. */
	stamp(): void {
		this.written = this.now();
		this.stampStatement.run(String(this.written));
	}

	/** After each commit: the copy follows shortly. */
	committed(): void {
		this.copying ??= later(() => {
			this.copying = undefined;
			this.writeCopy();
		}, COPY_EVERY_MS).unref();
	}

	private writeCopy(): void {
		try {
			const temporary = `${this.copy}.${process.pid}`;
			writeFileSync(temporary, JSON.stringify({ id: this.id, written: this.written }));
			renameSync(temporary, this.copy);
		} catch {
			// A full disk or a read-only folder: the store's own writes say so; the copy waits.
		}
	}

	stop(): void {
		if (this.copying) clearTimeout(this.copying);
		this.copying = undefined;
		this.writeCopy();
	}
}

function readCopy(copy: string): Mark | undefined {
	try {
		const mark = JSON.parse(readFileSync(copy, 'utf8')) as Mark;
		return typeof mark.id === 'string' && typeof mark.written === 'number' ? mark : undefined;
	} catch {
		return undefined;
	}
}
