import { ActionsAndTarget, RetryAndGiveUp } from './ActionsForm';
import { asObject, isObject, type Json, type JsonObject } from './draft';
import {
	ListInput,
	NumberInput,
	OptionalPart,
	RangeInput,
	Row,
	TextInput,
	withField,
} from './fields';

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
	const capture = asObject(props.value);
	const change = (key: string, value: Json | undefined) =>
		props.onChange(withField(capture, key, value), `capture.${key}`);
	return (
		<OptionalPart
			label="capture (ask, check and keep an answer: into, check, retry, retries, giveUp, target)"
			on={isObject(props.value)}
			testId="capture-on"
			onToggle={(on) => props.onChange(on ? NEW_CAPTURE : undefined, 'capture')}
		>
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
				testId="capture-target"
			/>
		</OptionalPart>
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
	const after = asObject(props.value);
	const change = (key: string, value: Json | undefined) =>
		props.onChange(withField(after, key, value), `after.${key}`);
	return (
		<OptionalPart
			label="after (minutes of silence, then send, actions, target)"
			on={isObject(props.value)}
			testId="after-on"
			onToggle={(on) =>
				props.onChange(on ? { minutes: 30, send: 'Still there?' } : undefined, 'after')
			}
		>
			<Row label="minutes">
				<NumberInput value={after.minutes} onChange={(v) => change('minutes', v)} />
			</Row>
			<Row label="send">
				<TextInput templated value={after.send} onChange={(v) => change('send', v)} />
			</Row>
			<ActionsAndTarget part={after} states={props.states} change={change} testId="after" />
		</OptionalPart>
	);
}
