import { ActionsAndTarget } from './ActionsForm';
import { CallWorkflow } from './CallWorkflow';
import { asArray, asObject, isObject, type Json, type JsonObject } from './draft';
import { GuardsForm } from './GuardsForm';
import { JsonInput, NumberInput, OptionalPart, Row, TextInput, withField } from './fields';
import { PairRows } from './PairRows';
import { draftOf, useStudio } from './store';

/** A state's steps decided on entry: `choose` (branches by condition) and `call` (an n8n workflow). */

type PartProps = {
	value: Json | undefined;
	states: string[];
	onChange(value: Json | undefined, field: string): void;
};

/** A branch's `say`, actions and target (choose's branches, a call's outcomes). */
function Branch(props: {
	branch: JsonObject;
	states: string[];
	onChange(branch: JsonObject): void;
	testId: string;
}) {
	const { branch } = props;
	return (
		<>
			<Row label="say">
				<TextInput
					templated
					value={branch.say}
					testId={`${props.testId}-say`}
					onChange={(v) => props.onChange(withField(branch, 'say', v))}
				/>
			</Row>
			<ActionsAndTarget
				part={branch}
				states={props.states}
				none="(choose)"
				testId={`${props.testId}-target`}
				change={(key, v) => props.onChange(withField(branch, key, v))}
			/>
		</>
	);
}

export function Choose(props: PartProps) {
	if (props.value !== undefined && !Array.isArray(props.value))
		return <JsonInput value={props.value} onChange={(v) => props.onChange(v, 'choose')} />;
	const list = asArray(props.value);
	const update = (next: Json[], field: string) =>
		props.onChange(next.length ? next : undefined, field);
	return (
		<OptionalPart
			label="choose (branches decided on entry; the first whose conditions hold is taken; the last has none)"
			on={list.length > 0}
			testId="choose-on"
			onToggle={(on) => update(on ? [{ when: [], target: '' }, { target: '' }] : [], 'choose')}
		>
			{list.map((item, i) => {
				const branch = asObject(item);
				const set = (next: JsonObject) =>
					update(
						list.map((x, j) => (j === i ? next : x)),
						`choose${i}`,
					);
				return (
					<div className="transition" key={i} data-testid={`choose-${i}`}>
						<Row label={i === list.length - 1 ? 'otherwise (no condition)' : 'when'}>
							<GuardsForm
								value={branch.when}
								testId={`choose-${i}-when`}
								onChange={(v) => set(withField(branch, 'when', v))}
							/>
						</Row>
						<Branch branch={branch} states={props.states} onChange={set} testId={`choose-${i}`} />
						<button
							className="danger small"
							onClick={() =>
								update(
									list.filter((_, j) => j !== i),
									`choose-remove${i}`,
								)
							}
						>
							Remove branch
						</button>
					</div>
				);
			})}
			<button
				onClick={() =>
					update([...list.slice(0, -1), { when: [], target: '' }, ...list.slice(-1)], 'choose-add')
				}
			>
				+ branch
			</button>
		</OptionalPart>
	);
}

const OUTCOMES = ['success', 'empty', 'failure', 'timeout'] as const;

export function Call(props: PartProps) {
	const declared = Object.keys(asObject(useStudio(draftOf).workflows));
	if (props.value !== undefined && !isObject(props.value))
		return <JsonInput value={props.value} onChange={(v) => props.onChange(v, 'call')} />;
	const call = asObject(props.value);
	const change = (key: string, v: Json | undefined) =>
		props.onChange(withField(call, key, v), `call.${key}`);
	return (
		<OptionalPart
			label="call (runs an n8n workflow on entry, then a branch by its outcome)"
			on={isObject(props.value)}
			testId="call-on"
			onToggle={(on) =>
				props.onChange(
					on
						? { workflow: declared[0] ?? '', success: { target: '' }, failure: { target: '' } }
						: undefined,
					'call',
				)
			}
		>
			<Row label="workflow (declared at the top level)">
				<CallWorkflow value={call.workflow} onChange={(v) => change('workflow', v)} />
			</Row>
			<Row label="inputs (sent to the workflow)">
				<KeyValueRows
					value={call.inputs}
					testId="call-inputs"
					templated
					onChange={(v) => change('inputs', v)}
				/>
			</Row>
			<Row label="store (variable ← field of the item returned)">
				<KeyValueRows value={call.store} testId="call-store" onChange={(v) => change('store', v)} />
			</Row>
			<Row label="timeoutSeconds">
				<NumberInput value={call.timeoutSeconds} onChange={(v) => change('timeoutSeconds', v)} />
			</Row>
			{OUTCOMES.map((outcome) => (
				<OptionalPart
					key={outcome}
					label={outcome}
					on={isObject(call[outcome])}
					testId={`call-${outcome}-on`}
					onToggle={(on) => change(outcome, on ? { target: '' } : undefined)}
				>
					<Branch
						branch={asObject(call[outcome])}
						states={props.states}
						testId={`call-${outcome}`}
						onChange={(b) => change(outcome, b)}
					/>
				</OptionalPart>
			))}
		</OptionalPart>
	);
}

/** An object of texts as name/value rows (a call's inputs and store). */
function KeyValueRows(props: {
	value: Json | undefined;
	onChange(value: Json | undefined): void;
	testId: string;
	templated?: boolean;
}) {
	return (
		<PairRows
			{...props}
			addLabel="+ row"
			newRow={(count) => [`field${count + 1}`, '']}
			renderValue={(value, change, testId) => (
				<TextInput
					templated={props.templated}
					value={value}
					testId={testId}
					onChange={(v) => change(v ?? '')}
				/>
			)}
		/>
	);
}
