import type { ScenarioIssue } from './runtime-bridge';
import { stateOfPath } from './draft';

/** Every validation problem, live, with its path; clicking one selects the state it is in. */
export function Problems(props: {
	issues: readonly ScenarioIssue[];
	onSelect(state: string | undefined): void;
}) {
	if (props.issues.length === 0)
		return (
			<div className="problems ok" data-testid="problems">
				No problems: the scenario is valid.
			</div>
		);
	return (
		<div className="problems" data-testid="problems">
			<div className="problems-title">
				{props.issues.length} {props.issues.length === 1 ? 'problem' : 'problems'}
			</div>
			<ul>
				{props.issues.map((issue, i) => (
					<li key={i}>
						<button
							className="problem"
							data-testid="problem"
							onClick={() => props.onSelect(stateOfPath(issue.path))}
						>
							<code>{issue.path || '(document)'}</code> {issue.message}
						</button>
					</li>
				))}
			</ul>
		</div>
	);
}
