import type { ActionReport } from '../../runtime/scenarios/durability/record';
import { Chat, example } from './harness';

type Step = string | { wait: number } | 'release';

/** Plays a script against a fresh engine and writes the conversation down as it happened. */
async function play(name: string, client: string, script: Step[]): Promise<string[]> {
	const chat = new Chat([example(name)]);
	const lines: string[] = [];
	const write = (actions: ActionReport[]) => {
		for (const a of actions) {
			if (a.kind === 'reply') lines.push(`bot: ${a.text}`);
			else
				lines.push(
					`[tags${(a.add ?? []).map((t) => ` +${t}`).join('')}${(a.remove ?? []).map((t) => ` -${t}`).join('')}]`,
				);
		}
	};
	for (const step of script) {
		if (step === 'release') {
			await chat.engine.release('bot_shop', client);
			lines.push('[released]');
		} else if (typeof step === 'object') {
			chat.time += step.wait * 60_000;
			lines.push(`[${step.wait} min later]`);
			const work = await chat.engine.runDueWork();
			for (const done of [...work.messages, ...work.timers]) write(done.actions);
		} else {
			lines.push(`${client}: ${step}`);
			await chat.say(step, client);
			write(chat.last?.actions ?? []);
			if (chat.last?.handoff) lines.push('[handed off]');
			if (chat.last?.conversation?.ended) lines.push('[ended]');
		}
	}
	return lines;
}

