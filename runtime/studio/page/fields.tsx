import { useEffect, useState, type ReactNode } from 'react';

import { asObject, isObject, type Json, type JsonObject } from './draft';
import { PlaceholderPicker } from './Placeholders';

/** Form inputs bound to one field of the draft; an empty input removes its optional field. */

export function withField(object: JsonObject, key: string, value: Json | undefined): JsonObject {
	const next = { ...object };
	if (value === undefined) delete next[key];
	else next[key] = value;
	return next;
}

/**
 * An input's props bound to one field of an object: its value, a change that sets (or, emptied,
 * removes) the field, and the test id `field-<key>`.
 */
export function binder(object: JsonObject, onChange: (next: JsonObject, key: string) => void) {
	return (key: string) => ({
		value: object[key],
		onChange: (value: Json | undefined) => onChange(withField(object, key, value), key),
		testId: `field-${key}`,
	});
}

export function Row(props: { label: string; hint?: string; children: ReactNode }) {
	return (
		<label className="row">
			<span className="row-label" title={props.hint}>
				{props.label}
			</span>
			{props.children}
		</label>
	);
}

/** A text; a text the bot sends (`templated`, or any multi-line one) has the `{{…}}` picker beside it. */
export function TextInput(props: {
	value: Json | undefined;
	onChange(value: string | undefined): void;
	multiline?: boolean;
	templated?: boolean;
	testId?: string;
	placeholder?: string;
}) {
	const value = typeof props.value === 'string' ? props.value : '';
	const change = (text: string) => props.onChange(text === '' ? undefined : text);
	const input = <PlainText {...props} value={value} change={change} />;
	if (!props.multiline && !props.templated) return input;
	return (
		<span className="with-picker">
			{input}
			<PlaceholderPicker
				onPick={(p) => change(value + p)}
				testId={props.testId && `${props.testId}-placeholder`}
			/>
		</span>
	);
}

function PlainText(props: {
	value: string;
	change(text: string): void;
	multiline?: boolean;
	testId?: string;
	placeholder?: string;
}) {
	const { value, change } = props;
	return props.multiline ? (
		<textarea
			value={value}
			rows={2}
			data-testid={props.testId}
			placeholder={props.placeholder}
			onChange={(e) => change(e.target.value)}
		/>
	) : (
		<input
			value={value}
			data-testid={props.testId}
			placeholder={props.placeholder}
			onChange={(e) => change(e.target.value)}
		/>
	);
}

export function NumberInput(props: {
	value: Json | undefined;
	onChange(value: number | undefined): void;
	testId?: string;
}) {
	const [text, setText] = useState(typeof props.value === 'number' ? String(props.value) : '');
	useEffect(
		() => setText(typeof props.value === 'number' ? String(props.value) : ''),
		[props.value],
	);
	return (
		<input
			type="number"
			value={text}
			data-testid={props.testId}
			onChange={(e) => {
				setText(e.target.value);
				const n = Number(e.target.value);
				props.onChange(e.target.value === '' || Number.isNaN(n) ? undefined : n);
			}}
		/>
	);
}

/** A list of texts typed as "a, b": one text stays a text, several a list. */
export function ListInput(props: {
	value: Json | undefined;
	onChange(value: string | string[] | undefined): void;
	testId?: string;
	placeholder?: string;
}) {
	const shown = Array.isArray(props.value)
		? props.value.join(', ')
		: typeof props.value === 'string'
			? props.value
			: '';
	const [text, setText] = useState(shown);
	useEffect(() => {
		if (parseList(text) !== JSON.stringify(props.value ?? null)) setText(shown);
		// Only a change from elsewhere replaces what is being typed.
	}, [props.value]);
	return (
		<input
			value={text}
			data-testid={props.testId}
			placeholder={props.placeholder}
			onChange={(e) => {
				setText(e.target.value);
				const items = e.target.value
					.split(',')
					.map((s) => s.trim())
					.filter(Boolean);
				props.onChange(items.length === 0 ? undefined : items.length === 1 ? items[0] : items);
			}}
		/>
	);
}

