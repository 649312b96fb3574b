import { useEffect, useState } from 'react';

import * as api from './api';
import { FunnelPanel } from './Funnel';
import { MoveDialog } from './MoveDialog';
import type { VersionWithStates } from './runtime-bridge';
import { draftOf, useStudio } from './store';
import { seenAt } from './versions-view';

/**
 * Beside the graph: every version of the opened scenario the state store has seen, with when it
 * was first and last seen, the conversations live on it and its funnel; Roll Back to one, and
 * Move its conversations to another.
 */

/** The store's versions of the draft, asked again when its id or version change or after a Move. */
function useVersionList(round: number): { versions?: VersionWithStates[]; error?: string } {
	const draft = useStudio(draftOf);
	const key = `${String(draft.id)}|${String(draft.version)}|${round}`;
	const [found, setFound] = useState<{
		key: string;
		versions?: VersionWithStates[];
		error?: string;
	}>({ key: '' });
	useEffect(() => {
		let current = true;
		api.versions(JSON.stringify(useStudio.getState().history.present)).then(
			(versions) => current && setFound({ key, versions }),
			(e: Error) => current && setFound({ key, error: e.message }),
		);
		return () => {
			current = false;
		};
	}, [key]);
	return found.key === key ? found : {};
}

export function VersionsPanel() {
	const [round, setRound] = useState(0);
	const { versions, error } = useVersionList(round);
	const [funnelOf, setFunnelOf] = useState<number>();
	// The list as it was when Move was opened: it is read again after the Move, under the dialog.
	const [moving, setMoving] = useState<{ from: VersionWithStates; list: VersionWithStates[] }>();
	const edited = useStudio((s) => draftOf(s).version);
	return (
		<aside className="funnel versions" data-testid="versions">
			<div className="funnel-head">
				<strong>Versions in the store</strong>
				<button onClick={() => setRound(round + 1)}>Refresh</button>
			</div>
			{error && <div className="traffic-error">{error}</div>}
			{!versions && !error && <div className="hint">Reading…</div>}
			{versions?.length === 0 && <div className="hint">The store has seen no version of it.</div>}
			<ol className="version-list">
				{versions?.map((v) => (
					<VersionRow
						key={v.version}
						version={v}
						edited={v.version === edited}
						funnel={funnelOf === v.version}
						onFunnel={() => setFunnelOf(funnelOf === v.version ? undefined : v.version)}
						onMove={() => setMoving({ from: v, list: versions })}
					/>
				))}
			</ol>
			{moving && (
				<MoveDialog
					from={moving.from}
					versions={moving.list}
					onClose={() => setMoving(undefined)}
					onMoved={() => setRound((n) => n + 1)}
				/>
			)}
		</aside>
	);
}

/** One version: when seen, its live conversations, its funnel, Roll Back and Move (not the one edited). */
function VersionRow(props: {
	version: VersionWithStates;
	edited: boolean;
	funnel: boolean;
	onFunnel(): void;
	onMove(): void;
}) {
	const v = props.version;
	const rollBack = () =>
		void useStudio
			.getState()
			.rollBack(v.version)
			.catch((e: Error) => useStudio.getState().say(`Not rolled back: ${e.message}`));
	return (
		<li data-testid={`version-${v.version}`}>
			<div className="funnel-state">
				v{v.version}
				{props.edited && <span className="badge start">edited here</span>}
			</div>
			<div className="funnel-stops" data-testid={`version-${v.version}-seen`}>
				first seen {seenAt(v.firstSeen)}, last seen {seenAt(v.lastSeen)}
			</div>
			<div data-testid={`version-${v.version}-live`}>
				{v.conversations} live conversation{v.conversations === 1 ? '' : 's'}
			</div>
			<div className="inline">
				<button data-testid={`version-${v.version}-funnel`} onClick={props.onFunnel}>
					Funnel
				</button>
				{!props.edited && (
					<button data-testid={`rollback-${v.version}`} onClick={rollBack}>
						Roll Back to v{v.version}
					</button>
				)}
				{!props.edited && (
					<button data-testid={`move-${v.version}`} onClick={props.onMove}>
						Move…
					</button>
				)}
			</div>
			{props.funnel && <FunnelPanel version={v.version} mainPath={v.mainPath} />}
		</li>
	);
}
