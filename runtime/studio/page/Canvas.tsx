import { ReactFlowProvider } from '@xyflow/react';
import { useEffect, useMemo } from 'react';

import { useDrawing } from './drawing';
import { ScenarioGraphView } from './Graph';
import { Problems } from './Problems';
import { trafficOverlay } from './runtime-bridge';
import { useStudio } from './store';
import { TrafficBar, useShownTraffic } from './Traffic';

/** The graph with the traffic bar above it and the problems below. */
export function Canvas() {
	const { issues, problemStates, graph, layout } = useDrawing();
	const selected = useStudio((s) => s.selected);
	const lit = useStudio((s) => s.lit);
	const fitKey = useStudio(
		(s) => `${s.source.kind === 'file' ? s.source.path : s.source.kind}:${s.opened}`,
	);
	const { select, connect } = useStudio.getState();
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
			<TrafficBar overlay={overlay} />
			<ReactFlowProvider>
				<ScenarioGraphView
					layout={layout}
					fitKey={fitKey}
					selected={selected}
					problems={problemStates}
					current={lit.current}
					visited={lit.visited}
					traffic={overlay}
					onSelect={select}
					onConnect={connect}
				/>
			</ReactFlowProvider>
			<Problems issues={issues} onSelect={select} />
		</section>
	);
}
