import { useEffect, useMemo, useState } from 'react';

import { asObject, type Draft } from './draft';
import {
	TestClientForm,
	TranscriptExport,
	WorkflowResults,
	type TestClient,
	type WorkflowAnswer,
} from './PreviewSetup';
import {
	compileScenario,
	rehearse,
	type ClientProfile,
	type Rehearsal,
	type WorkflowPort,
} from './runtime-bridge';

/**
 * The preview chat: the scenario played as the Scenario node's Test Conversation plays it (the
 * runtime's own rehearsal, nothing sent), against a test client and workflow results the designer
 * edits; the state after each message is lit on the graph.
 */

export interface PreviewProps {
	draft: Draft;
	valid: boolean;
	onStates(current: string | undefined, visited: string[]): void;
}

export function Preview(props: PreviewProps) {
	const [messages, setMessages] = useState<string[]>([]);
	const [typed, setTyped] = useState('');
	const [client, setClient] = useState<TestClient>({ first_name: 'Ada' });
	const [answers, setAnswers] = useState<Record<string, WorkflowAnswer>>({});
	const workflows = Object.keys(asObject(props.draft.workflows));

	const { compiled, played } = useRehearsal(props, messages, client, answers);
	const rehearsal = played && 'transcript' in played ? played : undefined;
	useEffect(() => {
		const states = rehearsal?.states ?? [];
		props.onStates(states[states.length - 1], states);
	}, [rehearsal]);

	const send = () => {
		if (typed.trim() === '') return;
		setMessages([...messages, typed]);
		setTyped('');
	};
	return (
		<div className="preview" data-testid="preview">
			<div className="chat" data-testid="chat">
				{!compiled && (
					<div className="hint bad">Fix the problems below to chat with this scenario.</div>
				)}
				{compiled && messages.length === 0 && (
					<div className="hint">
						Write as the client would; the bot answers as Test Conversation does.
					</div>
				)}
				{rehearsal && <ChatLog rehearsal={rehearsal} />}
				{played && 'error' in played && <div className="hint bad">{played.error}</div>}
			</div>
			<div className="inline">
				<input
					value={typed}
					placeholder="Type a message, Enter to send"
					data-testid="chat-input"
					disabled={!compiled}
					onChange={(e) => setTyped(e.target.value)}
					onKeyDown={(e) => e.key === 'Enter' && send()}
				/>
				<button onClick={send} disabled={!compiled} data-testid="chat-send">
					Send
				</button>
				<button onClick={() => setMessages([])} data-testid="chat-restart">
					Restart
				</button>
			</div>
			<div className="state-line" data-testid="chat-state">
				state: {rehearsal?.states[rehearsal.states.length - 1] ?? '(not started)'}
				{rehearsal &&
					Object.keys(rehearsal.vars).length > 0 &&
					` · ${JSON.stringify(rehearsal.vars)}`}
			</div>
			<TranscriptExport messages={messages} />
			<TestClientForm client={client} onChange={setClient} />
			<WorkflowResults workflows={workflows} answers={answers} onChange={setAnswers} />
		</div>
	);
}

/** The conversation so far: the client's and the bot's messages, the workflows called, the end. */
function ChatLog({ rehearsal }: { rehearsal: Rehearsal }) {
	return (
		<>
			{rehearsal.transcript.map((line, i) => (
				<div key={i} className={`bubble ${line.from}`} data-testid={`bubble-${line.from}`}>
					{line.text}
				</div>
			))}
			{rehearsal.calls.map((c, i) => (
				<div key={`c${i}`} className="bubble note">
					workflow {c.workflow} {JSON.stringify(c.inputs)}: {c.outcome}
				</div>
			))}
			{rehearsal.handedOff && (
				<div className="bubble note">handed to a person: the bot is silent</div>
			)}
			{rehearsal.ended && <div className="bubble note">conversation ended</div>}
		</>
	);
}

/** The scenario compiled (when valid) and played through the client's messages, again on every change. */
function useRehearsal(
	props: PreviewProps,
	messages: string[],
	client: TestClient,
	answers: Record<string, WorkflowAnswer>,
) {
	const [played, setPlayed] = useState<Rehearsal | { error: string }>();
	const compiled = useMemo(() => {
		if (!props.valid) return undefined;
		try {
			return compileScenario(props.draft);
		} catch {
			return undefined;
		}
	}, [props.draft, props.valid]);

	useEffect(() => {
		if (!compiled) return setPlayed(undefined);
		let current = true;
		const profile: ClientProfile = {
			id: 'cl_preview',
			first_name: client.first_name ?? null,
			tags: (client.tags ?? '')
				.split(',')
				.map((t) => t.trim())
				.filter(Boolean),
			...(Array.isArray(client.orders) ? { orders: client.orders as ClientProfile['orders'] } : {}),
		};
		rehearse([compiled], messages, { client: profile, workflows: port(answers) }).then(
			(result) => current && setPlayed(result),
			(error: Error) => current && setPlayed({ error: error.message }),
		);
		return () => {
			current = false;
		};
	}, [compiled, messages, client, answers]);

	return { compiled, played };
}

function port(answers: Record<string, WorkflowAnswer>): WorkflowPort {
	return {
		call: async (name) => {
			const answer = answers[name];
			if (answer?.outcome === 'failure') throw new Error(`${name} failed (as set in the preview)`);
			return answer?.outcome === 'success' ? (answer.result ?? {}) : undefined;
		},
	};
}
