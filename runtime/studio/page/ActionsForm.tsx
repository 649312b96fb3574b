import { asArray, asObject, isObject, type Json, type JsonObject } from './draft';
import { JsonInput, ListInput, Row, TargetSelect, TextInput, withField } from './fields';
import { PairRows } from './PairRows';
import { RowList, type RowKind } from './RowList';

/**
 * A list of actions as rows: reply, add or remove tags, set a variable, hand off, end, find an
 * order, go to another scenario; a row of any other shape is kept as its JSON. A value that is not
 * a list is shown as typed (validation lists it), never dropped.
 */

const KINDS = {
	reply: { label: 'reply', make: () => ({ reply: '' }) },
	addTags: { label: 'add tags', make: () => ({ addTags: [] }) },
	removeTags: { label: 'remove tags', make: () => ({ removeTags: [] }) },
	set: { label: 'set a variable', make: () => ({ set: { '': '' } }) },
	handoff: { label: 'hand off to a person', make: () => ({ handoff: true }) },
	end: { label: 'end the conversation', make: () => ({ end: true }) },
	findOrder: { label: 'find an order', make: () => ({ findOrder: 'latest' }) },
	goto: { label: 'go to another scenario', make: () => ({ goto: { scenario: '' } }) },
} satisfies Record<string, RowKind>;
type Kind = keyof typeof KINDS;

const kindOf = (action: Json): Kind | undefined =>
	isObject(action) && Object.keys(action).length === 1
		? (Object.keys(KINDS) as Kind[]).find((k) => k in action)
		: undefined;

export function ActionsForm(props: {
	value: Json | undefined;
	onChange(value: Json | undefined): void;
	testId: string;
}) {
	return (
		<RowList
			{...props}
			className="actions"
			kinds={KINDS}
			addLabel={() => '+ action…'}
			removeTitle="Remove this action"
			row={(action, change, testId) => (
				<ActionRow action={action} testId={testId} onChange={change} />
			)}
		/>
	);
}

function ActionRow(props: { action: Json; onChange(action: Json): void; testId: string }) {
	const { action, testId } = props;
	const kind = kindOf(action);
	const a = asObject(action);
	if (!kind)
		return (
			<JsonInput
				value={action}
				onChange={(v) => props.onChange(v ?? {})}
				testId={`${testId}-json`}
			/>
		);
	const label = <span className="action-kind">{KINDS[kind].label}</span>;
	switch (kind) {
		case 'reply':
		case 'findOrder':
			return (
				<>
					{label}
					<TextInput
						templated
						value={a[kind]}
						testId={`${testId}-text`}
						placeholder={
							kind === 'findOrder' ? 'latest, or {{vars.order_number}}' : 'what the bot says'
						}
						onChange={(v) => props.onChange({ [kind]: v ?? '' })}
					/>
				</>
			);
		case 'addTags':
		case 'removeTags':
			return (
				<>
					{label}
					<ListInput
						value={a[kind]}
						testId={`${testId}-tags`}
						placeholder="vip, newsletter"
						onChange={(v) =>
							props.onChange({ [kind]: v === undefined ? [] : asArray(v).length ? v : [v] })
						}
					/>
				</>
			);
		case 'set':
			return <SetRow value={a.set} testId={testId} onChange={(set) => props.onChange({ set })} />;
		case 'goto': {
			const to = asObject(a.goto);
			return (
				<>
					{label}
					<TextInput
						value={to.scenario}
						placeholder="scenario id"
						onChange={(v) => props.onChange({ goto: withField(to, 'scenario', v ?? '') })}
					/>
					<TextInput
						value={to.state}
						placeholder="state (its start if empty)"
						onChange={(v) => props.onChange({ goto: withField(to, 'state', v) })}
					/>
				</>
			);
		}
		default:
			return label;
	}
}

/** `{ "set": { "var": "value" } }`: one variable per row of the set. */
function SetRow(props: { value: Json | undefined; onChange(set: Json): void; testId: string }) {
	return (
		<span className="set-rows">
			<span className="action-kind">set</span>
			<PairRows
				value={props.value}
				testId={`${props.testId}-set`}
				namePlaceholder="variable"
				atLeastOne
				emptyValue={{}}
				addLabel="+ variable"
				newRow={() => ['', '']}
				onChange={(set) => props.onChange(set ?? {})}
				renderValue={(value, change, testId) => (
					<TextInput templated value={value} testId={testId} onChange={(v) => change(v ?? '')} />
				)}
			/>
		</span>
	);
}

/** The `actions` and `target` that end a transition, a capture, a timer, a branch or an option. */
export function ActionsAndTarget(props: {
	part: JsonObject;
	states: string[];
	change(key: 'actions' | 'target', value: Json | undefined): void;
	testId?: string;
	none?: string;
	/** Whose actions and target, where a form shows more than one pair ("giveUp", "valid answer"). */
	of?: string;
}) {
	const base = props.testId ?? 'part';
	const label = (what: string) => (props.of ? `${props.of}: ${what}` : what);
	return (
		<>
			<Row label={label('actions')}>
				<ActionsForm
					value={props.part.actions}
					onChange={(v) => props.change('actions', v)}
					testId={`${base}-actions`}
				/>
			</Row>
			<Row label={label('target')}>
				<TargetSelect
					value={props.part.target}
					states={props.states}
					none={props.none}
					onChange={(v) => props.change('target', v)}
					testId={props.testId}
				/>
			</Row>
		</>
	);
}
