import { stateNames, type Draft, type Json } from './draft';
import {
	JsonInput,
	ListInput,
	NumberInput,
	Row,
	TargetSelect,
	TextInput,
	withField,
} from './fields';

/** The scenario's top level, labelled as the README's format table labels it. */
export function TopForm(props: { draft: Draft; onChange(draft: Draft, field: string): void }) {
	const { draft } = props;
	const set = (key: string, value: Json | undefined) =>
		props.onChange(withField(draft, key, value), key);
	return (
		<div className="form" data-testid="top-form">
			<h3>top level</h3>
			<Row label="id">
				<TextInput value={draft.id} onChange={(v) => set('id', v ?? '')} testId="field-id" />
			</Row>
			<Row label="version (a whole number, raised with every change)">
				<NumberInput
					value={draft.version}
					onChange={(v) => set('version', v)}
					testId="field-version"
				/>
			</Row>
			<Row label="start (the first state)">
				<TargetSelect
					value={draft.start}
					states={stateNames(draft)}
					none="(choose)"
					onChange={(v) => set('start', v)}
				/>
			</Row>
			<Row label="description">
				<TextInput multiline value={draft.description} onChange={(v) => set('description', v)} />
			</Row>
			<Row label="variables">
				<ListInput
					value={draft.variables}
					onChange={(v) =>
						set('variables', v === undefined ? undefined : Array.isArray(v) ? v : [v])
					}
				/>
			</Row>
			<Row label="fallback (said when nothing matched)">
				<TextInput value={draft.fallback} onChange={(v) => set('fallback', v)} />
			</Row>
			<Row label='keywords (transitions tried first in every state, such as "stop" or "human")'>
				<JsonInput value={draft.keywords} onChange={(v) => set('keywords', v)} rows={4} />
			</Row>
			<Row label="workflows (the n8n workflows call steps may name)">
				<JsonInput value={draft.workflows} onChange={(v) => set('workflows', v)} rows={2} />
			</Row>
			<p className="hint">
				Click a state on the graph to edit it; drag from a state's lower handle to another state to
				connect them.
			</p>
		</div>
	);
}
