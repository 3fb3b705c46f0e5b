// Package ontology is the BuildOS ontology + utility tool family of spec 004:
// 53 tools (tools/*.json) that read and change a project ontology — projects,
// tasks, goals, plans, documents in a tree, milestones, risks, requirements
// and the edges between them — plus utilities (field info, web search and
// visit, BuildOS docs). toolgen.yaml maps the tool names onto the spec's op
// taxonomy (onto.task.list, onto.document.tree.move, util.web.search, …) and
// carries its policies and dry-run defaults.
//
// The *_gen.go files are generated. Store serves every tool from memory:
// store.go holds the entity model and the generic list, get, create,
// update and delete shared by the entity kinds; handlers.go maps each
// ontology tool onto them; utility.go answers the utility tools from static
// tables (an offline canned web: nothing touches the network). NewStore
// seeds a demo project whose "API Spec" document and "Engineering" folder
// play spec 004 §9's scenario. Write handlers honour gateway.DryRun.
//
// Regenerate after editing tools/*.json or toolgen.yaml:
//
//	go generate ./examples/ontology
package ontology

//go:generate go run ../../cmd/toolgen generate -c toolgen.yaml
