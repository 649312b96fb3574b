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
	const [panels, setPanels] = useState<Panels>(NO_PANELS);
	const versionsOn = useStudio((s) => s.traffic.versions ?? false);
	// Fits again when another scenario is opened or pasted, when states are added...
	const fitKey = useStudio(
		(s) =>
			`${s.source.kind === 'file' ? s.source.path : s.source.kind}:${s.opened}:${graph.boxes.length}`,
	);
	// ...and when the funnel opens or closes beside it.
	const fitWidth = `${fitKey}:${panels.funnel}:${panels.versions}:${panels.verdict}`;
	// The mini-map only where a scenario is too large to read whole; a tick shows or hides it.
	const [showMap, setShowMap] = useState<boolean>();
	const mapShown = showMap ?? graph.boxes.length > 25;
	const trafficOn = useStudio((s) => s.traffic.available);
	const { select, connect, place } = useStudio.getState();
	const found = useShownTraffic();
	const overlay = useMemo(() => found && trafficOverlay(found, graph), [found, graph]);
	useLayoutTiming(layout);
	return (
		<section className="canvas">
			<TrafficBar overlay={overlay}>
				<PanelToggles
					panels={panels}
					set={setPanels}
					versions={versionsOn}
					splits={splits.size > 0}
				/>
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
				{trafficOn && panels.funnel && <FunnelPanel />}
				{trafficOn && panels.verdict && splits.size > 0 && <SplitVerdictPanel />}
				{versionsOn && panels.versions && <VersionsPanel />}
			</div>
			<Problems issues={issues} warnings={warnings} onSelect={select} />
		</section>
	);
}

/** The panels beside the graph, each shown or not. */
type Panels = { funnel: boolean; versions: boolean; verdict: boolean };
const NO_PANELS: Panels = { funnel: false, versions: false, verdict: false };

/** The funnel's tick; the versions' where the store keeps them; the split tests' where there are any. */
function PanelToggles(props: {
	panels: Panels;
	set: (panels: Panels) => void;
	versions: boolean;
	splits: boolean;
}) {
	const { panels, set } = props;
	const toggle = (name: keyof Panels) => (on: boolean) => set({ ...panels, [name]: on });
	return (
		<>
			<Toggle label="funnel" testId="toggle-funnel" on={panels.funnel} set={toggle('funnel')} />
			{props.versions && (
				<Toggle
					label="versions"
					testId="toggle-versions"
					on={panels.versions}
					set={toggle('versions')}
				/>
			)}
			{props.splits && (
				<Toggle
					label="split tests"
					testId="toggle-verdict"
					on={panels.verdict}
					set={toggle('verdict')}
				/>
			)}
		</>
	);
}

/** How long the layout took, in the browser's performance timeline (developer tools show it). */
function useLayoutTiming(layout: { ms: number }) {
	useEffect(() => {
		const { ms } = layout;
		performance.measure('studio layout', { start: performance.now() - ms, duration: ms });
	}, [layout]);
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
