/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- benchmark tooling: reads /proc, never loaded by n8n */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(
	execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || '100',
);

/**
 * The CPU time (ms, user + system) used so far by every process of a process group, read from
 * /proc: n8n and the task runners it starts. A child that exited and was waited for counts in
 * its parent's cutime/cstime, so the sum does not drop when one goes.
 */
export function groupCpuMs(pgid: number): number {
	let ticks = 0;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue; // gone meanwhile
		}
		// Fields after the command name (which may hold spaces and parentheses).
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (Number(fields[2]) !== pgid) continue;
		// utime, stime, cutime, cstime: fields 14 to 17 of stat(5), 11 to 14 here.
		ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
	}
	return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * The CPU time (ms) used so far by the threads of one process that its main thread started
 * without naming them: in n8n, isolated-vm's, which build, run and dispose of n8n's expression
 * isolates (a Linux thread inherits its creator's name unless renamed; Node names its own threads:
 * V8Worker, libuv-worker, WorkerThread). A thread that ended is no longer counted, but
 * isolated-vm keeps its threads for the life of the process.
 */
export function isolateThreadsCpuMs(pid: number): number {
	const mainName = threadName(pid, pid);
	let ticks = 0;
	for (const tid of readdirSync(`/proc/${pid}/task`)) {
		if (Number(tid) === pid || threadName(pid, Number(tid)) !== mainName) continue;
		try {
			const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// gone meanwhile
		}
	}
	return (ticks * 1000) / TICKS_PER_SECOND;
}

function threadName(pid: number, tid: number): string | undefined {
	try {
		return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
	} catch {
		return undefined;
	}
}

/** The machine's load averages (1, 5, 15 minutes), as /proc/loadavg gives them. */
export function loadAverage(): string {
	return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
