/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: runs its sides in child processes, never loaded by n8n */
import { fork, type ChildProcess } from 'node:child_process';

import { MemoryStore } from '../runtime/stores';
import { counterStores, type KindOfStore, type StorePlace } from './counter-stores';
import { side } from './counters-side';
import { throughEngine } from './engine-run';
import { messages } from './order-traffic';
import {
	collectGarbage,
	timedChunk,
	turnOrder,
	type ChunkedSide,
	type RunResult,
} from './overhead-verdict';

/**
 * The counters bench with each side in a process of its own (BENCH_COUNTER_APART=1), fed in turns
 * by the parent as overhead-verdict.ts's `interleaved` feeds two sides in one process: the same
 * rounds, chunks, ABBA order and collections, each chunk timed by its own process's CPU. In one
 * process the two sides share the JIT's feedback, its compiled code and the heap; here they share
 * only the machine, as two n8n processes would, one counting and one not.
 */
export type ApartSetup = { kind: KindOfStore; place: StorePlace; total: number; untimed: number };

type Ask = { op: 'open'; i: number } | { op: 'run'; k: number } | { op: 'close' };
type Answer = { op: 'ready' | 'opened' | 'closed' } | { op: 'ran'; result: RunResult };

const SIDE_ARG = 'counters-apart-side';

function ask(child: ChildProcess, message: Ask | undefined, want: Answer['op']): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const onMessage = (answer: Answer) => {
			if (answer.op !== want) return;
			child.off('message', onMessage);
			child.off('exit', onExit);
			resolve(answer);
		};
		const onExit = (code: number | null) => reject(new Error(`a side's process ended (${code})`));
		child.on('message', onMessage);
		child.once('exit', onExit);
		if (message) child.send(message);
	});
}

/** Both sides' chunk results, each side in its own process (see above). */
export async function apartInterleaved(
	setup: ApartSetup,
	rounds: number,
	chunks: number,
): Promise<[RunResult[], RunResult[]]> {
	const children = [0, 1].map((s) =>
		fork(__filename, [SIDE_ARG, JSON.stringify({ ...setup, analytics: s === 1 })], {
			execArgv: process.execArgv,
		}),
	);
	const results: [RunResult[], RunResult[]] = [[], []];
	try {
		await Promise.all(children.map((child) => ask(child, undefined, 'ready')));
		let n = 0;
		for (let round = 0; round < rounds; round++) {
			for (const child of children) await ask(child, { op: 'open', i: ++n }, 'opened');
			for (let k = 0; k < chunks; k++)
				for (const s of turnOrder(round, k)) {
					const answer = await ask(children[s], { op: 'run', k }, 'ran');
					if (answer.op === 'ran') results[s].push(answer.result);
				}
			for (const child of children) await ask(child, { op: 'close' }, 'closed');
		}
	} finally {
		for (const child of children) child.kill();
	}
	return results;
}

/** A side's process: opens its store and engine each round, runs the chunks it is asked for. */
async function sideProcess(setup: ApartSetup & { analytics: boolean }): Promise<void> {
	const store = counterStores(setup.place).find((s) => s.kind === setup.kind);
	if (!store) throw new Error(`no store ${setup.kind}`);
	const events = messages(setup.total, 'k');
	// The warm-up the bench's own process has before its sides open.
	await throughEngine(new MemoryStore(), messages(2_000, 'warm'), 1);
	let open: ChunkedSide | undefined;
	const reply = (answer: Answer) => process.send?.(answer);
	process.on('message', (message: Ask) => {
		void (async () => {
			if (message.op === 'open') {
				open = await side(store.open(message.i), events, setup.untimed, setup.analytics);
				collectGarbage(); // as interleaved() does before a round, outside its time
				reply({ op: 'opened' });
			} else if (message.op === 'run' && open) {
				const chunk = open;
				reply({ op: 'ran', result: await timedChunk(async () => await chunk.run(message.k)) });
			} else if (message.op === 'close') {
				await open?.close();
				reply({ op: 'closed' });
			}
		})();
	});
	reply({ op: 'ready' });
}

if (process.argv[2] === SIDE_ARG)
	sideProcess(JSON.parse(process.argv[3]) as ApartSetup & { analytics: boolean }).catch(
		(error: unknown) => {
			process.stderr.write(`${String(error)}\n`);
			process.exit(1);
		},
	);
