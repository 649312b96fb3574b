import { ActionsAndTarget, RetryAndGiveUp } from './ActionsForm';
import { asArray, asObject, isObject, type Json, type JsonObject } from './draft';
import { ListInput, OptionalPart, Row, TextInput, withField } from './fields';

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
	const menu = asObject(props.value);
	const change = (key: string, v: Json | undefined) =>
		props.onChange(withField(menu, key, v), `menu.${key}`);
	const options = asArray(menu.options);
	const setOptions = (next: Json[], field: string) =>
		props.onChange(withField(menu, 'options', next), field);
	return (
		<OptionalPart
			label="menu (a question with numbered options; each option an arrow)"
			on={isObject(props.value)}
			testId="menu-on"
			onToggle={(on) => props.onChange(on ? NEW_MENU : undefined, 'menu')}
		>
			<Row label="question">
				<TextInput
					templated
					multiline
					value={menu.text}
					testId="menu-text"
					onChange={(v) => change('text', v)}
				/>
			</Row>
			{options.map((item, i) => {
				const option = asObject(item);
				const set = (key: string, v: Json | undefined) =>
					setOptions(
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
								setOptions(
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
				onClick={() => setOptions([...options, { label: '', target: '' }], 'menu.add')}
			>
				+ option
			</button>
			<Row label="into (keeps the option's label in a variable)">
				<TextInput value={menu.into} testId="menu-into" onChange={(v) => change('into', v)} />
			</Row>
			<RetryAndGiveUp part={menu} states={props.states} change={change} testId="menu-giveup" />
		</OptionalPart>
	);
}