function parseList(text: string): string {
	const items = text
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	return JSON.stringify(items.length === 0 ? null : items.length === 1 ? items[0] : items);
}

export function TargetSelect(props: {
	value: Json | undefined;
	states: string[];
	onChange(value: string | undefined): void;
	none?: string;
	testId?: string;
}) {
	const value = typeof props.value === 'string' ? props.value : '';
	const names = value && !props.states.includes(value) ? [...props.states, value] : props.states;
	return (
		<select
			value={value}
			data-testid={props.testId}
			onChange={(e) => props.onChange(e.target.value || undefined)}
		>
			<option value="">{props.none ?? '(stay)'}</option>
			{names.map((name) => (
				<option key={name} value={name}>
					{props.states.includes(name) ? name : `${name} (no such state)`}
				</option>
			))}
		</select>
	);
}

/**
 * Any JSON value, for those who want it. Text that is not JSON is kept in the draft as typed (a
 * string), so nothing is dropped and validation lists it with its path.
 */
export function JsonInput(props: {
	value: Json | undefined;
	onChange(value: Json | undefined): void;
	testId?: string;
	rows?: number;
}) {
	const shown = props.value === undefined ? '' : JSON.stringify(props.value);
	const [text, setText] = useState(shown);
	const bad = text.trim() !== '' && !parses(text);
	useEffect(() => {
		if (typeof props.value === 'string' && props.value === text) return;
		if (text !== shown)
			setText(typeof props.value === 'string' && !parses(props.value) ? props.value : shown);
	}, [shown]);
	return (
		<textarea
			className={bad ? 'bad-json' : undefined}
			rows={props.rows ?? 2}
			value={text}
			data-testid={props.testId}
			onChange={(e) => {
				setText(e.target.value);
				if (e.target.value.trim() === '') return props.onChange(undefined);
				props.onChange(
					parses(e.target.value) ? (JSON.parse(e.target.value) as Json) : e.target.value,
				);
			}}
		/>
	);
}

function parses(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

/** `{ "min"?, "max"? }`, inclusive: a number matcher's or a number check's range. */
export function RangeInput(props: { value: Json | undefined; onChange(value: JsonObject): void }) {
	const range = asObject(props.value);
	return (
		<>
			min{' '}
			<NumberInput value={range.min} onChange={(v) => props.onChange(withField(range, 'min', v))} />
			max{' '}
			<NumberInput value={range.max} onChange={(v) => props.onChange(withField(range, 'max', v))} />
		</>
	);
}

/** A part a state may have or not (capture, after): a checkbox in its legend, its fields below. */
export function OptionalPart(props: {
	label: string;
	on: boolean;
	testId: string;
	onToggle(on: boolean): void;
	children: ReactNode;
}) {
	return (
		<fieldset>
			<legend>
				<label className="check">
					<input
						type="checkbox"
						checked={props.on}
						data-testid={props.testId}
						onChange={(e) => props.onToggle(e.target.checked)}
					/>
					{props.label}
				</label>
			</legend>
			{props.on && props.children}
		</fieldset>
	);
}

/**
 * A state's part that is an object or absent (menu, capture, after, call): ticked on, it starts
 * as `made`; its fields get a change that sets one key, reported as `<name>.<key>`.
 */
export function ObjectPart(props: {
	name: string;
	label: string;
	value: Json | undefined;
	made: JsonObject;
	onChange(value: Json | undefined, field: string): void;
	children(part: JsonObject, change: (key: string, value: Json | undefined) => void): ReactNode;
}) {
	const part = asObject(props.value);
	const change = (key: string, value: Json | undefined) =>
		props.onChange(withField(part, key, value), `${props.name}.${key}`);
	return (
		<OptionalPart
			label={props.label}
			on={isObject(props.value)}
			testId={`${props.name}-on`}
			onToggle={(on) => props.onChange(on ? props.made : undefined, props.name)}
		>
			{props.children(part, change)}
		</OptionalPart>
	);
}
