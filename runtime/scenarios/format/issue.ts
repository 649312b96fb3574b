/** A problem found in a scenario, with the JSON path of the field it is about. */
export interface ScenarioIssue {
	/** The scenario's id, when several are checked together. */
	scenario?: string;
	path: string;
	message: string;
}

export class ScenarioValidationError extends Error {
	constructor(readonly issues: ScenarioIssue[]) {
		super(
			`The scenario is invalid (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}):\n${issues.map(formatIssue).join('\n')}`,
		);
		this.name = 'ScenarioValidationError';
	}
}

export function formatIssue(issue: ScenarioIssue): string {
	return `${issue.scenario ? `${issue.scenario}: ` : ''}${issue.path || '(document)'}: ${issue.message}`;
}
