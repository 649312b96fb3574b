import { useFunnelReading } from './funnel-reading';
import type { SplitTestReport } from './runtime-bridge';
import { draftOf, useStudio } from './store';

/**
 * Beside the graph: each split test of the opened scenario over the period picked above it, as
 * the runtime's verdict reads the counters (analytics/verdict.ts, the CLI `stats` table): per
 * variant its clients, those that reached the goal, the conversion with its 95 % interval and the
 * probability it is best, then the verdict, or how many more clients it needs.
 */

const pct = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(1)}%`);

export function SplitVerdictPanel() {
	const scenario = useStudio((s) => draftOf(s).id);
	const { splits, error } = useFunnelReading();
	const tests = splits?.filter((t) => t.scenario === scenario);
	return (
		<aside className="funnel split-verdict" data-testid="split-verdict">
			<div className="funnel-head">
				<strong>Split tests</strong>
			</div>
			{error && <div className="traffic-error">{error}</div>}
			{!splits && !error && <div className="hint">Reading…</div>}
			{tests?.length === 0 && (
				<div className="hint">No client was sent down a split in this period.</div>
			)}
			{tests?.map((test) => (
				<TestTable key={test.test} test={test} />
			))}
		</aside>
	);
}

function TestTable({ test }: { test: SplitTestReport }) {
	return (
		<section data-testid={`verdict-${test.test}`}>
			<div className="funnel-state">{test.test}</div>
			<table className="verdict-table">
				<thead>
					<tr>
						<th>variant</th>
						<th>clients</th>
						<th>goal</th>
						<th>conversion</th>
						<th>95% interval</th>
						<th>best</th>
					</tr>
				</thead>
				<tbody>
					{test.variants.map((v) => (
						<tr key={v.variant} data-testid={`verdict-${test.test}-${v.variant}`}>
							<td>{v.variant}</td>
							<td>{v.clients}</td>
							<td>{v.goal}</td>
							<td>{pct(v.conversion)}</td>
							<td>{v.interval ? `${pct(v.interval.low)} to ${pct(v.interval.high)}` : '–'}</td>
							<td>{pct(v.probabilityBest)}</td>
						</tr>
					))}
				</tbody>
			</table>
			<p
				className={test.verdict.best ? 'verdict best' : 'verdict'}
				data-testid={`verdict-${test.test}-text`}
			>
				{test.verdict.text}
			</p>
		</section>
	);
}
