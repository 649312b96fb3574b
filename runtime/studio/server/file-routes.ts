/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- the studio server runs in a terminal, never loaded by n8n */
import { readFile, rename, writeFile } from 'node:fs/promises';

import { ScenarioFolder, layoutFileOf } from './folder';
import type { OpenedFiles } from './guard';

/**
 * The scenario files the page may read and write: the files the studio was opened on, and any
 * `.json` file inside the folder it was started for (a new one created, with its folders, on its
 * first save). A scenario's box positions are kept beside it (`bot.layout.json`).
 */
export class StudioFiles {
	private readonly folder?: ScenarioFolder;

	constructor(
		private readonly opened: OpenedFiles,
		root: string | undefined,
	) {
		this.folder = root === undefined ? undefined : new ScenarioFolder(root);
	}

	get root(): string | undefined {
		return this.folder?.root;
	}

	async list(): Promise<string[]> {
		return this.folder ? await this.folder.list() : [];
	}

	/** The file's text, or `missing` for an allowed path with no file yet (a new scenario). */
	async read(requested: string, layout = false): Promise<{ path: string; text?: string }> {
		const file = this.allowed(requested, 'reads');
		const from = layout ? layoutFileOf(file) : file;
		try {
			return { path: file, text: await readFile(from, 'utf8') };
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: file };
			throw error;
		}
	}

	async write(requested: string, content: string, layout = false) {
		const file = this.allowed(requested, 'writes');
		try {
			JSON.parse(content);
		} catch (error) {
			throw new FileError(400, `Not saved: the content is not JSON (${(error as Error).message})`);
		}
		const to = layout ? layoutFileOf(file) : file;
		if (this.folder?.resolve(file)) await this.folder.prepare(to);
		// Written beside, then renamed over: a reader never sees half a file.
		const temporary = `${to}.studio-${process.pid}.tmp`;
		await writeFile(temporary, content, 'utf8');
		await rename(temporary, to);
		return { path: file, bytes: Buffer.byteLength(content) };
	}

	private allowed(requested: string, verb: string): string {
		const file = this.opened.resolve(requested) ?? this.folder?.resolve(requested);
		if (file) return file;
		const where = this.folder
			? `the files it was opened on and .json files inside ${this.folder.root}`
			: 'the files it was opened on';
		throw new FileError(403, `The studio ${verb} only ${where}`);
	}
}

export class FileError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}
