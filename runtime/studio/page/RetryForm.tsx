import { ActionsAndTarget } from './ActionsForm';
import { asArray, asObject, isObject, type Json, type JsonObject } from './draft';
import { NumberInput, Row, TextInput, withField } from './fields';

/** What a capture and a menu share: the retry asked after a wrong answer, how often, the give-up. */

/**
 * A give-up's field set: picking a target takes out the `end` or `goto` among its actions (a list
 * with one of them has no target), so the default give-up (hand off, end) becomes "go there".
 */
function giveUpWith(giveUp: JsonObject, key: string, value: Json | undefined): JsonObject {
	const next = withField(giveUp, key, value);
	if (key !== 'target' || !value) return next;
	const kept = asArray(next.actions).filter((a) => !isObject(a) || !('end' in a || 'goto' in a));
	return withField(next, 'actions', kept.length ? kept : undefined);
}

/** A capture's or a menu's retry, retries and give-up (say, actions, target). */
export function RetryAndGiveUp(props: {
	part: JsonObject;
	states: string[];
	change(key: string, value: Json | undefined): void;
	testId: string;
}) {
	const { part, change } = props;
	const giveUp = asObject(part.giveUp);
	return (
		<>
			<Row label="retry">
				<TextInput templated value={part.retry} onChange={(v) => change('retry', v)} />
			</Row>
			<Row label="retries">
				<NumberInput value={part.retries} onChange={(v) => change('retries', v)} />
			</Row>
			<Row label="giveUp: say">
				<TextInput
					templated
					value={giveUp.say}
					onChange={(v) => change('giveUp', withField(giveUp, 'say', v))}
				/>
			</Row>
			<ActionsAndTarget
				part={giveUp}
				states={props.states}
				none="(none: the actions end or go on)"
				of="giveUp"
				change={(key, v) => change('giveUp', giveUpWith(giveUp, key, v))}
				testId={props.testId}
			/>
		</>
	);
}
