import { asArray, asObject, isObject, type Json, type JsonObject } from './draft';
import {
	JsonInput,
	ListInput,
	NumberInput,
	Row,
	TargetSelect,
	TextInput,
	withField,
} from './fields';

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
} satisfies Record<string, { label: string; make(): JsonObject }>;
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
	if (props.value !== undefined && !Array.isArray(props.value))
		return <JsonInput value={props.value} onChange={props.onChange} testId={props.testId} />;
	const list = asArray(props.value);
	const update = (next: Json[]) => props.onChange(next.length ? next : undefined);
	return (
		<div className="actions" data-testid={props.testId}>
			{list.map((action, i) => (
				<div className="inline action-row" key={i} data-testid={`${props.testId}-${i}`}>
					<ActionRow
						action={action}
						testId={`${props.testId}-${i}`}
						onChange={(a) => update(list.map((x, j) => (j === i ? a : x)))}
					/>
					<button title="Remove this action" onClick={() => update(list.filter((_, j) => j !== i))}>
						✕
					</button>
				</div>
			))}
			<select
				value=""
				data-testid={`${props.testId}-add`}
				onChange={(e) => e.target.value && update([...list, KINDS[e.target.value as Kind].make()])}
			>
				<option value="">+ action…</option>
				{(Object.keys(KINDS) as Kind[]).map((k) => (
					<option key={k} value={k}>
						{KINDS[k].label}
					</option>
				))}
			</select>
		</div>
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
function SetRow(props: {
	value: Json | undefined;
	onChange(set: JsonObject): void;
	testId: string;
}) {
	const entries = Object.entries(asObject(props.value));
	const rows = entries.length ? entries : [['', ''] as [string, Json]];
	const write = (next: Array<[string, Json]>) => props.onChange(Object.fromEntries(next));
	return (
		<span className="set-rows">
			<span className="action-kind">set</span>
			{rows.map(([name, value], i) => (
				<span className="inline" key={i}>
					<input
						value={name}
						placeholder="variable"
						data-testid={`${props.testId}-var`}
						onChange={(e) => write(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
					/>
					=
					<TextInput
						templated
						value={value}
						testId={`${props.testId}-value`}
						onChange={(v) => write(rows.map((r, j) => (j === i ? [r[0], v ?? ''] : r)))}
					/>
				</span>
			))}
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
}) {
	const base = props.testId ?? 'part';
	return (
		<>
			<Row label="actions">
				<ActionsForm
					value={props.part.actions}
					onChange={(v) => props.change('actions', v)}
					testId={`${base}-actions`}
				/>
			</Row>
			<Row label="target">
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

/**
 * A give-up's field set: picking a target takes out the `end` or `goto` among its actions (a list
 * with one of them has no target), so the default give-up (hand off, end) becomes "go there".
 */
function giveUpWith(giveUp: JsonObject, key: string, value: Json | undefined): JsonObject {
	const next = withField(giveUp, key, value);
	if (key !== 'target' || !value) return next;
	const kept = asArray(next.actions).filter((a) => !isObject(a) || !('end' in a || 'goto' in a));
	return withField(next, 'actions', kept.length ? kept : undefined);
}

/** A capture's or a menu's retry, retries and give-up (say, actions, target). */
export function RetryAndGiveUp(props: {
	part: JsonObject;
	states: string[];
	change(key: string, value: Json | undefined): void;
	testId: string;
}) {
	const { part, change } = props;
	const giveUp = asObject(part.giveUp);
	return (
		<>
			<Row label="retry">
				<TextInput templated value={part.retry} onChange={(v) => change('retry', v)} />
			</Row>
			<Row label="retries">
				<NumberInput value={part.retries} onChange={(v) => change('retries', v)} />
			</Row>
			<Row label="giveUp: say">
				<TextInput
					templated
					value={giveUp.say}
					onChange={(v) => change('giveUp', withField(giveUp, 'say', v))}
				/>
			</Row>
			<ActionsAndTarget
				part={giveUp}
				states={props.states}
				none="(none: the actions end or go on)"
				change={(key, v) => change('giveUp', giveUpWith(giveUp, key, v))}
				testId={props.testId}
			/>
		</>
	);
}
