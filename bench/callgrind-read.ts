/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling, never loaded by n8n */
import { readFileSync } from 'node:fs';

/**
 * Costs per function (instructions, and the simulated caches' misses when callgrind recorded
 * them) from a callgrind file written with `--dump-instr=yes`, JIT-compiled JavaScript named from
 * the V8 perf map (`node --perf-basic-prof`, /tmp/perf-<pid>.map). Self cost only: the inclusive
 * cost a call line carries is skipped.
 */

interface CodeRange {
	start: number;
	end: number;
	name: string;
}

/** The process id callgrind recorded (the perf map's name carries it). */
export function callgrindPid(file: string): number {
	const match = /^pid: (\d+)$/m.exec(readFileSync(file, 'utf8').slice(0, 4000));
	if (!match) throw new Error(`${file}: no pid line`);
	return Number(match[1]);
}

function readPerfMap(file: string): CodeRange[] {
	const ranges: CodeRange[] = [];
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		const [start, size, ...name] = line.split(' ');
		if (name.length === 0) continue;
		const from = parseInt(start, 16);
		ranges.push({ start: from, end: from + parseInt(size, 16), name: jsName(name.join(' ')) });
	}
	return ranges.sort((a, b) => a.start - b.start);
}

/** `JS:*stepTally file:///…/runtime/…/tally.ts:2:1807` → `JS stepTally runtime/…/tally.ts`. */
function jsName(name: string): string {
	const [fn, where = ''] = name.replace(/^JS:[*~^+]?'?/, '').split(' ');
	const file = where.replace(/^file:\/\//, '').replace(/:\d+:\d+$/, '');
	const short = file.includes('/node_modules/')
		? file.slice(file.lastIndexOf('/node_modules/') + 14)
		: file.replace(/^.*?\/(runtime|bench)\//, '$1/');
	return `JS ${fn || '(anonymous)'} ${short}`.trim();
}

function nameAt(ranges: CodeRange[], address: number): string | undefined {
	let [low, high] = [0, ranges.length - 1];
	while (low <= high) {
		const mid = (low + high) >> 1;
		if (ranges[mid].start <= address) low = mid + 1;
		else high = mid - 1;
	}
	const range = ranges[high];
	return range && address < range.end ? range.name : undefined;
}

/**
 * Self cost by function name, every event callgrind recorded (`events`: Ir, and with
 * `--cache-sim=yes` the simulated caches' misses: I1mr, D1mr, D1mw, ILmr, DLmr, DLmw).
 */
export function readCallgrindEvents(
	file: string,
	perfMap: string,
): { events: string[]; costs: Map<string, number[]> } {
	const ranges = readPerfMap(perfMap);
	const text = readFileSync(file, 'utf8');
	const events = /^events: (.*)$/m.exec(text)?.[1].trim().split(/\s+/) ?? ['Ir'];
	const names = new Map<string, string>();
	const costs = new Map<string, number[]>();
	let fn = '?';
	let address = 0;
	let skipNext = false;
	// fn=(id) name defines a compressed name; fn=(id) uses it; cfn= defines names too.
	const define = (line: string): string => {
		const match = /^\((\d+)\)(?: (.*))?$/.exec(line);
		if (!match) return line;
		if (match[2] !== undefined) names.set(match[1], match[2]);
		return names.get(match[1]) ?? '?';
	};
	for (const line of text.split('\n')) {
		if (line.startsWith('fn=')) fn = define(line.slice(3));
		else if (line.startsWith('cfn=')) define(line.slice(4));
		else if (line.startsWith('calls=')) skipNext = true;
		else if (/^(0x|[+\-*])/.test(line)) {
			const [position, ...counts] = line.split(' ');
			if (position.startsWith('0x')) address = parseInt(position, 16);
			else if (position !== '*') address += Number(position);
			if (skipNext) {
				skipNext = false;
				continue;
			}
			const unknown = fn === '?' || fn.startsWith('0x');
			const name = unknown ? (nameAt(ranges, address) ?? 'JIT code not in the map') : fn;
			const sums = costs.get(name) ?? events.map(() => 0);
			counts.forEach((n, i) => (sums[i] += Number(n)));
			costs.set(name, sums);
		}
	}
	return { events, costs };
}
