import { stateNames, type Draft } from './draft';
import { asObject, type Json } from './draft';
import { ListInput, NumberInput, Row, TargetSelect, TextInput, binder, withField } from './fields';
import { PairRows } from './PairRows';
import { Transitions } from './TransitionsForm';

/** The scenario's top level, labelled as the README's format table labels it. */
export function TopForm(props: { draft: Draft; onChange(draft: Draft, field: string): void }) {
	const { draft } = props;
	const field = binder(draft, props.onChange);
	return (
		<div className="form" data-testid="top-form">
			<h3>top level</h3>
			<Row label="id">
				<TextInput {...field('id')} onChange={(v) => field('id').onChange(v ?? '')} />
			</Row>
			<Row label="version (a whole number, raised with every change)">
				<NumberInput {...field('version')} />
			</Row>
			<Row label="start (the first state)">
				<TargetSelect
					value={draft.start}
					states={stateNames(draft)}
					none="(choose)"
					onChange={field('start').onChange}
				/>
			</Row>
			<Row label="description">
				<TextInput multiline {...field('description')} />
			</Row>
			<Row label="variables">
				<ListInput
					value={draft.variables}
					onChange={(v) =>
						field('variables').onChange(v === undefined || Array.isArray(v) ? v : [v])
					}
				/>
			</Row>
			<Row label="fallback (said when nothing matched)">
				<TextInput templated {...field('fallback')} />
			</Row>
			<Row label="first message (when it already answers the start state)">
				<select
					value={draft.firstMessage === 'greet' ? 'greet' : 'answer'}
					data-testid="field-firstMessage"
					onChange={(e) =>
						field('firstMessage').onChange(e.target.value === 'greet' ? 'greet' : undefined)
					}
				>
					<option value="answer">greet, then handle it (default)</option>
					<option value="greet">only greet</option>
				</select>
			</Row>
			<Transitions
				value={draft.keywords}
				states={stateNames(draft)}
				legend='keywords (transitions tried first in every state, such as "stop" or "human")'
				testId="keyword"
				onChange={(v) => field('keywords').onChange(v)}
			/>
			<Workflows value={draft.workflows} onChange={(v) => field('workflows').onChange(v)} />
			<p className="hint">
				Click a state on the graph to edit it; drag from a state's lower handle to another state to
				connect them.
			</p>
		</div>
	);
}

/** `workflows`: the n8n workflows call steps may name, each with a description and the fields it returns. */
function Workflows(props: { value: Json | undefined; onChange(value: Json | undefined): void }) {
	return (
		<fieldset>
			<legend>workflows (the n8n workflows call steps may name)</legend>
			<PairRows
				{...props}
				testId="workflows"
				addLabel="+ workflow"
				newRow={(count) => [`workflow-${count + 1}`, {}]}
				renderValue={(value, change) => {
					const about = asObject(value);
					const set = (key: string, v: Json | undefined) => change(withField(about, key, v));
					return (
						<>
							<TextInput
								value={about.description}
								placeholder="what it does"
								onChange={(v) => set('description', v)}
							/>
							<ListInput
								value={about.returns}
								placeholder="returns: status, total"
								onChange={(v) => set('returns', v === undefined || Array.isArray(v) ? v : [v])}
							/>
						</>
					);
				}}
			/>
		</fieldset>
	);
}
