import { ReactFlowProvider } from '@xyflow/react';
import { useMemo } from 'react';

import { ScenarioGraphView } from './Graph';
import { Problems } from './Problems';
import {
	trafficOverlay,
	type Layout,
	type ScenarioGraph,
	type ScenarioIssue,
} from './runtime-bridge';
import { TrafficBar, type TrafficView } from './Traffic';

/** The graph with the traffic bar above it and the problems below. */
export function Canvas(props: {
	layout: Layout;
	fitKey: string;
	selected?: string;
	problems: Set<string>;
	lit: { current?: string; visited: Set<string> };
	issues: ScenarioIssue[];
	graph: ScenarioGraph;
	traffic: TrafficView;
	onSelect(name: string | undefined): void;
	onConnect(from: string, to: string): void;
}) {
	const { graph } = props;
	const found = props.traffic.traffic;
	const overlay = useMemo(() => found && trafficOverlay(found, graph), [found, graph]);
	return (
		<section className="canvas">
			<TrafficBar view={props.traffic} overlay={overlay} />
			<ReactFlowProvider>
				<ScenarioGraphView
					layout={props.layout}
					fitKey={props.fitKey}
					selected={props.selected}
					problems={props.problems}
					current={props.lit.current}
					visited={props.lit.visited}
					traffic={overlay}
					onSelect={props.onSelect}
					onConnect={props.onConnect}
				/>
			</ReactFlowProvider>
			<Problems issues={props.issues} onSelect={props.onSelect} />
		</section>
	);
}
