import { ActionsAndTarget } from './ActionsForm';
import { asArray, asObject, type Json, type JsonObject } from './draft';
import { ListInput, ObjectPart, Row, TextInput, withField } from './fields';
import { RetryAndGiveUp } from './RetryForm';

/**
 * A state's `menu`: a question and numbered options, each with its label, synonyms and where it
 * leads. The bot lists the options itself; the client answers with the number, the label, a
 * synonym or a near spelling. Then retry, retries and what happens on giving up.
 */

type MenuProps = {
	value: Json | undefined;
	states: string[];
	onChange(value: Json | undefined, field: string): void;
};

const NEW_MENU: JsonObject = {
	text: 'What can I do for you?',
	options: [{ label: '', target: '' }],
	retry: 'Please pick one of the options (its number is enough).',
	retries: 2,
	giveUp: { say: 'A colleague will write to you.', actions: [{ handoff: true }, { end: true }] },
};

export function Menu(props: MenuProps) {
	return (
		<ObjectPart
			{...props}
			name="menu"
			label="menu (a question with numbered options; each option an arrow)"
			made={NEW_MENU}
		>
			{(menu, change) => (
				<>
					<Row label="question">
						<TextInput
							templated
							multiline
							value={menu.text}
							testId="menu-text"
							onChange={(v) => change('text', v)}
						/>
					</Row>
					<Options
						value={menu.options}
						states={props.states}
						onChange={(next, field) => props.onChange(withField(menu, 'options', next), field)}
					/>
					<Row label="into (keeps the option's label in a variable)">
						<TextInput value={menu.into} testId="menu-into" onChange={(v) => change('into', v)} />
					</Row>
					<RetryAndGiveUp part={menu} states={props.states} change={change} testId="menu-giveup" />
				</>
			)}
		</ObjectPart>
	);
}

/** The menu's options, numbered as the bot lists them. */
function Options(props: {
	value: Json | undefined;
	states: string[];
	onChange(options: Json[], field: string): void;
}) {
	const options = asArray(props.value);
	return (
		<>
			{options.map((item, i) => {
				const option = asObject(item);
				const set = (key: string, v: Json | undefined) =>
					props.onChange(
						options.map((x, j) => (j === i ? withField(option, key, v) : x)),
						`menu.options${i}.${key}`,
					);
				return (
					<div className="transition" key={i} data-testid={`menu-option-${i}`}>
						<Row label={`option ${i + 1}`}>
							<TextInput
								value={option.label}
								testId={`menu-option-${i}-label`}
								placeholder="what the client sees, such as Order a pizza"
								onChange={(v) => set('label', v ?? '')}
							/>
						</Row>
						<Row label="synonyms">
							<ListInput
								value={option.synonyms}
								testId={`menu-option-${i}-synonyms`}
								placeholder="order, pizza, hungry"
								onChange={(v) =>
									set('synonyms', v === undefined ? undefined : Array.isArray(v) ? v : [v])
								}
							/>
						</Row>
						<ActionsAndTarget
							part={option}
							states={props.states}
							none="(choose)"
							testId={`menu-option-${i}-target`}
							change={set}
						/>
						<button
							className="danger small"
							onClick={() =>
								props.onChange(
									options.filter((_, j) => j !== i),
									`menu.remove${i}`,
								)
							}
						>
							Remove option
						</button>
					</div>
				);
			})}
			<button
				data-testid="menu-add-option"
				onClick={() => props.onChange([...options, { label: '', target: '' }], 'menu.add')}
			>
				+ option
			</button>
		</>
	);
}
