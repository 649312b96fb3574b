import {
	defaultMenuRetry,
	DEFAULT_MENU_RETRIES,
	menuListing,
	prepareMenu,
	type MenuDef,
} from '../format/menu';
import { renderTemplate } from '../format/templates';
import {
	destination,
	scopeOf,
	type ActionConfig,
	type PartBuilder,
	type TransitionConfig,
} from './setup';

/**
 * A menu as machine parts: the question with its numbered options sent on entry, one transition
 * per option (guarded by the option the answer chooses), then the retry and the give-up.
 */

/** The question and its numbered options, one message. */
export function menuQuestion(menu: MenuDef, build: PartBuilder): ActionConfig {
	const question = menu.text === undefined ? undefined : build.template(menu.text);
	const listing = menuListing(menu.options.map((o) => o.label));
	return {
		type: 'reply',
		params: ({ context, event }) => ({
			text:
				question === undefined
					? listing
					: `${renderTemplate(question, scopeOf(context, event)).trim()}\n${listing}`,
		}),
	};
}

export function menuTransitions(menu: MenuDef, build: PartBuilder): TransitionConfig[] {
	const prepared = prepareMenu(menu.options);
	const options: TransitionConfig[] = menu.options.map((option, index) => ({
		guard: { type: 'menuChoice', params: { menu: prepared, index } },
		actions: [
			...(menu.into === undefined
				? []
				: [{ type: 'setVars' as const, params: { values: { [menu.into]: option.label } } }]),
			...build.actions(option.actions),
		],
		...destination(option.actions, option.target),
	}));
	const retry: ActionConfig[] = [
		{ type: 'note', params: { note: 'retry' } },
		build.reply(menu.retry ?? defaultMenuRetry(menu.options.length)),
	];
	const giveUp = menu.giveUp;
	if (!giveUp) return [...options, { actions: retry }];
	return [
		...options,
		{
			guard: { type: 'triesLeft', params: { retries: menu.retries ?? DEFAULT_MENU_RETRIES } },
			actions: [{ type: 'countTry' }, ...retry],
		},
		{
			actions: [
				{ type: 'note', params: { note: 'giveUp' } },
				...(giveUp.say === undefined ? [] : [build.reply(giveUp.say)]),
				...build.actions(giveUp.actions),
			],
			...destination(giveUp.actions, giveUp.target),
		},
	];
}
