import { ActionsAndTarget } from './ActionsForm';
import { asObject, type Json, type JsonObject } from './draft';
import { ListInput, NumberInput, ObjectPart, RangeInput, Row, TextInput } from './fields';
import { RetryAndGiveUp } from './RetryForm';

/** A state's `capture` (ask, check and keep an answer) and its `after` (a timer of silence). */

type PartProps = {
	value: Json | undefined;
	states: string[];
	onChange(value: Json | undefined, field: string): void;
};

const NEW_CAPTURE: JsonObject = {
	into: 'answer',
	check: 'text',
	retry: 'Sorry, once more?',
	retries: 2,
	// Not "(stay)": a capture that gives up must go somewhere, and validation says so at once.
	giveUp: {
		say: 'Sorry, I could not get that. A colleague will write to you.',
		actions: [{ handoff: true }, { end: true }],
	},
};

export function Capture(props: PartProps) {
	return (
		<ObjectPart
			{...props}
			name="capture"
			label="capture (ask, check and keep an answer: into, check, retry, retries, giveUp, target)"
			made={NEW_CAPTURE}
		>
			{(capture, change) => (
				<>
					<Row label="into">
						<TextInput
							value={capture.into}
							onChange={(v) => change('into', v ?? '')}
							testId="capture-into"
						/>
					</Row>
					<CheckInput value={capture.check} onChange={(v) => change('check', v)} />
					<RetryAndGiveUp
						part={capture}
						states={props.states}
						change={change}
						testId="capture-giveup"
					/>
					<ActionsAndTarget
						part={capture}
						states={props.states}
						change={change}
						of="valid answer"
						testId="capture-target"
					/>
				</>
			)}
		</ObjectPart>
	);
}

const CHECKS = ['email', 'phone', 'number', 'text', 'regex', 'oneOf', 'number range'] as const;

function checkKind(value: Json | undefined): string {
	if (typeof value === 'string') return value;
	const check = asObject(value);
	if ('regex' in check) return 'regex';
	if ('oneOf' in check) return 'oneOf';
	return 'number' in check ? 'number range' : 'text';
}

function CheckInput(props: { value: Json | undefined; onChange(value: Json): void }) {
	const check = asObject(props.value);
	const kind = checkKind(props.value);
	const switchTo = (next: string) =>
		props.onChange(
			next === 'regex'
				? { regex: '^.+$' }
				: next === 'oneOf'
					? { oneOf: ['yes', 'no'] }
					: next === 'number range'
						? { number: {} }
						: next,
		);
	return (
		<Row label="check">
			<div className="inline">
				<select value={kind} data-testid="capture-check" onChange={(e) => switchTo(e.target.value)}>
					{CHECKS.map((c) => (
						<option key={c}>{c}</option>
					))}
				</select>
				{kind === 'regex' && (
					<TextInput value={check.regex} onChange={(r) => props.onChange({ regex: r ?? '' })} />
				)}
				{kind === 'oneOf' && (
					<ListInput
						testId="capture-oneof"
						value={check.oneOf}
						onChange={(o) => props.onChange({ oneOf: Array.isArray(o) ? o : o ? [o] : [] })}
					/>
				)}
				{kind === 'number range' && (
					<RangeInput value={check.number} onChange={(number) => props.onChange({ number })} />
				)}
			</div>
		</Row>
	);
}

export function Timer(props: PartProps) {
	return (
		<ObjectPart
			{...props}
			name="after"
			label="after (minutes of silence, then send, actions, target)"
			made={{ minutes: 30, send: 'Still there?' }}
		>
			{(after, change) => (
				<>
					<Row label="minutes">
						<NumberInput value={after.minutes} onChange={(v) => change('minutes', v)} />
					</Row>
					<Row label="send">
						<TextInput templated value={after.send} onChange={(v) => change('send', v)} />
					</Row>
					<ActionsAndTarget part={after} states={props.states} change={change} testId="after" />
				</>
			)}
		</ObjectPart>
	);
}
