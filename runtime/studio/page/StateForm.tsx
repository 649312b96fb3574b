import { useEffect, useState } from 'react';

import { Capture, Timer } from './CaptureForm';
import { asArray, type Json, type JsonObject } from './draft';
import { ActionsForm } from './ActionsForm';
import { Row, TextInput, binder, withField } from './fields';
import { Menu } from './MenuForm';
import { Split } from './SplitForm';
import { Call, Choose } from './StepForms';
import { Transitions } from './TransitionsForm';

/**
 * One state's forms, labelled as the README's format table labels the parts of a state:
 * messages, actions, menu, on, capture, after, choose, call, split, fallback, end: every part a
 * form.
 */

export interface StateFormProps {
	name: string;
	state: JsonObject;
	states: string[];
	isStart: boolean;
	onChange(state: JsonObject, field: string): void;
	onRename(to: string): void;
	onDelete(): void;
	onMakeStart(): void;
}

export function StateForm(props: StateFormProps) {
	const { state, states } = props;
	const field = binder(state, props.onChange);
	return (
		<div className="form" data-testid="state-form">
			<Header {...props} />
			<Messages
				value={state.messages}
				onChange={(v) => props.onChange(withField(state, 'messages', v), 'messages')}
			/>
			<Row label="actions (run on entry)">
				<ActionsForm {...field('actions')} testId="state-actions" />
			</Row>
			<Menu
				value={state.menu}
				states={states}
				onChange={(v, field) => props.onChange(withField(state, 'menu', v), field)}
			/>
			<Transitions
				value={state.on}
				states={states}
				onChange={(v, field) => props.onChange(withField(state, 'on', v), field)}
			/>
			<Capture
				value={state.capture}
				states={states}
				onChange={(v, field) => props.onChange(withField(state, 'capture', v), field)}
			/>
			<Timer
				value={state.after}
				states={states}
				onChange={(v, field) => props.onChange(withField(state, 'after', v), field)}
			/>
			<Choose
				value={state.choose}
				states={states}
				onChange={(v, field) => props.onChange(withField(state, 'choose', v), field)}
			/>
			<Call
				value={state.call}
				states={states}
				onChange={(v, field) => props.onChange(withField(state, 'call', v), field)}
			/>
			<Split
				value={state.split}
				states={states}
				onChange={(v, field) => props.onChange(withField(state, 'split', v), field)}
			/>
			<Row label="fallback (said here when nothing matched)">
				<TextInput templated {...field('fallback')} />
			</Row>
			<label className="check">
				<input
					type="checkbox"
					checked={state.end === true}
					data-testid="field-end"
					onChange={(e) => field('end').onChange(e.target.checked ? true : undefined)}
				/>
				end (the conversation ends on entry)
			</label>
		</div>
	);
}

function Header(props: StateFormProps) {
	const [name, setName] = useState(props.name);
	useEffect(() => setName(props.name), [props.name]);
	const taken = name !== props.name && props.states.includes(name);
	return (
		<div className="form-header">
			<Row label="state">
				<div className="inline">
					<input
						value={name}
						data-testid="state-name"
						onChange={(e) => setName(e.target.value.trim())}
					/>
					<button
						disabled={!name || name === props.name || taken}
						data-testid="rename-state"
						onClick={() => props.onRename(name)}
					>
						Rename
					</button>
				</div>
			</Row>
			{taken && <div className="hint bad">a state named "{name}" exists</div>}
			<div className="inline">
				<button disabled={props.isStart} onClick={props.onMakeStart}>
					{props.isStart ? 'Start state' : 'Make it the start'}
				</button>
				<button className="danger" data-testid="delete-state" onClick={props.onDelete}>
					Delete state
				</button>
			</div>
		</div>
	);
}

function Messages(props: { value: Json | undefined; onChange(value: Json | undefined): void }) {
	const list = asArray(props.value);
	const update = (next: Json[]) => props.onChange(next.length ? next : undefined);
	return (
		<fieldset>
			<legend>messages (sent on entry)</legend>
			{list.map((message, i) => (
				<div className="inline" key={i}>
					<TextInput
						multiline
						value={message}
						testId={`message-${i}`}
						onChange={(text) => update(list.map((m, j) => (j === i ? (text ?? '') : m)))}
					/>
					<button
						title="Remove this message"
						onClick={() => update(list.filter((_, j) => j !== i))}
					>
						✕
					</button>
				</div>
			))}
			<button data-testid="add-message" onClick={() => update([...list, ''])}>
				+ message
			</button>
		</fieldset>
	);
}
