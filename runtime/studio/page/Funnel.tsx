import { useMemo, useState } from 'react';

import { useFunnelReading } from './funnel-reading';
import { STOPS, funnelView, type FunnelBar } from './funnel-bars';
import { END, stateOrder, type ScenarioDocument } from './runtime-bridge';
import { draftOf, useStudio } from './store';

/**
 * Beside the graph: the funnel of the period picked above it, as Get Analytics reads it (the same
 * counters): the main path's states in order, bars by conversations reached, the loss to the next
 * state, and where those that stopped stand (completed, handed off, dropped, in progress apart);
 * one version or all of them.
 */

const STOP_LABEL = {
	completed: 'completed',
	handedOff: 'handed off',
	dropped: 'dropped',
	inProgress: 'in progress',
} as const;

const percent = (part: number, whole: number) =>
	whole > 0 ? `${Math.round((100 * part) / whole)}%` : '0%';

/** The main path of the scenario being edited; none while it cannot be read. */
function useMainPath(): string[] {
	const draft = useStudio(draftOf);
	return useMemo(() => {
		try {
			return stateOrder(draft as unknown as ScenarioDocument).mainPath;
		} catch {
			return [];
		}
	}, [draft]);
}

/**
 * The funnel panel; with `version`, that version's alone along its own main path (the version
 * list shows it so).
 */
export function FunnelPanel(props: { version?: number; mainPath?: string[] }) {
	const edited = useMainPath();
	const mainPath = props.mainPath ?? edited;
	const { versions, error } = useFunnelReading();
	const [picked, setVersion] = useState<number | 'all'>('all');
	const version = props.version ?? picked;
	const view = useMemo(
		() => versions && funnelView(versions, version, mainPath),
		[versions, version, mainPath],
	);
	return (
		<aside
			className={props.version ? 'funnel inline' : 'funnel'}
			data-testid={props.version ? `funnel-of-${props.version}` : 'funnel'}
		>
			<div className="funnel-head">
				<strong>Funnel{props.version ? ` of version ${props.version}` : ''}</strong>
				{props.version === undefined && (
					<select
						value={String(version)}
						data-testid="funnel-version"
						onChange={(e) => setVersion(e.target.value === 'all' ? 'all' : Number(e.target.value))}
					>
						<option value="all">every version</option>
						{view?.versions.map((v) => (
							<option key={v} value={v}>
								version {v}
							</option>
						))}
					</select>
				)}
			</div>
			{error && <div className="traffic-error">{error}</div>}
			{!view && !error && <div className="hint">Reading…</div>}
			{view && <Bars bars={view.bars} />}
			{view && (
				<div className="funnel-apart" data-testid="funnel-apart">
					{view.conversations} conversations:{' '}
					{STOPS.map((stop) => `${view.apart[stop]} ${STOP_LABEL[stop]}`).join(' · ')}
				</div>
			)}
		</aside>
	);
}

function Bars({ bars }: { bars: FunnelBar[] }) {
	if (bars.length === 0)
		return <div className="hint">No main path: the scenario has problems.</div>;
	const most = Math.max(1, ...bars.map((b) => b.reached));
	return (
		<ol className="funnel-bars">
			{bars.map((bar) => (
				<li key={bar.state} data-testid={`funnel-${bar.state}`} data-reached={bar.reached}>
					<div className="funnel-state">{bar.state === END ? '(the end)' : bar.state}</div>
					<div className="funnel-row">
						<div className="funnel-bar" style={{ width: `${(70 * bar.reached) / most}%` }} />
						<span data-testid={`funnel-${bar.state}-reached`}>{bar.reached} reached</span>
					</div>
					<div className="funnel-stops" data-testid={`funnel-${bar.state}-stops`}>
						stopped here: {STOPS.map((stop) => `${bar[stop]} ${STOP_LABEL[stop]}`).join(' · ')}
					</div>
					{bar.lost !== undefined && (
						<div className="funnel-lost" data-testid={`funnel-${bar.state}-lost`}>
							{bar.lost >= 0
								? `▼ ${bar.lost} (${percent(bar.lost, bar.reached)}) did not go on`
								: `▲ ${-bar.lost} more came from elsewhere`}
						</div>
					)}
				</li>
			))}
		</ol>
	);
}
