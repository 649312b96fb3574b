import { stateNames, type Draft } from './draft';
import { JsonInput, ListInput, NumberInput, Row, TargetSelect, TextInput, binder } from './fields';

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
				<TextInput {...field('fallback')} />
			</Row>
			<Row label='keywords (transitions tried first in every state, such as "stop" or "human")'>
				<JsonInput {...field('keywords')} rows={4} />
			</Row>
			<Row label="workflows (the n8n workflows call steps may name)">
				<JsonInput {...field('workflows')} rows={2} />
			</Row>
			<p className="hint">
				Click a state on the graph to edit it; drag from a state's lower handle to another state to
				connect them.
			</p>
		</div>
	);
}
