/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: runs valgrind, never loaded by n8n */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { callgrindPid, readCallgrindEvents } from './callgrind-read';
import { table } from './lib';

/**
 * The analytics counters' cost in instructions, which the machine's load does not move: the
 * counters bench's traffic (bench/instructions-driver.ts) under valgrind's callgrind, counters off
 * and on, each side run twice with the same warm-up and a different number of messages after it;
 * the difference is the instructions of those messages alone, per message, by kind of work (the
 * count's own functions, JSON, Maps, the collector, the JIT compiler, ...). The compiler's share
 * is told apart: it depends on when V8 decides to optimize, not on the steady cost.
 * `npx tsx bench/count-instructions.ts` (about 6 minutes; needs valgrind). BENCH_INSTR_WARM,
 * BENCH_INSTR_SHORT, BENCH_INSTR_LONG: the warm-up and the two runs' messages. BENCH_INSTR_CACHE=1:
 * with callgrind's cache simulation (about three times as long), the misses a message too, by
 * kind of work: whether what the count costs beyond its instructions is code or data that the
 * rest of the engine's work took out of the caches.
 */
const WARM = Number(process.env.BENCH_INSTR_WARM ?? 30_000);
const SHORT = Number(process.env.BENCH_INSTR_SHORT ?? 2_000);
const LONG = Number(process.env.BENCH_INSTR_LONG ?? 10_000);
const CACHE = process.env.BENCH_INSTR_CACHE === '1';
const DRIVER = path.join(__dirname, 'instructions-driver.ts');
// The child runs in the scratch directory (V8's code logs land there), so tsx is named by path.
const TSX = pathToFileURL(path.join(__dirname, '../node_modules/tsx/dist/loader.mjs')).href;
const out = (line = '') => process.stdout.write(`${line}\n`);

/** Costs by function: instructions, then (BENCH_INSTR_CACHE=1) the simulated caches' misses. */
type Costs = Map<string, number[]>;
/** Costs with the events of their columns, as callgrind named them (Ir, I1mr, D1mr, ...). */
type Measured = { events: string[]; costs: Costs };