describe('example scenarios, scripted', () => {
	it('order-status: captures an email and an order number, retries, hands over when stuck', async () => {
		expect(
			await play('order-status', 'cl_ada', [
				'hi',
				'where is my order?',
				'ada at example',
				'ada@example.com',
				'#12',
				'1001',
				'thanks',
				'hello again',
				'order',
				'no idea',
				'still no',
				'nope',
				'hello?',
				'release',
				'ok',
				'stop',
			]),
		).toEqual([
			'cl_ada: hi',
			'bot: Hi Ada! I can tell you where your order is. Type "order" to start.',
			'cl_ada: where is my order?',
			'bot: What email address did you use for the order?',
			'cl_ada: ada at example',
			'bot: That does not look like an email address. Please type it like name@example.com.',
			'cl_ada: ada@example.com',
			'bot: Thanks! And the order number? It is in the confirmation we sent to ada@example.com.',
			'cl_ada: #12',
			'bot: Order numbers are 4 to 8 digits, like 1001.',
			'cl_ada: 1001',
			'bot: Order 1001 has shipped. Tracking details are on their way to ada@example.com.',
			'bot: Anything else? Type "order" for another order, or "no" to finish.',
			'cl_ada: thanks',
			'bot: Happy to help, Ada. Bye!',
			'[ended]',
			'cl_ada: hello again',
			'bot: Hi Ada! I can tell you where your order is. Type "order" to start.',
			'cl_ada: order',
			'bot: What email address did you use for the order?',
			'cl_ada: no idea',
			'bot: That does not look like an email address. Please type it like name@example.com.',
			'cl_ada: still no',
			'bot: That does not look like an email address. Please type it like name@example.com.',
			'cl_ada: nope',
			'bot: I could not read the email address.',
			'bot: I am passing you to a colleague, who will answer here shortly.',
			'[tags +needs-human]',
			'[handed off]',
			'cl_ada: hello?',
			'[released]',
			'cl_ada: ok',
			'[tags -needs-human]',
			'bot: Hi Ada! I can tell you where your order is. Type "order" to start.',
			'cl_ada: stop',
			'bot: OK, I will stop here. Write again any time.',
			'[ended]',
		]);
	});

	it('lead-qualification: qualifies a lead and tags it by its answers', async () => {
		expect(
			await play('lead-qualification', 'cl_grace', [
				'Hello!',
				'a demo please',
				'demo',
				'about forty',
				'300',
				'grace@example.com',
				'yes',
			]),
		).toEqual([
			'cl_grace: Hello!',
			'bot: Hi Grace, thanks for your interest in Acme Bots!',
			'bot: What brings you here: pricing, a demo, or support?',
			'cl_grace: a demo please',
			'bot: Please pick one: pricing, demo or support.',
			'cl_grace: demo',
			'[tags +lead]',
			'bot: Great, demo it is. How many people are on your team?',
			'cl_grace: about forty',
			'bot: Just the number, please (for example 12).',
			'cl_grace: 300',
			'bot: Which work email should our team write to?',
			'cl_grace: grace@example.com',
			'bot: Thanks! Shall I book a call with our team? (yes/no)',
			'cl_grace: yes',
			'[tags +enterprise +call-requested]',
			'bot: Our enterprise team will call you within one business day.',
			'[ended]',
		]);
	});

	it('lead-qualification: a small team saying no to a call about pricing; an existing customer', async () => {
		expect(
			await play('lead-qualification', 'cl_grace', [
				'hi',
				'Pricing',
				'12',
				'grace@example.com',
				'maybe',
				'not now',
			]),
		).toEqual([
			'cl_grace: hi',
			'bot: Hi Grace, thanks for your interest in Acme Bots!',
			'bot: What brings you here: pricing, a demo, or support?',
			'cl_grace: Pricing',
			'[tags +lead]',
			'bot: Great, pricing it is. How many people are on your team?',
			'cl_grace: 12',
			'bot: Which work email should our team write to?',
			'cl_grace: grace@example.com',
			'bot: Thanks! Shall I book a call with our team? (yes/no)',
			'cl_grace: maybe',
			'bot: Please answer with "yes" or "no".',
			'cl_grace: not now',
			'[tags +nurture]',
			'bot: Here is our price list: https://example.invalid/pricing. Bye for now!',
			'[ended]',
		]);
		expect(await play('lead-qualification', 'cl_ada', ['hi', 'pricing', 'hello?'])).toEqual([
			'cl_ada: hi',
			'bot: Hi Ada, thanks for your interest in Acme Bots!',
			'bot: What brings you here: pricing, a demo, or support?',
			'cl_ada: pricing',
			'bot: You are already a customer, so your account manager will answer you here.',
			'[tags +upsell]',
			'[handed off]',
			'cl_ada: hello?',
		]);
	});

	it('support: reminds a silent client, closes a silent case, hands over to an agent', async () => {
		expect(
			await play('support', 'cl_ada', [
				'hi',
				{ wait: 9 },
				{ wait: 1 },
				{ wait: 30 },
				'I cannot log in',
				{ wait: 30 },
				'hello',
				'The app crashes on start',
				'no, it still crashes',
				'anyone?',
				'release',
				'thanks, fixed',
			]),
		).toEqual([
			'cl_ada: hi',
			'bot: Hi Ada, this is support. Describe the problem in one message, or type "human" to reach an agent.',
			'[9 min later]',
			'[1 min later]',
			'bot: Are you still there? Tell me what went wrong and I will help.',
			'[30 min later]',
			'cl_ada: I cannot log in',
			'bot: Thanks. About "I cannot log in": signing out and in again fixes most problems. Did that help? (yes/no)',
			'[30 min later]',
			'bot: I am closing this conversation. Write again whenever you need help.',
			'cl_ada: hello',
			'bot: Hi Ada, this is support. Describe the problem in one message, or type "human" to reach an agent.',
			'cl_ada: The app crashes on start',
			'bot: Thanks. About "The app crashes on start": signing out and in again fixes most problems. Did that help? (yes/no)',
			'cl_ada: no, it still crashes',
			'bot: I am handing you to a support agent, who will reply here.',
			'[tags +support-escalated]',
			'[handed off]',
			'cl_ada: anyone?',
			'[released]',
			'cl_ada: thanks, fixed',
			'[tags -support-escalated]',
			'bot: Hi Ada, this is support. Describe the problem in one message, or type "human" to reach an agent.',
		]);
	});
});
