import { asObject, isObject, type Json, type JsonObject } from './draft';
import { JsonInput, ListInput, NumberInput, TextInput } from './fields';
import { variablesOf } from './Placeholders';
import { RowList, type RowKind } from './RowList';
import { draftOf, useStudio } from './store';

/**
 * `when` as rows, all of which must hold (the format's "and"; an "or" is a second transition):
 * the client has or has not a tag, a variable is set, equals, differs, is at least or at most, an
 * order was found or not, its status is one of. A row of another shape is kept as its JSON.
 */

const KINDS = {
	tag: { label: 'has tag', make: () => ({ tag: '' }) },
	notTag: { label: 'has not tag', make: () => ({ notTag: '' }) },
	var: { label: 'variable', make: () => ({ var: '', set: true }) },
	order: { label: 'order', make: () => ({ order: 'found' }) },
	orderStatus: { label: 'order status is', make: () => ({ orderStatus: '' }) },
} satisfies Record<string, RowKind>;
type Kind = keyof typeof KINDS;

const TESTS = ['set', 'notSet', 'equals', 'notEquals', 'min', 'max'] as const;
type Test = (typeof TESTS)[number];
const TEST_LABEL: Record<Test, string> = {
	set: 'is set',
	notSet: 'is not set',
	equals: 'equals',
	notEquals: 'does not equal',
	min: 'is at least',
	max: 'is at most',
};

const kindOf = (guard: Json): Kind | undefined =>
	isObject(guard) ? (Object.keys(KINDS) as Kind[]).find((k) => k in guard) : undefined;

export function GuardsForm(props: {
	value: Json | undefined;
	onChange(value: Json | undefined): void;
	testId: string;
}) {
	const variables = variablesOf(useStudio(draftOf));
	return (
		<RowList
			{...props}
			className="guards"
			kinds={KINDS}
			addLabel={(count) => (count ? '+ and…' : '+ condition…')}
			removeTitle="Remove this condition"
			between="and"
			row={(guard, change, testId) => (
				<GuardRow guard={guard} variables={variables} testId={testId} onChange={change} />
			)}
		/>
	);
}

function GuardRow(props: {
	guard: Json;
	variables: string[];
	onChange(g: Json): void;
	testId: string;
}) {
	const kind = kindOf(props.guard);
	const g = asObject(props.guard);
	if (!kind)
		return (
			<JsonInput
				value={props.guard}
				onChange={(v) => props.onChange(v ?? {})}
				testId={`${props.testId}-json`}
			/>
		);
	const label = <span className="action-kind">{KINDS[kind].label}</span>;
	if (kind === 'tag' || kind === 'notTag')
		return (
			<>
				{label}
				<TextInput
					value={g[kind]}
					testId={`${props.testId}-tag`}
					placeholder="vip"
					onChange={(v) => props.onChange({ [kind]: v ?? '' })}
				/>
			</>
		);
	if (kind === 'order')
		return (
			<>
				{label}
				<select value={String(g.order)} onChange={(e) => props.onChange({ order: e.target.value })}>
					<option value="found">was found</option>
					<option value="missing">was not found</option>
				</select>
			</>
		);
	if (kind === 'orderStatus')
		return (
			<>
				{label}
				<ListInput
					value={g.orderStatus}
					placeholder="shipped, delivered"
					onChange={(v) => props.onChange({ orderStatus: v ?? '' })}
				/>
			</>
		);
	return (
		<VariableGuard
			guard={g}
			variables={props.variables}
			testId={props.testId}
			onChange={props.onChange}
		/>
	);
}

function VariableGuard(props: {
	guard: JsonObject;
	variables: string[];
	onChange(g: Json): void;
	testId: string;
}) {
	const g = props.guard;
	const test: Test =
		g.set === false
			? 'notSet'
			: (TESTS.find((t) => t !== 'set' && t !== 'notSet' && t in g) ?? 'set');
	const name = typeof g.var === 'string' ? g.var : '';
	const names =
		name && !props.variables.includes(name) ? [...props.variables, name] : props.variables;
	const write = (next: Test, value?: Json) => {
		const base: JsonObject = { var: name };
		if (next === 'set') base.set = true;
		else if (next === 'notSet') base.set = false;
		else base[next] = value ?? (next === 'min' || next === 'max' ? 0 : '');
		props.onChange(base);
	};
	return (
		<>
			<span className="action-kind">variable</span>
			<select
				value={name}
				data-testid={`${props.testId}-var`}
				onChange={(e) => props.onChange({ ...g, var: e.target.value })}
			>
				<option value="">(pick)</option>
				{names.map((n) => (
					<option key={n}>{n}</option>
				))}
			</select>
			<select
				value={test}
				data-testid={`${props.testId}-test`}
				onChange={(e) => write(e.target.value as Test)}
			>
				{TESTS.map((t) => (
					<option key={t} value={t}>
						{TEST_LABEL[t]}
					</option>
				))}
			</select>
			{(test === 'equals' || test === 'notEquals') && (
				<ListInput
					value={g[test]}
					onChange={(v) => write(test, v ?? '')}
					testId={`${props.testId}-value`}
				/>
			)}
			{(test === 'min' || test === 'max') && (
				<NumberInput
					value={g[test]}
					onChange={(v) => write(test, v ?? 0)}
					testId={`${props.testId}-value`}
				/>
			)}
		</>
	);
}
