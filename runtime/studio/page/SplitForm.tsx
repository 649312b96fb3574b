import { ActionsAndTarget } from './ActionsForm';
import { asArray, asObject, isObject, type Json, type JsonObject } from './draft';
import { NumberInput, ObjectPart, Row, TargetSelect, TextInput, withField } from './fields';
import { splitRows } from './split-view';

/**
 * A state's `split`: each client goes down one variant by weight, the same one every time. Its
 * test name, the variants (name, weight with the share it gives, actions, target), the goal the
 * variants are compared by (a state reached or a tag added), and End Test (the winner every new
 * client gets).
 */

type SplitProps = {
	value: Json | undefined;
	states: string[];
	onChange(value: Json | undefined, field: string): void;
};

const NEW_SPLIT: JsonObject = {
	variants: [
		{ name: 'a', weight: 50, target: '' },
		{ name: 'b', weight: 50, target: '' },
	],
};

export function Split(props: SplitProps) {
	return (
		<ObjectPart
			{...props}
			name="split"
			label="split test (each client goes down one variant by weight, the same one every time)"
			made={NEW_SPLIT}
		>
			{(split, change) => (
				<>
					<Row label="test name">
						<TextInput
							value={split.name}
							testId="split-name"
							placeholder="default: the state's name"
							onChange={(v) => change('name', v)}
						/>
					</Row>
					<Variants
						split={split}
						value={split.variants}
						states={props.states}
						onChange={(next, field) => props.onChange(withField(split, 'variants', next), field)}
					/>
					<Goal value={split.goal} states={props.states} onChange={(v) => change('goal', v)} />
					<Row label="end test: every new client gets">
						<select
							value={typeof split.winner === 'string' ? split.winner : ''}
							data-testid="split-winner"
							onChange={(e) => change('winner', e.target.value || undefined)}
						>
							<option value="">(the test runs)</option>
							{variantNames(split.variants).map((name) => (
								<option key={name} value={name}>
									{name}
								</option>
							))}
						</select>
					</Row>
				</>
			)}
		</ObjectPart>
	);
}

function variantNames(variants: Json | undefined): string[] {
	return asArray(variants)
		.map((v) => asObject(v).name)
		.filter((name): name is string => typeof name === 'string' && name !== '');
}

/** Each variant with its share of new clients, as the canvas draws it (all to the winner, if set). */
function Variants(props: {
	split: JsonObject;
	value: Json | undefined;
	states: string[];
	onChange(variants: Json[], field: string): void;
}) {
	const variants = asArray(props.value);
	const rows = splitRows({ split: props.split }) ?? [];
	return (
		<>
			{variants.map((item, i) => {
				const variant = asObject(item);
				const set = (key: string, v: Json | undefined) =>
					props.onChange(
						variants.map((x, j) => (j === i ? withField(variant, key, v) : x)),
						`split.variants${i}.${key}`,
					);
				return (
					<div className="transition" key={i} data-testid={`split-variant-${i}`}>
						<Row label={`variant ${i + 1}`}>
							<TextInput
								value={variant.name}
								testId={`split-variant-${i}-name`}
								placeholder="a name, such as short_greeting"
								onChange={(v) => set('name', v ?? '')}
							/>
						</Row>
						<Row label={`weight (${rows[i]?.share ?? 0} % of new clients)`}>
							<NumberInput
								value={variant.weight}
								testId={`split-variant-${i}-weight`}
								onChange={(v) => set('weight', v)}
							/>
						</Row>
						<ActionsAndTarget
							part={variant}
							states={props.states}
							none="(choose)"
							testId={`split-variant-${i}-target`}
							change={set}
						/>
						<button
							className="danger small"
							onClick={() =>
								props.onChange(
									variants.filter((_, j) => j !== i),
									`split.remove${i}`,
								)
							}
						>
							Remove variant
						</button>
					</div>
				);
			})}
			<button
				data-testid="split-add-variant"
				onClick={() =>
					props.onChange(
						[...variants, { name: `v${variants.length + 1}`, weight: 50, target: '' }],
						'split.add',
					)
				}
			>
				+ variant
			</button>
		</>
	);
}

/** What counts as a success: a state reached, or a tag the scenario adds; or nothing yet. */
function Goal(props: {
	value: Json | undefined;
	states: string[];
	onChange(value: Json | undefined): void;
}) {
	const goal = isObject(props.value) ? props.value : undefined;
	const kind = goal && 'tag' in goal ? 'tag' : goal && 'state' in goal ? 'state' : '';
	return (
		<>
			<Row label="goal (what the verdict compares)">
				<select
					value={kind}
					data-testid="split-goal-kind"
					onChange={(e) =>
						props.onChange(
							e.target.value === 'state'
								? { state: '' }
								: e.target.value === 'tag'
									? { tag: '' }
									: undefined,
						)
					}
				>
					<option value="">(none)</option>
					<option value="state">a state reached</option>
					<option value="tag">a tag added</option>
				</select>
			</Row>
			{kind === 'state' && (
				<Row label="goal state">
					<TargetSelect
						value={goal?.state}
						states={props.states}
						none="(choose)"
						testId="split-goal-state"
						onChange={(v) => props.onChange({ state: v ?? '' })}
					/>
				</Row>
			)}
			{kind === 'tag' && (
				<Row label="goal tag">
					<TextInput
						value={goal?.tag}
						testId="split-goal-tag"
						placeholder="ordered"
						onChange={(v) => props.onChange({ tag: v ?? '' })}
					/>
				</Row>
			)}
		</>
	);
}
