import { asObject, stateNames, states, type Draft } from './draft';
import { useDrawing } from './drawing';
import { deleteState, renameState, setState } from './edits';
import { JsonView } from './JsonView';
import { Preview } from './Preview';
import { scenarioJsonSchema } from './runtime-bridge';
import { StateForm } from './StateForm';
import { draftOf, useStudio, type Tab } from './store';
import { TopForm } from './TopForm';

/** The side panel: the selected state's forms (or the top level's), the JSON, the preview chat. */

const SCHEMA = scenarioJsonSchema();

export function SidePanel() {
	const draft = useStudio(draftOf);
	const tab = useStudio((s) => s.tab);
	const selected = useStudio((s) => s.selected);
	const valid = useDrawing().issues.length === 0;
	const { change, setTab, light } = useStudio.getState();
	const pane = (t: Tab) => (tab === t ? 'pane' : 'pane hidden');
	return (
		<aside className="panel">
			<Tabs tab={tab} selected={selected} onTab={setTab} />
			<div className={pane('form')}>
				<FormPane draft={draft} selected={selected} />
			</div>
			<div className={pane('json')}>
				<JsonView draft={draft} schema={SCHEMA} onChange={(next) => change(next, 'json')} />
			</div>
			<div className={pane('chat')}>
				<Preview draft={draft} valid={valid} onStates={light} />
			</div>
		</aside>
	);
}

function Tabs(props: { tab: Tab; selected?: string; onTab(tab: Tab): void }) {
	const label = (t: Tab) =>
		t === 'json'
			? 'JSON'
			: t === 'chat'
				? 'Preview chat'
				: props.selected
					? `State: ${props.selected}`
					: 'Scenario';
	return (
		<nav className="tabs">
			{(['form', 'json', 'chat'] as const).map((t) => (
				<button
					key={t}
					className={props.tab === t ? 'active' : ''}
					data-testid={`tab-${t}`}
					onClick={() => props.onTab(t)}
				>
					{label(t)}
				</button>
			))}
		</nav>
	);
}

/** The selected state's forms; the scenario's top level when no state is selected. */
function FormPane({ draft, selected }: { draft: Draft; selected?: string }) {
	const { change: onChange, select } = useStudio.getState();
	const state = selected ? asObject(states(draft)[selected]) : undefined;
	if (!selected || !state)
		return <TopForm draft={draft} onChange={(next, field) => onChange(next, `top.${field}`)} />;
	return (
		<StateForm
			name={selected}
			state={state}
			states={stateNames(draft)}
			isStart={draft.start === selected}
			onChange={(next, field) => onChange(setState(draft, selected, next), `${selected}.${field}`)}
			onRename={(to) => {
				onChange(renameState(draft, selected, to));
				select(to);
			}}
			onDelete={() => {
				onChange(deleteState(draft, selected));
				select(undefined);
			}}
			onMakeStart={() => onChange({ ...draft, start: selected })}
		/>
	);
}