/** One valgrind run of the driver; resolves with its costs by function. */
async function run(dir: string, counting: boolean, messages: number): Promise<Measured> {
	const file = path.join(dir, `callgrind.${counting ? 'on' : 'off'}.${messages}`);
	const args = [
		'--tool=callgrind',
		...(CACHE ? ['--cache-sim=yes'] : []),
		'--dump-instr=yes',
		'--dump-line=no',
		`--callgrind-out-file=${file}`,
		process.execPath,
		// One thread: V8 optimizes and collects at the same points in every run (no background jobs).
		'--single-threaded',
		'--perf-basic-prof',
		'--import',
		TSX,
		DRIVER,
	];
	const env = {
		...process.env,
		MB_INSTR_COUNTERS: counting ? '1' : '0',
		MB_INSTR_WARM: String(WARM),
		MB_INSTR_MESSAGES: String(messages),
	};
	await new Promise<void>((resolve, reject) => {
		const child = spawn('valgrind', args, { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
		let errors = '';
		child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
		child.on('error', reject);
		child.on('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`valgrind exited ${code}: ${errors}`)),
		);
	});
	const map = `/tmp/perf-${callgrindPid(file)}.map`;
	try {
		return readCallgrindEvents(file, map);
	} finally {
		rmSync(map, { force: true });
		rmSync(file, { force: true });
	}
}

/** Costs per message of the messages between the short and the long run (the same events). */
function perMessage(short: Measured, long: Measured): Measured {
	const each: Costs = new Map();
	const none = long.events.map(() => 0);
	for (const name of new Set([...short.costs.keys(), ...long.costs.keys()])) {
		const [a, b] = [short.costs.get(name) ?? none, long.costs.get(name) ?? none];
		each.set(
			name,
			none.map((_, i) => ((b[i] ?? 0) - (a[i] ?? 0)) / (LONG - SHORT)),
		);
	}
	return { events: long.events, costs: each };
}

/** One event's column of `costs` (0: instructions). */
function column(costs: Costs, event: number): Map<string, number> {
	return new Map([...costs].map(([name, values]) => [name, values[event] ?? 0]));
}

const KINDS: Array<[string, RegExp]> = [
	[
		'JIT compiler',
		/compiler::|turboshaft|maglev|Maglev|Zone|RegisterAllocat|OptimizedCompilationJob/,
	],
	[
		'garbage collector',
		/Scaveng|Marking|Evacuat|Sweep|RecordWrite|Remembered|MarkCompact|heap::|Heap::|BodyDescriptor|ConcurrentMarking|MemoryChunk|PageMetadata/,
	],
	['JSON', /Json|Dtoa|DoubleToCString/],
	[
		'the count (its JS functions)',
		/^JS .*(runtime\/scenarios\/analytics\/|runtime\/stores\/memory\.ts|counter-json)/,
	],
	['Maps and Sets (builtins)', /OrderedHash|Builtins?_(Map|Set|FindOrderedHash)/],
	['xstate', /^JS .*xstate\//],
	['other JavaScript', /^JS /],
];

function kindOf(name: string): string {
	for (const [kind, pattern] of KINDS) if (pattern.test(name)) return kind;
	return 'other builtins and C++';
}

function byKind(costs: Map<string, number>): Map<string, number> {
	const kinds = new Map<string, number>();
	for (const [name, n] of costs) kinds.set(kindOf(name), (kinds.get(kindOf(name)) ?? 0) + n);
	return kinds;
}

const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

function report(off: Map<string, number>, on: Map<string, number>): void {
	const [offKinds, onKinds] = [byKind(off), byKind(on)];
	const kinds = [...new Set([...offKinds.keys(), ...onKinds.keys()])];
	const rows = kinds
		.map((kind) => [kind, offKinds.get(kind) ?? 0, onKinds.get(kind) ?? 0] as const)
		.sort((a, b) => b[2] - b[1] - (a[2] - a[1]))
		.map(([kind, a, b]) => ({ kind, off: k(a), on: k(b), 'on - off': k(b - a) }));
	const compiler = (m: Map<string, number>) => m.get('JIT compiler') ?? 0;
	const [offAll, onAll] = [sum(off), sum(on)];
	out(
		`Instructions a message (callgrind), order-status traffic, MemoryStore, 50 in flight: the ${(LONG - SHORT).toLocaleString('en')} messages after ${(WARM + SHORT).toLocaleString('en')}, counters off and on`,
	);
	out(table(rows));
	out();
	out(
		`All: off ${k(offAll)}, on ${k(onAll)}, off / on ${(offAll / onAll).toFixed(3)}; without the JIT compiler: off / on ${((offAll - compiler(offKinds)) / (onAll - compiler(onKinds))).toFixed(3)}`,
	);
	const names = [...new Set([...off.keys(), ...on.keys()])]
		.map((name) => ({ name, diff: (on.get(name) ?? 0) - (off.get(name) ?? 0) }))
		.filter(({ name }) => kindOf(name) !== 'JIT compiler')
		.sort((a, b) => b.diff - a.diff)
		.slice(0, 20);
	out();
	out('The functions that grow most (self instructions a message, on - off):');
	out(
		table(names.map(({ name, diff }) => ({ 'on - off': k(diff), function: name.slice(0, 110) }))),
	);
}

/**
 * The simulated caches' misses a message, off and on (the JIT compiler's left out), and by kind of
 * work those of the level-1 caches: instruction fetches (I1mr) and data reads (D1mr).
 */
function missesReport(off: Measured, on: Measured): void {
	const steady = ({ costs }: Measured) =>
		new Map([...costs].filter(([name]) => kindOf(name) !== 'JIT compiler'));
	const [a, b] = [steady(off), steady(on)];
	const events = on.events;
	const rows = events.map((event, i) => {
		const [x, y] = [sum(column(a, i)), sum(column(b, i))];
		return { event, off: x.toFixed(0), on: y.toFixed(0), 'on - off': (y - x).toFixed(0) };
	});
	out();
	out(`Callgrind's simulated caches, a message (the JIT compiler's left out):`);
	out(table(rows));
	for (const event of ['I1mr', 'D1mr']) {
		const i = events.indexOf(event);
		if (i < 0) continue;
		const [x, y] = [byKind(column(a, i)), byKind(column(b, i))];
		const kinds = [...new Set([...x.keys(), ...y.keys()])]
			.map((kind) => ({ kind, diff: (y.get(kind) ?? 0) - (x.get(kind) ?? 0) }))
			.sort((p, q) => q.diff - p.diff)
			.map(({ kind, diff }) => ({ kind, 'on - off': diff.toFixed(0) }));
		out();
		out(`${event} a message by kind of work, on - off:`);
		out(table(kinds));
	}
}

async function main(dir: string): Promise<void> {
	const both = async (messages: number) =>
		await Promise.all([run(dir, false, messages), run(dir, true, messages)]);
	const [offLong, onLong] = await both(LONG);
	const [offShort, onShort] = await both(SHORT);
	const [off, on] = [perMessage(offShort, offLong), perMessage(onShort, onLong)];
	report(column(off.costs, 0), column(on.costs, 0));
	if (CACHE) missesReport(off, on);
}

const dir = mkdtempSync(path.join(tmpdir(), 'mb-instructions-'));
main(dir)
	.catch((error: unknown) => {
		process.stderr.write(`${String(error)}\n`);
		process.exitCode = 1;
	})
	.finally(() => rmSync(dir, { recursive: true, force: true }));
