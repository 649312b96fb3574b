import { useState } from 'react';

import * as api from './api';
import { Dialog } from './Dialogs';
import type { MovePlan, MovePreview, MoveReport, VersionWithStates } from './runtime-bridge';
import { draftOf, useStudio } from './store';
import { MovePlanForm, useTargets } from './MovePlanForm';
import { lands, sameNames } from './versions-view';

/**
 * Move: the live conversations of one version to another by a state map. The preview and the
 * Move are the runtime's (the server's ConversationMover): what the page holds is the map only.
 */
export function MoveDialog(props: {
	from: VersionWithStates;
	versions: VersionWithStates[];
	onClose(): void;
	onMoved(): void;
}) {
	const { from, versions } = props;
	const draft = useStudio(draftOf);
	const targets = useTargets(from, versions);
	const [plan, setPlan] = useState<MovePlan>(() => ({
		from: from.version,
		to: targets.versions[0],
		states: sameNames(from.states, targets.statesOf(targets.versions[0])),
		unmapped: 'finish',
	}));
	const [preview, setPreview] = useState<MovePreview>();
	const [report, setReport] = useState<MoveReport>();
	const [error, setError] = useState<string>();
	const ask = <T,>(call: () => Promise<T | undefined>, then: (answer: T) => void) => {
		setError(undefined);
		call().then(
			(answer) => answer && then(answer),
			(e: Error) => setError(e.message),
		);
	};
	const scenario = JSON.stringify(draft);
	const apply = () =>
		ask(
			() => api.applyMove(scenario, plan),
			(done) => {
				setReport(done);
				setPreview(undefined);
				props.onMoved();
			},
		);
	return (
		<Dialog
			title={`Move conversations of v${from.version}`}
			onClose={props.onClose}
			testId="move-dialog"
		>
			<MovePlanForm
				plan={plan}
				fromStates={from.states}
				targets={targets}
				onChange={(next) => {
					setPlan(next);
					setPreview(undefined);
				}}
			/>
			{error && (
				<p className="hint bad" data-testid="move-error">
					{error}
				</p>
			)}
			{preview && <PreviewTable preview={preview} />}
			{report && <ReportLine report={report} />}
			<MoveButtons
				preview={preview}
				onPreview={() => ask(() => api.previewMove(scenario, plan), setPreview)}
				onApply={apply}
				onClose={props.onClose}
			/>
		</Dialog>
	);
}

/** Preview, then Move (open once a preview shows conversations to write), Close. */
function MoveButtons(props: {
	preview?: MovePreview;
	onPreview(): void;
	onApply(): void;
	onClose(): void;
}) {
	const { preview } = props;
	return (
		<div className="inline">
			<button data-testid="move-preview" onClick={props.onPreview}>
				Preview
			</button>
			<button
				className="primary"
				data-testid="move-apply"
				disabled={!preview || moving(preview) === 0}
				onClick={props.onApply}
			>
				{preview ? `Move ${moving(preview)} of ${preview.conversations}` : 'Move'}
			</button>
			<button onClick={props.onClose}>Close</button>
		</div>
	);
}

/** The conversations the Move writes: those moved and those started over. */
const moving = (preview: MovePreview) =>
	preview.states
		.filter((row) => row.outcome === 'moves' || row.outcome === 'restarts')
		.reduce((n, row) => n + row.conversations, 0);

function PreviewTable({ preview }: { preview: MovePreview }) {
	return (
		<div data-testid="move-preview-table">
			<p className="hint">
				{preview.conversations} live conversations of v{preview.from.version} → v
				{preview.to.version} (nothing moved yet)
			</p>
			<table className="move-map">
				<tbody>
					{preview.states.map((row) => (
						<tr key={row.state} data-testid={`move-row-${row.state}`}>
							<td>{row.state}</td>
							<td>{row.conversations}</td>
							<td>{lands(row, preview.from.version)}</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

function ReportLine({ report }: { report: MoveReport }) {
	return (
		<div data-testid="move-report">
			<p>
				Moved {report.moved}, left on v{report.from.version} {report.stayed}, started over{' '}
				{report.restarted}, not moved {report.notMoved.length} (v{report.from.version} → v
				{report.to.version})
			</p>
			{report.notMoved.map((n) => (
				<p key={n.conversation} className="hint bad">
					{n.conversation} in {n.state}: {n.reason}
				</p>
			))}
		</div>
	);
}
