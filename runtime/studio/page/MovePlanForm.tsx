import type { MovePlan, VersionWithStates } from './runtime-bridge';
import { draftOf, useStudio } from './store';
import { sameNames, statesOf } from './versions-view';

/** A Move's plan as a form: the version moved to, the state map, what an unmapped state does. */

export interface Targets {
	/** The versions a Move may go to, the one edited first. */
	versions: number[];
	edited: number;
	/** The states of a version a conversation can be moved into (an end state waits for nothing). */
	statesOf(version: number): string[];
}

export function useTargets(from: VersionWithStates, versions: VersionWithStates[]): Targets {
	const draft = useStudio(draftOf);
	const edited = typeof draft.version === 'number' ? draft.version : 0;
	const draftStates = Object.entries((draft.states ?? {}) as Record<string, { end?: unknown }>)
		.filter(([, state]) => !state?.end)
		.map(([name]) => name);
	return {
		versions: [...new Set([edited, ...versions.map((v) => v.version)])].filter(
			(n) => n !== from.version,
		),
		edited,
		statesOf: (version) => statesOf(version, versions, draftStates, edited),
	};
}

export function MovePlanForm(props: {
	plan: MovePlan;
	fromStates: string[];
	targets: Targets;
	onChange(plan: MovePlan): void;
}) {
	const { plan, targets } = props;
	const to = plan.to ?? targets.edited;
	const toStates = targets.statesOf(to);
	const mapTo = (state: string, target: string) => {
		const { [state]: _, ...rest } = plan.states;
		props.onChange({ ...plan, states: target ? { ...rest, [state]: target } : rest });
	};
	const picked = (version: number) =>
		props.onChange({
			...plan,
			to: version,
			states: sameNames(props.fromStates, targets.statesOf(version)),
		});
	return (
		<>
			<div className="inline">
				to version{' '}
				<select data-testid="move-to" value={to} onChange={(e) => picked(Number(e.target.value))}>
					{targets.versions.map((n) => (
						<option key={n} value={n}>
							v{n}
							{n === targets.edited ? ' (edited here)' : ''}
						</option>
					))}
				</select>
			</div>
			<StateMap
				fromStates={props.fromStates}
				toStates={toStates}
				states={plan.states}
				onMap={mapTo}
			/>
			<label className="inline">
				a state not mapped:{' '}
				<select
					data-testid="move-unmapped"
					value={plan.unmapped}
					onChange={(e) =>
						props.onChange({ ...plan, unmapped: e.target.value as MovePlan['unmapped'] })
					}
				>
					<option value="finish">finishes on v{plan.from}</option>
					<option value="restart">starts over with its next message</option>
				</select>
			</label>
		</>
	);
}

/** Each state of the old version and the state of the new one it moves to, or none. */
function StateMap(props: {
	fromStates: string[];
	toStates: string[];
	states: Readonly<Record<string, string>>;
	onMap(state: string, target: string): void;
}) {
	return (
		<table className="move-map">
			<tbody>
				{props.fromStates.map((state) => (
					<tr key={state}>
						<td>{state}</td>
						<td>→</td>
						<td>
							<select
								data-testid={`move-map-${state}`}
								value={props.states[state] ?? ''}
								onChange={(e) => props.onMap(state, e.target.value)}
							>
								<option value="">(not mapped)</option>
								{props.toStates.map((s) => (
									<option key={s} value={s}>
										{s}
									</option>
								))}
							</select>
						</td>
					</tr>
				))}
			</tbody>
		</table>
	);
}
