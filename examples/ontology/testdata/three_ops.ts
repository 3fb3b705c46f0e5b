// Find the staging task, read it, mark it done: three ops, one tool call.
type Task = { id: string; title: string; state_key: string };
const hits = (await onto.task.search({ search: "staging", project_id: "3f2b8c1e-5d4a-4b6e-9c7f-1a2b3c4d5e6f" })) as Task[];
if (hits.length !== 1) throw new Error(`expected one staging task, found ${hits.length}`);
const task = (await onto.task.get({ task_id: hits[0].id })) as Task;
const done = (await onto.task.update({ task_id: task.id, state_key: "done" })) as Task;
console.log(`${task.title}: ${task.state_key} -> ${done.state_key}`);
return { id: done.id, state_key: done.state_key };
