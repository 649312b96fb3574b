/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- end-to-end tooling: spawns a sender process, never loaded by n8n */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type Steady = {
	sent: number;
	ok: number;
	p99: number;
	max: number;
	statuses: Record<string, number>;
};

/** Starts the steady sender (steady-sender.ts) in a process of its own; stop() gives its figures. */
export async function startSteady(
	url: string,
	secret: string,
	tag: string,
	headers: Record<string, string> = {},
	rate = 5,
) {
	const child: ChildProcess = spawn(
		process.execPath,
		['--import', 'tsx', path.join(__dirname, 'steady-sender.ts'), url, secret, tag, String(rate)],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, STEADY_HEADERS: JSON.stringify(headers) },
		},
	);
	let out = '';
	child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
	while (!out.includes('ready\n')) {
		if (child.exitCode !== null) throw new Error('the steady sender exited at start');
		await new Promise((r) => setTimeout(r, 50));
	}
	return {
		async stop(): Promise<Steady> {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
			const line = out.trim().split('\n').pop() ?? '{}';
			const r = JSON.parse(line) as {
				sent: number;
				statuses: Record<string, number>;
				latencies: number[];
			};
			const sorted = [...r.latencies].sort((a, b) => a - b);
			return {
				sent: r.sent,
				ok: r.statuses['200'] ?? 0,
				p99: sorted[Math.max(0, Math.ceil(sorted.length * 0.99) - 1)] ?? 0,
				max: sorted[sorted.length - 1] ?? 0,
				statuses: r.statuses,
			};
		},
	};
}

/** The resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
	return kb / 1024;
}

/** Samples a process's memory every 100 ms while `work` runs: its growth over the start and peak. */
export async function watchMemory<T>(pid: number, work: () => Promise<T>) {
	const before = rssMb(pid);
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
	try {
		const result = await work();
		peak = Math.max(peak, rssMb(pid));
		return { result, growthMb: peak - before, before, peak };
	} finally {
		clearInterval(timer);
	}
}
