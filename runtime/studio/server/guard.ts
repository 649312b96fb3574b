/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the studio server runs in a terminal, never loaded by n8n */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The studio server's two rules: a request to the API carries the token printed in the page's
 * address, and a write goes only to a file the studio was opened on.
 */

export const TOKEN_HEADER = 'x-studio-token';

export function newToken(): string {
	return randomBytes(24).toString('base64url');
}

/** Constant-time comparison, so the token cannot be guessed a character at a time. */
export function tokenMatches(expected: string, given: string | string[] | undefined): boolean {
	if (typeof given !== 'string') return false;
	const a = Buffer.from(expected);
	const b = Buffer.from(given);
	return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The Host header names this server (127.0.0.1, localhost or the bound host, with its port), so
 * a page elsewhere cannot reach it under a name of its own pointing here (DNS rebinding).
 */
export function hostAllowed(host: string | undefined, bound: string, port: number): boolean {
	if (!host) return false;
	const names = new Set(['127.0.0.1', 'localhost', '[::1]', bound]);
	return [...names].some((name) => host === `${name}:${port}`);
}

/** The opened files, by their real absolute path; other paths are refused. */
export class OpenedFiles {
	private readonly real: Map<string, string>;

	constructor(readonly files: readonly string[]) {
		this.real = new Map(files.map((file) => [realPath(file), file]));
	}

	/** The opened file a requested path names, or undefined for any other path. */
	resolve(requested: string): string | undefined {
		if (!requested || requested.includes('\0')) return undefined;
		return this.real.get(realPath(requested));
	}
}

function realPath(file: string): string {
	const absolute = path.resolve(file);
	try {
		return realpathSync(absolute);
	} catch {
		// A file not written yet: its folder's real path, so a link cannot point a write elsewhere.
		try {
			return path.join(realpathSync(path.dirname(absolute)), path.basename(absolute));
		} catch {
			return absolute;
		}
	}
}
