import type { ScenarioIssue } from './runtime-bridge';
import { stateOfPath } from './draft';

/** Every validation problem, live, with its path; clicking one selects the state it is in. */
export function Problems(props: {
	issues: readonly ScenarioIssue[];
	warnings: readonly ScenarioIssue[];
	onSelect(state: string | undefined): void;
}) {
	if (props.issues.length === 0)
		return (
			<div className="problems ok" data-testid="problems">
				No problems: the scenario is valid.
				<Warnings warnings={props.warnings} onSelect={props.onSelect} />
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
			<Warnings warnings={props.warnings} onSelect={props.onSelect} />
		</div>
	);
}

/** Allowed but probably not meant: the scenario runs with them. */
function Warnings(props: {
	warnings: readonly ScenarioIssue[];
	onSelect(state: string | undefined): void;
}) {
	if (props.warnings.length === 0) return null;
	return (
		<ul className="warnings" data-testid="warnings">
			{props.warnings.map((w, i) => (
				<li key={i}>
					<button
						className="warning"
						data-testid="warning"
						onClick={() => props.onSelect(stateOfPath(w.path))}
					>
						⚠ <code>{w.path}</code> {w.message}
					</button>
				</li>
			))}
		</ul>
	);
}
