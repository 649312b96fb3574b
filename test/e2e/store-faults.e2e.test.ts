/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling: runs a real n8n on a full disk and an immutable file, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { prepareN8n, productionUrl } from '../../scripts/lib/demo-setup';
import { freePort, RESTARTABLE_ENV, startN8n, waitForWebhook } from '../../scripts/lib/n8n-process';
import { startEmulator } from '../emulator';
import { admin } from '../helpers/emulator';
import { storedInSqlite } from './stored';
import {
	burstWorkflow,
	everyWritten,
	expectKept,
	outcome,
	prepareBurstEmulator,
	runBurst,
	sleep,
	type BurstPlan,
} from './burst';

jest.setTimeout(600_000);

const SECRET = ['whsec', 'faults', 'test'].join('_');
/** 20 clients × 6 messages (MB_FAULT_CLIENTS, MB_FAULT_PER_CLIENT change it). */
const PLAN: BurstPlan = {
	clients: Number(process.env.MB_FAULT_CLIENTS ?? 20),
	perClient: Number(process.env.MB_FAULT_PER_CLIENT ?? 6),
	gapMs: 700,
	copies: 0,
};
const FAULT_AT_MS = 1500;
const FAULT_FOR_MS = Number(process.env.MB_FAULT_SECONDS ?? 15) * 1000;

type Fault = {
	name: string;
	/** The folder the state file goes in, made ready for the fault. */
	prepare(root: string): string;
	start(folder: string, file: string): void;
	stop(folder: string, file: string): void;
	cleanUp(folder: string, file: string): void;
	cause: RegExp;
};

const fullDisk: Fault = {
	name: 'a full disk (a 4 MB tmpfs filled, then freed)',
	prepare(root) {
		const folder = path.join(root, 'small');
		mkdirSync(folder);
		execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4M', 'tmpfs', folder]);
		return folder;
	},
	start(folder) {
		try {
			writeFileSync(path.join(folder, 'fill'), Buffer.alloc(8 * 1024 * 1024));
		} catch {
			// ENOSPC: full, as meant.
		}
	},
	stop: (folder) => rmSync(path.join(folder, 'fill'), { force: true }),
	cleanUp: (folder) => execFileSync('umount', [folder]),
	cause: /failed: the disk is full/,
};

/** The database, its log and its folder (SQLite maps the shared-memory index: it stays). */
const immutables = (folder: string, file: string) =>
	[file, `${file}-wal`, folder].filter((f) => existsSync(f));
const immutableFile: Fault = {
	name: 'a file made immutable (chattr +i)',
	prepare(root) {
		const folder = path.join(root, 'state');
		mkdirSync(folder);
		return folder;
	},
	start: (folder, file) => execFileSync('chattr', ['+i', ...immutables(folder, file)]),
	stop: (folder, file) => execFileSync('chattr', ['-i', ...immutables(folder, file)]),
	cleanUp: (folder, file) => {
		try {
			execFileSync('chattr', ['-i', ...immutables(folder, file)]);
		} catch {
			// Not immutable any more.
		}
	},
	cause: /failed: it is read-only/,
};

// A real n8n (regular mode, SQLite state store) answering 20 clients × 6 messages while the state
// file cannot be written for a while: nothing acknowledged is lost or answered late or twice, and
// every failure says which file and why.
describe.each([fullDisk, immutableFile])('SQLite state on $name', (fault) => {
	it('every transcript as one at a time: 0 late, 0 twice, errors name the file and the cause', async () => {
		const root = mkdtempSync(path.join(tmpdir(), 'mb-faults-'));
		const folder = fault.prepare(root);
		const file = path.join(folder, 'state.sqlite');
		const emulator = await startEmulator();
		const options = {
			userFolder: path.join(root, 'n8n'),
			port: await freePort(),
			brokerPort: await freePort(),
			env: RESTARTABLE_ENV,
		};
		let n8n: Awaited<ReturnType<typeof startN8n>> | undefined;
		try {
			const clientIds = await prepareBurstEmulator(emulator);
			const workflow = burstWorkflow({}, { statePath: file });
			// The trigger keeps accepted messages in the same file.
			const { nodes } = workflow as unknown as {
				nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
			};
			for (const node of nodes)
				if (node.name === 'Client Writes') node.parameters.options = { statePath: file };
			prepareN8n(
				options,
				{
					baseUrl: emulator.baseUrl,
					apiKey: emulator.apiKey,
					rateLimit: 100,
					rateWindowSeconds: 1,
				},
				SECRET,
				[workflow],
			);
			n8n = await startN8n(options);
			const url = productionUrl(n8n.url, workflow);
			await waitForWebhook(url);
			await admin(emulator, 'POST', '/subscriptions', {
				url,
				secret: SECRET,
				events: ['message.received'],
			});
			const faulty = (async () => {
				await sleep(FAULT_AT_MS);
				fault.start(folder, file);
				await sleep(FAULT_FOR_MS);
				fault.stop(folder, file);
			})();
			await runBurst(emulator, () => url, clientIds, PLAN);
			await faulty;
			const stored = () => storedInSqlite(file);
			const { final, summary } = await outcome(emulator, clientIds, PLAN, stored, true);
			const written = await everyWritten(emulator, clientIds, PLAN, stored());
			const said = storeErrors(n8n.log(), options.userFolder);
			process.stdout.write(
				`${fault.name}: ${JSON.stringify({
					...summary,
					everyWritten: { lost: written.lost, late: written.late, duplicates: written.duplicates },
					storeErrors: said.count,
					example: said.examples[0],
				})}\n`,
			);
			expectKept(final, PLAN, 0);
			expect([written.lost, written.late, written.duplicates, written.outOfStep]).toEqual([
				0, 0, 0, 0,
			]);
			expect(said.count).toBeGreaterThan(0);
			for (const example of said.examples) {
				expect(example).toContain(file);
				expect(example).toMatch(fault.cause);
			}
		} finally {
			await n8n?.stop();
			await emulator.close();
			fault.cleanUp(folder, file);
			if (!process.env.MB_KEEP) rmSync(root, { recursive: true, force: true });
		}
	});
});

/** The store errors n8n printed or kept with its failed executions. */
function storeErrors(log: string, userFolder: string): { count: number; examples: string[] } {
	const pattern = /The SQLite state store at [^\n"\\]+? failed: [^\n"\\]+/g;
	const found = [...(log.match(pattern) ?? [])];
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	if (existsSync(database)) {
		const db = new DatabaseSync(database, { readOnly: true });
		try {
			for (const row of db.prepare('SELECT data FROM execution_data').all() as Array<{
				data: string;
			}>)
				found.push(...(row.data.match(pattern) ?? []));
		} finally {
			db.close();
		}
	}
	return { count: found.length, examples: [...new Set(found)].slice(0, 3) };
}
