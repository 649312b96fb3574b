import { ActionsAndTarget } from './ActionsForm';
import { GuardsForm } from './GuardsForm';
import { asArray, asObject, type Json } from './draft';
import { ListInput, RangeInput, Row, TextInput, withField } from './fields';

/** A state's `on`: its transitions in order, each a match, optional guards and actions, a target. */

const MATCH_KINDS = ['equals', 'contains', 'startsWith', 'regex', 'number', 'any'] as const;

export function Transitions(props: {
	value: Json | undefined;
	states: string[];
	onChange(value: Json | undefined, field: string): void;
	/** Keywords (the top level's) or a state's `on`. */
	legend?: string;
	testId?: string;
}) {
	const base = props.testId ?? 'transition';
	const list = asArray(props.value);
	const update = (next: Json[], field: string) =>
		props.onChange(next.length ? next : undefined, field);
	return (
		<fieldset>
			<legend>
				{props.legend ?? 'on (transitions tried in order: match, optional when, actions, target)'}
			</legend>
			{list.map((item, i) => {
				const t = asObject(item);
				const change = (key: string, value: Json | undefined) =>
					update(
						list.map((x, j) => (j === i ? withField(t, key, value) : x)),
						`on${i}.${key}`,
					);
				return (
					<div className="transition" key={i} data-testid={`${base}-${i}`}>
						<MatchInput
							value={t.match}
							onChange={(m) => change('match', m)}
							testId={`${base}-${i}`}
						/>
						<Row label="when (all must hold)">
							<GuardsForm
								value={t.when}
								onChange={(v) => change('when', v)}
								testId={`${base}-${i}-when`}
							/>
						</Row>
						<ActionsAndTarget
							part={t}
							states={props.states}
							change={change}
							testId={`${base}-${i}-target`}
						/>
						<button
							className="danger small"
							onClick={() =>
								update(
									list.filter((_, j) => j !== i),
									`on-remove${i}`,
								)
							}
						>
							Remove transition
						</button>
					</div>
				);
			})}
			<button
				data-testid={`add-${base}`}
				onClick={() => update([...list, { match: { equals: '' } }], 'on-add')}
			>
				+ transition
			</button>
		</fieldset>
	);
}

function MatchInput(props: {
	value: Json | undefined;
	onChange(value: Json): void;
	testId: string;
}) {
	const match = asObject(props.value);
	const kind = MATCH_KINDS.find((k) => k in match) ?? 'equals';
	const switchTo = (next: string) => {
		if (next === 'any') return props.onChange({ any: true });
		if (next === 'number') return props.onChange({ number: {} });
		const text = match[kind];
		props.onChange({ [next]: typeof text === 'string' || Array.isArray(text) ? text : '' });
	};
	return (
		<Row label="match">
			<div className="inline">
				<select
					value={kind}
					onChange={(e) => switchTo(e.target.value)}
					data-testid={`${props.testId}-kind`}
				>
					{MATCH_KINDS.map((k) => (
						<option key={k}>{k}</option>
					))}
				</select>
				{(kind === 'equals' || kind === 'contains' || kind === 'startsWith') && (
					<ListInput
						value={match[kind]}
						onChange={(v) => props.onChange(withField(match, kind, v ?? ''))}
						testId={`${props.testId}-text`}
						placeholder="yes, y, sure (any of them matches)"
					/>
				)}
				{kind === 'regex' && (
					<TextInput
						value={match.regex}
						onChange={(v) => props.onChange(withField(match, 'regex', v ?? ''))}
					/>
				)}
				{kind === 'number' && (
					<RangeInput
						value={match.number}
						onChange={(number) => props.onChange({ ...match, number })}
					/>
				)}
			</div>
		</Row>
	);
}
