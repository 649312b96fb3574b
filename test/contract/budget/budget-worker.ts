/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling: one OS process sharing a request budget through Redis, never loaded by n8n */
import { closeBudgets, sharedBudget } from '../../../runtime/api/budget';
import type { Priority } from '../../../runtime/api/budget';

const clock = {
	now: () => Date.now(),
	sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/**
 * Takes `count` slots from a budget shared through Redis, `callers` at a time, after the go
 * signal; prints when it asked and when each slot was granted (this machine's clock), as JSON.
 */
async function main(): Promise<void> {
	const [redisUrl, budgetId, limit, windowMs, count, callers, priority] = process.argv.slice(2);
	const url = new URL(redisUrl);
	const budget = sharedBudget(budgetId, clock, {
		limit: Number(limit),
		windowMs: Number(windowMs),
		redis: { host: url.hostname, port: Number(url.port), db: Number(url.pathname.slice(1) || 0) },
	});
	// Connected before "ready": the times measured are the budget's, not a first connect's (which a
	// loaded CI machine made long enough to land the reply in the next window). A block of 0 ms
	// never holds anyone back.
	await budget.block(0);
	process.stdout.write('ready\n');
	await new Promise<void>((resolve) =>
		process.stdin.once('data', () => {
			process.stdin.pause();
			resolve();
		}),
	);
	const asked = Date.now();
	const granted: number[] = [];
	let left = Number(count);
	await Promise.all(
		Array.from({ length: Number(callers) }, async (_, lane) => {
			while (left > 0) {
				left--;
				const slot = await budget.acquire({ priority: priority as Priority, lane: String(lane) });
				granted.push(Date.now());
				slot.settle();
			}
		}),
	);
	process.stdout.write(JSON.stringify({ asked, granted }));
	await closeBudgets();
}

void main();
