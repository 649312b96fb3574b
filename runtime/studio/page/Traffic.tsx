import { useEffect, type ReactNode } from 'react';

import * as api from './api';
import type { Overlay, Traffic } from './runtime-bridge';
import { draftOf, useStudio, type Period } from './store';

/**
 * The traffic shown on the graph: a period's counts of the opened scenario from the state store
 * the studio was started with (--store), asked again when the period or the scenario's id change.
 */

const scenarioOf = (id: unknown) => (typeof id === 'string' ? id : '');

/** Asks the studio server for the traffic whenever the scenario or the period change. */
export function useTraffic(): void {
	const scenario = useStudio((s) => scenarioOf(draftOf(s).id));
	const available = useStudio((s) => s.traffic.available);
	const { from, to } = useStudio((s) => s.traffic.period);
	useEffect(() => {
		const { setTraffic } = useStudio.getState();
		if (api.hasToken())
			void api.session().then(
				(s) => setTraffic({ available: s.traffic, versions: s.versions ?? false }),
				(e: Error) => setTraffic({ error: e.message }),
			);
	}, []);
	useEffect(() => {
		const { setTraffic } = useStudio.getState();
		if (!available || !scenario) return setTraffic({ found: { key: '' } });
		let current = true;
		const key = `${scenario}|${from}|${to}`;
		api.traffic(scenario, from, to).then(
			(answer) => current && setTraffic({ found: { key, traffic: answer }, error: undefined }),
			(e: Error) => current && setTraffic({ error: e.message }),
		);
		return () => {
			current = false;
		};
	}, [available, scenario, from, to]);
}

/** The traffic for the opened scenario and the period picked, once it has come. */
export function useShownTraffic(): Traffic | undefined {
	return useStudio((s) => {
		const { period, found } = s.traffic;
		const key = `${scenarioOf(draftOf(s).id)}|${period.from}|${period.to}`;
		return found.key === key ? found.traffic : undefined;
	});
}

/** Above the graph: the period picker and what the shading means, or why there is no traffic. */
export function TrafficBar({ overlay, children }: { overlay?: Overlay; children?: ReactNode }) {
	const { available, period, error } = useStudio((s) => s.traffic);
	if (!available)
		return (
			<div className="traffic-bar off" data-testid="traffic-bar">
				Traffic needs a state store: start the studio with{' '}
				<code>--store &lt;sqlite file | redis URL&gt;</code>
			</div>
		);
	const pick = (key: keyof Period) => (event: { target: { value: string } }) =>
		event.target.value &&
		useStudio.getState().setTraffic({ period: { ...period, [key]: event.target.value } });
	return (
		<div className="traffic-bar" data-testid="traffic-bar">
			<span>Traffic from</span>
			<input type="date" value={period.from} onChange={pick('from')} data-testid="traffic-from" />
			<span>to</span>
			<input type="date" value={period.to} onChange={pick('to')} data-testid="traffic-to" />
			{children}
			{error ? (
				<span className="traffic-error">{error}</span>
			) : (
				overlay && (
					<span className="traffic-legend" data-testid="traffic-legend">
						shade = conversations that reached it (most {overlay.mostEntered}); arrow width = times
						taken (most {overlay.mostTaken}); red = dropped off there (hand-offs and conversations
						still answering are not)
					</span>
				)
			)}
		</div>
	);
}
