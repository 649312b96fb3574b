import { useEffect, useState } from 'react';

import * as api from './api';
import type { Overlay, Traffic } from './runtime-bridge';

/**
 * The traffic shown on the graph: a period's counts of the opened scenario from the state store
 * the studio was started with (--store), asked again when the period or the scenario's id change.
 */

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface Period {
	from: string;
	to: string;
}

export interface TrafficView {
	/** Whether the studio has a store to read (the session says). */
	available: boolean;
	period: Period;
	setPeriod(period: Period): void;
	traffic?: Traffic;
	error?: string;
}

export function useTraffic(scenario: string): TrafficView {
	const [available, setAvailable] = useState(false);
	const [period, setPeriod] = useState<Period>(() => ({
		from: dayOf(Date.now() - 6 * DAY),
		to: dayOf(Date.now()),
	}));
	// With what it was asked for: an answer for another scenario or period is never shown.
	const [found, setFound] = useState<{ key: string; traffic?: Traffic }>({ key: '' });
	const key = `${scenario}|${period.from}|${period.to}`;
	const [error, setError] = useState<string>();
	useEffect(() => {
		if (api.hasToken()) void api.session().then((s) => setAvailable(s.traffic), setError);
	}, []);
	useEffect(() => {
		if (!available || !scenario) return setFound({ key: '' });
		let current = true;
		api.traffic(scenario, period.from, period.to).then(
			(answer) => {
				if (!current) return;
				setFound({ key, traffic: answer });
				setError(undefined);
			},
			(e: Error) => current && setError(e.message),
		);
		return () => {
			current = false;
		};
	}, [available, scenario, period.from, period.to, key]);
	const traffic = found.key === key ? found.traffic : undefined;
	return { available, period, setPeriod, traffic, error };
}

/** Above the graph: the period picker and what the shading means, or why there is no traffic. */
export function TrafficBar({ view, overlay }: { view: TrafficView; overlay?: Overlay }) {
	if (!view.available)
		return (
			<div className="traffic-bar off" data-testid="traffic-bar">
				Traffic needs a state store: start the studio with{' '}
				<code>--store &lt;sqlite file | redis URL&gt;</code>
			</div>
		);
	const { period } = view;
	const pick = (key: keyof Period) => (event: { target: { value: string } }) =>
		event.target.value && view.setPeriod({ ...period, [key]: event.target.value });
	return (
		<div className="traffic-bar" data-testid="traffic-bar">
			<span>Traffic from</span>
			<input type="date" value={period.from} onChange={pick('from')} data-testid="traffic-from" />
			<span>to</span>
			<input type="date" value={period.to} onChange={pick('to')} data-testid="traffic-to" />
			{view.error ? (
				<span className="traffic-error">{view.error}</span>
			) : (
				overlay && (
					<span className="traffic-legend" data-testid="traffic-legend">
						shade = conversations entered (most {overlay.mostEntered}); arrow width = times taken
						(most {overlay.mostTaken}); red = dropped off there
					</span>
				)
			)}
		</div>
	);
}
