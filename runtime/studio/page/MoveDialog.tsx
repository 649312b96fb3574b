import { useState } from 'react';

import * as api from './api';
import { Dialog } from './Dialogs';
import type { MovePlan, MovePreview, MoveReport, VersionWithStates } from './runtime-bridge';
import { draftOf, useStudio } from './store';
import { lands, sameNames, statesOf } from './versions-view';

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
	const edited = typeof draft.version === 'number' ? draft.version : 0;
	// The states a conversation can be moved into: an end state waits for nothing.
	const draftStates = Object.entries((draft.states ?? {}) as Record<string, { end?: unknown }>)
		.filter(([, state]) => !state?.end)
		.map(([name]) => name);
	const targets = [...new Set([edited, ...versions.map((v) => v.version)])].filter(
		(n) => n !== from.version,
	);
	const [to, setTo] = useState(targets[0] ?? edited);
	const toStates = statesOf(to, versions, draftStates, edited);
	const [map, setMap] = useState(() => sameNames(from.states, toStates));
	const [unmapped, setUnmapped] = useState<MovePlan['unmapped']>('finish');
	const [preview, setPreview] = useState<MovePreview>();
	const [report, setReport] = useState<MoveReport>();
	const [error, setError] = useState<string>();
	const plan: MovePlan = { from: from.version, to, states: map, unmapped };
	const ask = <T,>(call: () => Promise<T | undefined>, then: (answer: T) => void) => {
		setError(undefined);
		call().then(
			(answer) => answer && then(answer),
			(e: Error) => setError(e.message),
		);
	};
	const scenario = JSON.stringify(draft);
	const changed = (next: Partial<{ map: Record<string, string>; to: number }>) => {
		if (next.to !== undefined) {
			setTo(next.to);
			setMap(sameNames(from.states, statesOf(next.to, versions, draftStates, edited)));
		}
		if (next.map) setMap(next.map);
		setPreview(undefined);
	};
	return (
		<Dialog
			title={`Move conversations of v${from.version}`}
			onClose={props.onClose}
			testId="move-dialog"
		>
			<div className="inline">
				to version{' '}
				<select
					data-testid="move-to"
					value={to}
					onChange={(e) => changed({ to: Number(e.target.value) })}
				>
					{targets.map((n) => (
						<option key={n} value={n}>
							v{n}
							{n === edited ? ' (edited here)' : ''}
						</option>
					))}
				</select>
			</div>
			<table className="move-map">
				<tbody>
					{from.states.map((state) => (
						<tr key={state}>
							<td>{state}</td>
							<td>→</td>
							<td>
								<select
									data-testid={`move-map-${state}`}
									value={map[state] ?? ''}
									onChange={(e) => {
										const { [state]: _, ...rest } = map;
										changed({ map: e.target.value ? { ...rest, [state]: e.target.value } : rest });
									}}
								>
									<option value="">(not mapped)</option>
									{toStates.map((s) => (
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
			<label className="inline">
				a state not mapped:{' '}
				<select
					data-testid="move-unmapped"
					value={unmapped}
					onChange={(e) => {
						setUnmapped(e.target.value as MovePlan['unmapped']);
						setPreview(undefined);
					}}
				>
					<option value="finish">finishes on v{from.version}</option>
					<option value="restart">starts over with its next message</option>
				</select>
			</label>
			{error && (
				<p className="hint bad" data-testid="move-error">
					{error}
				</p>
			)}
			{preview && <PreviewTable preview={preview} />}
			{report && <ReportLine report={report} />}
			<div className="inline">
				<button
					data-testid="move-preview"
					onClick={() => ask(() => api.previewMove(scenario, plan), setPreview)}
				>
					Preview
				</button>
				<button
					className="primary"
					data-testid="move-apply"
					disabled={!preview || moving(preview) === 0}
					onClick={() =>
						ask(
							() => api.applyMove(scenario, plan),
							(done) => {
								setReport(done);
								setPreview(undefined);
								props.onMoved();
							},
						)
					}
				>
					{preview ? `Move ${moving(preview)} of ${preview.conversations}` : 'Move'}
				</button>
				<button onClick={props.onClose}>Close</button>
			</div>
		</Dialog>
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
