// Scenarios of ontology-mcp with the official TypeScript MCP client.
// Usage: node client.mjs <scenario> <server binary> [http URL]
// Every check throws on failure; the exit code is 0 only when all pass.
// The Go test TestTypeScriptClient runs it; see main_test.go.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [scenario, binary, url] = process.argv.slice(2);

const PROJECT = "3f2b8c1e-5d4a-4b6e-9c7f-1a2b3c4d5e6f";
const API_SPEC = "7a1c2e3f-0000-4000-8000-000000000001";
const ENGINEERING = "7a1c2e3f-0000-4000-8000-0000000000aa";

async function stdio(args) {
  const client = new Client({ name: "ts-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: binary, args, stderr: "inherit" }));
  return client;
}

async function http() {
  const client = new Client({ name: "ts-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function text(res) {
  assert.equal(res.content[0].type, "text");
  return res.content[0].text;
}

async function ok(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  assert.ok(!res.isError, `${name} failed: ${text(res)}`);
  return res;
}

async function fails(client, name, args, ...want) {
  const res = await client.callTool({ name, arguments: args });
  assert.equal(res.isError, true, `${name} succeeded: ${text(res)}`);
  for (const w of want) assert.ok(text(res).includes(w), `${name} error lacks ${w}: ${text(res)}`);
  return res;
}

const scenarios = {
  // Flat surface over stdio, read-only: metadata, validation, refusal.
  async "stdio-flat"() {
    const client = await stdio(["--surface", "flat"]);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 53);
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.equal(by.list_onto_tasks.annotations.readOnlyHint, true);
    assert.equal(by.delete_onto_task.annotations.readOnlyHint, false);
    assert.equal(by.delete_onto_task.annotations.destructiveHint, true);
    assert.equal(by.delete_onto_task.annotations.idempotentHint, true);
    assert.equal(by.create_onto_task.annotations.destructiveHint, false);
    assert.equal(by.create_onto_task.annotations.idempotentHint, false);
    assert.equal(by.web_search.annotations.openWorldHint, true);
    assert.equal(by.web_search.title, "Web search");
    assert.equal(by.get_onto_task_details.outputSchema.type, "object");
    assert.ok(by.get_onto_task_details.outputSchema.required.includes("edges"));
    assert.equal(by.create_onto_project.outputSchema.type, "object");
    assert.equal(by.list_onto_tasks.outputSchema, undefined);

    const task = await ok(client, "get_onto_task_details", { task_id: "5b0e0000-0000-4000-8000-000000000003" });
    assert.equal(task.structuredContent.title, "Write API documentation");
    assert.ok(text(task).includes("Write API documentation"));

    await fails(client, "get_onto_task_details", { task_id: 5 }, "/task_id");
    await fails(client, "list_onto_tasks", { limit: 1000, colour: "red" }, "/limit", "colour");
    await fails(client, "create_onto_project", { name: "Garden" }, "writes are not allowed");
    await client.close();
  },

  // Gateway over stdio, read-only: help, search, exec; a write is
  // PERMISSION_DENIED; a validation error is isError.
  async "stdio-gateway"() {
    const client = await stdio(["--surface", "gateway"]);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["tool_batch", "tool_exec", "tool_help", "tool_search"]);
    assert.equal(tools.find((t) => t.name === "tool_help").annotations.readOnlyHint, true);

    const help = await ok(client, "tool_help", { path: "onto.document.tree.move" });
    assert.ok(text(help).includes("new_parent_id"));
    const search = await ok(client, "tool_search", { query: "move a document into a folder" });
    assert.ok(text(search).includes("onto.document.tree.move"));
    const exec = await ok(client, "tool_exec", { op: "onto.document.search", args: { search: "API Spec" } });
    assert.equal(exec.structuredContent.ok, true);
    assert.equal(exec.structuredContent.result[0].id, API_SPEC);

    const denied = await fails(client, "tool_exec", { op: "onto.task.create", args: { project_id: PROJECT, title: "Call the venue" } }, "PERMISSION_DENIED");
    assert.equal(JSON.parse(text(denied)).error.code, "PERMISSION_DENIED");
    const invalid = await fails(client, "tool_exec", { op: "onto.task.get", args: { task_id: 7 } }, "VALIDATION_ERROR");
    assert.equal(JSON.parse(text(invalid)).error.code, "VALIDATION_ERROR");
    await client.close();
  },

  // Flat surface over streamable HTTP with writes: create a project and
  // tasks, search them, move a document in the tree, read back typed
  // structured content.
  async "http-flat-writes"() {
    const client = await http();
    const project = await ok(client, "create_onto_project", { name: "Garden", goals: ["Grow tomatoes"] });
    const p = project.structuredContent;
    assert.equal(p.kind, "project");
    assert.equal(p.title, "Garden");
    assert.equal(p.goals[0].title, "Grow tomatoes");
    for (const title of ["Buy seeds", "Build a raised bed"]) {
      const t = await ok(client, "create_onto_task", { project_id: p.id, title, priority: 2 });
      assert.equal(t.structuredContent.title, title);
      assert.equal(t.structuredContent.project_id, p.id);
    }
    const found = await ok(client, "search_onto_tasks", { search: "b", project_id: p.id });
    const hits = JSON.parse(text(found).split("\n\n")[1]).map((t) => t.title).sort();
    assert.deepEqual(hits, ["Build a raised bed", "Buy seeds"]);

    const moved = await ok(client, "move_document_in_tree", { project_id: PROJECT, document_id: API_SPEC, new_parent_id: ENGINEERING, position: 0 });
    assert.ok(text(moved).startsWith("move API Spec"));
    const doc = await ok(client, "get_onto_document_details", { document_id: API_SPEC });
    assert.equal(doc.structuredContent.parent_id, ENGINEERING);
    assert.deepEqual(doc.structuredContent.path.map((d) => d.title), ["Engineering", "API Spec"]);

    await fails(client, "create_onto_task", { project_id: p.id, title: "Buy seeds" }, "already exists");
    await fails(client, "create_onto_task", { title: "No project" }, "project_id");
    await client.close();
  },

  // Gateway over streamable HTTP with writes: exec with an idempotency key
  // twice writes once.
  async "http-gateway-writes"() {
    const client = await http();
    const call = { op: "onto.task.create", args: { project_id: PROJECT, title: "Book the venue" }, idempotency_key: "ts-key-1" };
    const first = await ok(client, "tool_exec", call);
    const again = await ok(client, "tool_exec", call);
    assert.equal(first.structuredContent.result.id, again.structuredContent.result.id);
    const found = await ok(client, "tool_exec", { op: "onto.task.search", args: { search: "book the venue" } });
    assert.equal(found.structuredContent.result.length, 1);
    const dry = await ok(client, "tool_exec", { op: "onto.task.delete", dry_run: true, args: { task_id: first.structuredContent.result.id } });
    assert.ok(dry.structuredContent.meta.message.startsWith("dry run: would "));
    const still = await ok(client, "tool_exec", { op: "onto.task.get", args: { task_id: first.structuredContent.result.id } });
    assert.equal(still.structuredContent.ok, true);
    await client.close();
  },
};

const run = scenarios[scenario];
if (!run) {
  console.error(`unknown scenario ${scenario}`);
  process.exit(2);
}
try {
  await run();
  console.log(`ok ${scenario}`);
  process.exit(0);
} catch (err) {
  console.error(`FAIL ${scenario}: ${err.stack || err}`);
  process.exit(1);
}
