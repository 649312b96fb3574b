/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark tooling, never loaded by n8n */
import { cpus } from 'node:os';

import { percentile, table } from './lib';
import { loadAverage } from './process-cpu';
import { cpuPerMessage, type Load, type Phase, type Setup } from './reply-measure';

/** The reply bench's table and its ratios against the hand-built flow, for one n8n run. */

export type Result = { s: Setup; idle: Phase; steady: Phase };

const ms = (n: number) => `${Math.round(n)} ms`;
const sortedLatencies = (p: Phase) => [...p.samples.map((x) => x.latency)].sort((a, b) => a - b);
const stats = (p: Phase) =>
	[50, 90, 99].map((q) => ms(percentile(sortedLatencies(p), q))).join(' / ');
const p50 = (p: Phase) => percentile(sortedLatencies(p), 50);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

export function report(
	title: string,
	results: Result[],
	/** n8n's idle CPU (ms/ms) before and after the setups ran; the lower is subtracted. */
	idle: { before: number; after: number },
	loadBefore: string,
	load: Load,
): string {
	const backgroundPerMs = Math.min(idle.before, idle.after);
	const { rate } = load;
	const cpu = (p: Phase) => cpuPerMessage(p, backgroundPerMs);
	const isolates = (p: Phase) => p.isolatesMs / p.samples.length;
	const rest = (p: Phase) => cpu(p) - isolates(p);
	const rows = results.map(({ s, idle, steady }) => ({
		setup: s.name,
		'idle p50 / p90 / p99': stats(idle),
		[`${rate} msg/s p50 / p90 / p99`]: stats(steady),
		'ack p50 idle': ms(
			percentile(
				[...idle.samples.map((x) => x.ackMs)].sort((a, b) => a - b),
				50,
			),
		),
		'CPU/message idle / rate': `${ms(cpu(idle))} / ${ms(cpu(steady))}`,
		"of it in n8n's isolates": `${ms(isolates(idle))} / ${ms(isolates(steady))}`,
	}));
	const [trigger, port, hand] = ['Messaging Bot', 'Own Port', 'by hand'].map((n) =>
		results.find((r) => r.s.name.includes(n)),
	);
	const lines: string[] = [
		`${title}: reply latency in one real n8n (regular mode, SQLite), ${load.idleMessages} messages idle, ${rate} msg/s for ${load.rateSeconds} s; ${cpus().length} cores`,
		`n8n's idle CPU ${(idle.before * 1000).toFixed(1)} ms/s before the setups, ${(idle.after * 1000).toFixed(1)} ms/s after (the lower subtracted); load average before ${loadBefore}, after ${loadAverage()}`,
		table(rows),
		'',
	];
	if (port && hand)
		lines.push(
			`Own Port Trigger → Scenario against the hand-built flow: p50 idle ${ratio(p50(port.idle), p50(hand.idle))}, at ${rate} msg/s ${ratio(p50(port.steady), p50(hand.steady))} (target ≤ 2x); CPU/message idle ${ratio(cpu(port.idle), cpu(hand.idle))}, at ${rate} msg/s ${ratio(cpu(port.steady), cpu(hand.steady))} (target ≤ 2x)`,
		);
	if (trigger && hand)
		lines.push(
			`Messaging Bot Trigger → Scenario: p50 idle ${ms(p50(trigger.idle))} (target < 150 ms); CPU/message against the hand-built flow idle ${ratio(cpu(trigger.idle), cpu(hand.idle))}, at ${rate} msg/s ${ratio(cpu(trigger.steady), cpu(hand.steady))} (target < 1.5x); outside n8n's expression isolates idle ${ratio(rest(trigger.idle), rest(hand.idle))}, at ${rate} msg/s ${ratio(rest(trigger.steady), rest(hand.steady))}`,
		);
	return `${lines.join('\n')}\n`;
}
