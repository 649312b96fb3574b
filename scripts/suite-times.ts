/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- CI tooling, never loaded by n8n */
/**
 * Where a jest run's time went: `npx tsx scripts/suite-times.ts .ci/jest-results.json [N]` prints
 * the run's length by the clock, the sum of its suites' lengths, and the N longest suites (default
 * 25) with when each started. The figures test/sequencer.js orders the suites by.
 */
import { readFileSync } from 'node:fs';

type Results = { testResults: Array<{ name: string; startTime: number; endTime: number }> };

const [file, most = '25'] = process.argv.slice(2);
if (!file) throw new Error('Usage: tsx scripts/suite-times.ts <jest --json output> [N]');
const { testResults } = JSON.parse(readFileSync(file, 'utf8')) as Results;
const first = Math.min(...testResults.map((t) => t.startTime));
const last = Math.max(...testResults.map((t) => t.endTime));
const suites = testResults
	.map((t) => ({
		name: t.name.split('/').slice(-2).join('/'),
		seconds: (t.endTime - t.startTime) / 1000,
		startedAt: (t.startTime - first) / 1000,
	}))
	.sort((a, b) => b.seconds - a.seconds);
const sum = suites.reduce((s, t) => s + t.seconds, 0);
const out = (line: string) => process.stdout.write(`${line}\n`);
out(
	`${suites.length} suites: ${Math.round((last - first) / 1000)} s by the clock, ${Math.round(sum)} s summed`,
);
out('seconds  started  suite');
for (const s of suites.slice(0, Number(most)))
	out(
		`${s.seconds.toFixed(1).padStart(7)}  ${Math.round(s.startedAt).toString().padStart(7)}  ${s.name}`,
	);
