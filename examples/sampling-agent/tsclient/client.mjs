// A client of the sampling-agent example on the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk, pinned in package.json and package-lock.json). The Go test
// tsclient_test.go runs it; by hand, after npm ci:
//
//	node client.mjs ../sampling-agent '{"capabilities":"tools","calls":[{"prompt":"hi"}],"turns":[...]}'
//
// It spawns the server binary over stdio with the SDK's StdioClientTransport, declares the
// capabilities the config names, answers sampling/createMessage with a scripted model that plays
// the config's turns in order, calls the agent tool once per element of calls (its arguments),
// and prints one JSON object on stdout:
//
//	sdkVersion        the installed SDK's version
//	requestedVersion  the protocol version the client asked for in initialize
//	protocolVersion   the version the server answered (the session's, which the client accepted)
//	requests          the params of each sampling/createMessage, as the SDK gave them to the handler
//	received          every JSON-RPC message the client read from the server, as it came
//	sent              every JSON-RPC message the client wrote to the server
//	results           each tools/call result
//	progress          the progress notifications the SDK passed to the calls' onprogress
//
// With "progress": true in the config, each call asks for progress.
// capabilities: "tools" (sampling: {tools: {}}), "basic" (sampling: {}), "none" (no sampling).
// A turn is a CreateMessageResult, sent as it is; {"echo": [ids]}, a final text that says what
// each tool result with those ids in the request's last message held ("id: text", "id: error:
// text" for isError, "id: missing"); or {"error": message}, which the handler throws, so that
// the client answers with a JSON-RPC error.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [server, configText] = process.argv.slice(2);
if (!server || !configText) {
    console.error('usage: node client.mjs SERVER-BINARY CONFIG-JSON');
    process.exit(2);
}
const config = JSON.parse(configText);

// Recording wraps a transport and keeps what passes through it.
class Recording {
    constructor(inner) {
        this.inner = inner;
        this.sent = [];
        this.received = [];
        inner.onmessage = (message, extra) => {
            this.received.push(message);
            this.onmessage?.(message, extra);
        };
        inner.onerror = error => this.onerror?.(error);
        inner.onclose = () => this.onclose?.();
    }
    start() {
        return this.inner.start();
    }
    send(message, options) {
        this.sent.push(message);
        return this.inner.send(message, options);
    }
    close() {
        return this.inner.close();
    }
}

const capabilities = {
    tools: { sampling: { tools: {} } },
    basic: { sampling: {} },
    none: {}
}[config.capabilities];
if (!capabilities) {
    throw new Error(`unknown capabilities ${JSON.stringify(config.capabilities)}`);
}

const client = new Client({ name: 'sampling-agent-tsclient', version: '0.0.0' }, { capabilities });
const requests = [];
if (config.capabilities !== 'none') {
    client.setRequestHandler(CreateMessageRequestSchema, async request => {
        requests.push(request.params);
        const turn = (config.turns ?? [])[requests.length - 1];
        if (!turn) {
            throw new Error(`the script has no turn ${requests.length}`);
        }
        if (turn.error) {
            throw new Error(turn.error);
        }
        if (turn.echo) {
            return { role: 'assistant', model: 'scripted', stopReason: 'endTurn', content: [{ type: 'text', text: echo(request.params, turn.echo) }] };
        }
        return turn;
    });
}

// echo says what the tool results with the ids in the request's last message held.
function echo(params, ids) {
    const last = params.messages[params.messages.length - 1];
    const blocks = Array.isArray(last.content) ? last.content : [last.content];
    return ids
        .map(id => {
            const result = blocks.find(b => b.type === 'tool_result' && b.toolUseId === id);
            if (!result) {
                return `${id}: missing`;
            }
            const text = result.content.map(c => c.text).join('');
            return `${id}: ${result.isError ? 'error: ' : ''}${text}`;
        })
        .join('; ');
}

const transport = new Recording(new StdioClientTransport({ command: server, stderr: 'inherit' }));
await client.connect(transport);
const initialize = transport.sent.find(m => m.method === 'initialize');
const initialized = transport.received.find(m => m.id === initialize.id);

const results = [];
const progress = [];
for (const args of config.calls ?? []) {
    // With onprogress, the SDK sends a progressToken in the call's _meta.
    const options = config.progress ? { onprogress: p => progress.push(p) } : undefined;
    results.push(await client.callTool({ name: 'agent', arguments: args }, undefined, options));
}
await client.close();

const sdk = JSON.parse(readFileSync(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url)));
console.log(
    JSON.stringify({
        sdkVersion: sdk.version,
        requestedVersion: initialize.params.protocolVersion,
        protocolVersion: initialized.result.protocolVersion,
        requests,
        received: transport.received,
        sent: transport.sent,
        results,
        progress
    })
);
