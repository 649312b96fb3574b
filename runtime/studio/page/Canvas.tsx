import { ReactFlowProvider } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';

import { useDrawing } from './drawing';
import { ScenarioGraphView } from './Graph';
import { FunnelPanel } from './Funnel';
import { Problems } from './Problems';
import { SplitVerdictPanel } from './SplitVerdict';
import { VersionsPanel } from './Versions';
import { trafficOverlay } from './runtime-bridge';
import { useStudio } from './store';
import { TrafficBar, useShownTraffic } from './Traffic';

/** The graph with the traffic bar above it and the problems below. */
export function Canvas() {
	const { issues, warnings, problemStates, graph, splits, layout } = useDrawing();
	const selected = useStudio((s) => s.selected);
	const lit = useStudio((s) => s.lit);
	const [funnelShown, setFunnelShown] = useState(false);
	const [versionsShown, setVersionsShown] = useState(false);
	const [verdictShown, setVerdictShown] = useState(false);
	const versionsOn = useStudio((s) => s.traffic.versions ?? false);
	// Fits again when another scenario is opened or pasted, when states are added...
	const fitKey = useStudio(
		(s) =>
			`${s.source.kind === 'file' ? s.source.path : s.source.kind}:${s.opened}:${graph.boxes.length}`,
	);
	// ...and when the funnel opens or closes beside it.
	const fitWidth = `${fitKey}:${funnelShown}:${versionsShown}:${verdictShown}`;
	// The mini-map only where a scenario is too large to read whole; a tick shows or hides it.
	const [showMap, setShowMap] = useState<boolean>();
	const mapShown = showMap ?? graph.boxes.length > 25;
	const trafficOn = useStudio((s) => s.traffic.available);
	const { select, connect, place } = useStudio.getState();
	const found = useShownTraffic();
	const overlay = useMemo(() => found && trafficOverlay(found, graph), [found, graph]);
	// How long the layout took, in the browser's performance timeline (developer tools show it).
	useEffect(() => {
		performance.measure('studio layout', {
			start: performance.now() - layout.ms,
			duration: layout.ms,
		});
	}, [layout]);
	return (
		<section className="canvas">
			<TrafficBar overlay={overlay}>
				<Toggle label="funnel" testId="toggle-funnel" on={funnelShown} set={setFunnelShown} />
				{versionsOn && (
					<Toggle
						label="versions"
						testId="toggle-versions"
						on={versionsShown}
						set={setVersionsShown}
					/>
				)}
				{splits.size > 0 && (
					<Toggle
						label="split tests"
						testId="toggle-verdict"
						on={verdictShown}
						set={setVerdictShown}
					/>
				)}
			</TrafficBar>
			<div className="canvas-main">
				<Toggle
					label="mini-map"
					testId="toggle-map"
					on={mapShown}
					set={setShowMap}
					className="map-toggle"
				/>
				<ReactFlowProvider>
					<ScenarioGraphView
						layout={layout}
						fitKey={fitWidth}
						selected={selected}
						problems={problemStates}
						current={lit.current}
						visited={lit.visited}
						traffic={overlay}
						splits={splits}
						onSelect={select}
						onConnect={connect}
						onPlace={place}
						showMap={mapShown}
					/>
				</ReactFlowProvider>
				{trafficOn && funnelShown && <FunnelPanel />}
				{trafficOn && verdictShown && splits.size > 0 && <SplitVerdictPanel />}
				{versionsOn && versionsShown && <VersionsPanel />}
			</div>
			<Problems issues={issues} warnings={warnings} onSelect={select} />
		</section>
	);
}

/** A labelled checkbox over the canvas. */
function Toggle(props: {
	label: string;
	testId: string;
	on: boolean;
	set: (on: boolean) => void;
	className?: string;
}) {
	return (
		<label className={props.className ? `check ${props.className}` : 'check'}>
			<input
				type="checkbox"
				checked={props.on}
				data-testid={props.testId}
				onChange={(e) => props.set(e.target.checked)}
			/>
			{props.label}
		</label>
	);
}
