import { asObject, stateNames, states, type Draft } from './draft';
import { deleteState, renameState, setState } from './edits';
import { JsonView } from './JsonView';
import { Preview } from './Preview';
import { scenarioJsonSchema } from './runtime-bridge';
import { StateForm } from './StateForm';
import { TopForm } from './TopForm';

/** The side panel: the selected state's forms (or the top level's), the JSON, the preview chat. */

const SCHEMA = scenarioJsonSchema();

export type Tab = 'form' | 'json' | 'chat';

export interface SidePanelProps {
	draft: Draft;
	selected?: string;
	tab: Tab;
	valid: boolean;
	onTab(tab: Tab): void;
	onSelect(name: string | undefined): void;
	onChange(next: Draft, key?: string): void;
	onStates(current: string | undefined, visited: string[]): void;
}

export function SidePanel(props: SidePanelProps) {
	const { draft, tab } = props;
	const pane = (t: Tab) => (tab === t ? 'pane' : 'pane hidden');
	return (
		<aside className="panel">
			<Tabs tab={tab} selected={props.selected} onTab={props.onTab} />
			<div className={pane('form')}>
				<FormPane {...props} />
			</div>
			<div className={pane('json')}>
				<JsonView draft={draft} schema={SCHEMA} onChange={(next) => props.onChange(next, 'json')} />
			</div>
			<div className={pane('chat')}>
				<Preview draft={draft} valid={props.valid} onStates={props.onStates} />
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
function FormPane(props: SidePanelProps) {
	const { draft, selected, onChange } = props;
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
				props.onSelect(to);
			}}
			onDelete={() => {
				onChange(deleteState(draft, selected));
				props.onSelect(undefined);
			}}
			onMakeStart={() => onChange({ ...draft, start: selected })}
		/>
	);
}
