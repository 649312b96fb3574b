/* eslint-disable @n8n/community-nodes/no-restricted-imports -- node:fs, see sqlite.ts: the file's own state tells a read-only file from a full disk when SQLite says only "disk I/O error" */
import { accessSync, constants, statfsSync } from 'node:fs';
import path from 'node:path';

import { StateStoreError, storeError, type StoreCause } from './errors';

/** SQLite's primary result codes this store tells apart (https://sqlite.org/rescode.html). */
const CODES: Record<number, StoreCause> = {
	3: 'permission', // SQLITE_PERM
	5: 'locked', // SQLITE_BUSY
	6: 'locked', // SQLITE_LOCKED
	7: 'out of memory', // SQLITE_NOMEM
	8: 'read-only', // SQLITE_READONLY
	13: 'disk full', // SQLITE_FULL
	23: 'permission', // SQLITE_AUTH
};
/** The file system's own codes (creating the file's folder, opening it). */
const FILE_CODES: Record<string, StoreCause> = {
	ENOSPC: 'disk full',
	EROFS: 'read-only',
	EPERM: 'read-only',
	EACCES: 'permission',
	EEXIST: 'unreachable',
	ENOTDIR: 'unreachable',
	ENOENT: 'unreachable',
};
const IOERR = 10;
const CANTOPEN = 14;
/** Less free than this on the file's disk is a full disk (SQLite needs pages for its log). */
const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * Why SQLite failed on `file`. "disk I/O error" and "unable to open" say no more: the file and its
 * disk are looked at (a write refused with EPERM is an immutable file, EROFS a read-only mount,
 * EACCES a permission; no room left is a full disk).
 */
function sqliteCause(error: unknown, file: string): StoreCause {
	const errcode = (error as { errcode?: unknown }).errcode;
	const message = (error as Error).message ?? '';
	const primary = typeof errcode === 'number' ? errcode & 0xff : undefined;
	if (primary !== undefined && CODES[primary]) return CODES[primary];
	const system = FILE_CODES[(error as NodeJS.ErrnoException).code ?? ''];
	if (system) return system;
	if (/disk is full/i.test(message)) return 'disk full';
	if (/readonly|read-only/i.test(message)) return 'read-only';
	if (/locked|busy/i.test(message)) return 'locked';
	if (primary === IOERR || primary === CANTOPEN || /disk I\/O|unable to open/i.test(message))
		return probe(file, primary === CANTOPEN || /unable to open/i.test(message));
	return 'unknown';
}

function probe(file: string, opening: boolean): StoreCause {
	for (const target of [file, path.dirname(file)]) {
		try {
			accessSync(target, constants.W_OK);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === 'EPERM' || code === 'EROFS') return 'read-only';
			if (code === 'EACCES') return 'permission';
			if (code === 'ENOENT' && target === file) continue;
			if (code === 'ENOENT') return 'unreachable';
		}
	}
	try {
		const disk = statfsSync(path.dirname(file));
		if (disk.bavail * disk.bsize < FULL_BELOW_BYTES) return 'disk full';
	} catch {
		// No statfs here: the cause stays unknown.
	}
	return opening ? 'unreachable' : 'unknown';
}

/** The error a user sees for a SQLite failure on `file`: the file, the cause, what to do. */
export function sqliteStoreError(file: string, error: unknown): StateStoreError {
	if (error instanceof StateStoreError) return error;
	const said = (error as Error).message;
	return storeError({ kind: 'SQLite', where: file }, sqliteCause(error, file), said, error);
}
