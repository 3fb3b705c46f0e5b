package generator

import (
	"encoding/json"

	"github.com/toolgen-go/toolgen/schema/ir"
)

func i64(v int64) *int64 { return &v }

func num(s string) *ir.Number { n := ir.Number(s); return &n }

func pos(ptr string) ir.Pos { return ir.Pos{File: "tools.json", Line: 1, Col: 1, Pointer: ptr} }

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// githubFamily is a hand-built family exercising every kind: a list_issues
// tool shaped like GitHub's, and a create_issue tool with nullable,
// union, tuple, map, extra and any fields.
func githubFamily() *ir.Family {
	state := &ir.Type{ID: "state", GoName: "State", Kind: ir.KindEnum, Doc: "State filters issues by state.",
		Enum: []ir.EnumValue{{JSON: raw(`"open"`), GoName: "StateOpen"}, {JSON: raw(`"closed"`), GoName: "StateClosed"}, {JSON: raw(`"all"`), GoName: "StateAll"}}}
	str := func() *ir.Type { return &ir.Type{Kind: ir.KindString} }
	labels := &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindString, Constraints: &ir.Constraints{MinLength: i64(1)}},
		Constraints: &ir.Constraints{UniqueItems: true, MaxItems: i64(5)}}
	perPage := &ir.Type{Kind: ir.KindInteger, Constraints: &ir.Constraints{Minimum: num("1"), Maximum: num("100")}}
	since := &ir.Type{Kind: ir.KindString, Format: "date-time", Nullable: true}
	milestone := &ir.Type{ID: "milestone", GoName: "Milestone", Kind: ir.KindUnion, OneOf: true,
		Branches: []*ir.Type{
			{Kind: ir.KindInteger, Constraints: &ir.Constraints{Minimum: num("1")}},
			{Kind: ir.KindString, Enum: []ir.EnumValue{{JSON: raw(`"none"`)}, {JSON: raw(`"*"`)}}},
		}}
	listParams := &ir.Type{ID: "list_issues", GoName: "ListIssuesParams", Kind: ir.KindObject, AdditionalFalse: true,
		Doc: "ListIssuesParams are the arguments of list_issues.",
		Fields: []*ir.Field{
			{JSONName: "owner", GoName: "Owner", Doc: "Repository owner.", Required: true, Type: &ir.Type{Kind: ir.KindString, Constraints: &ir.Constraints{MinLength: i64(1), MaxLength: i64(39)}}},
			{JSONName: "repo", GoName: "Repo", Doc: "Repository name.", Required: true, Type: &ir.Type{Kind: ir.KindString, Constraints: &ir.Constraints{Pattern: `^[A-Za-z0-9_.-]+$`}}},
			{JSONName: "state", GoName: "State", Doc: "Issue state.", Default: raw(`"open"`), Type: state},
			{JSONName: "labels", GoName: "Labels", Doc: "Label names.\nAll must match.", Type: labels},
			{JSONName: "per_page", GoName: "PerPage", Doc: "Page size.", Default: raw(`30`), Type: perPage},
			{JSONName: "page", GoName: "Page", Type: &ir.Type{Kind: ir.KindInteger, Constraints: &ir.Constraints{ExclusiveMinimum: num("0.5")}}},
			{JSONName: "since", GoName: "Since", Doc: "Only issues updated after this time */ (ISO 8601).", Type: since},
			{JSONName: "milestone", GoName: "Milestone", Type: milestone},
			{JSONName: "direction", GoName: "Direction", Type: &ir.Type{Kind: ir.KindString, Enum: []ir.EnumValue{{JSON: raw(`"asc"`)}, {JSON: raw(`"desc"`)}}}},
		}}
	point := &ir.Type{ID: "point", GoName: "Point", Kind: ir.KindTuple, RestForbidden: true,
		Prefix:      []*ir.Type{{Kind: ir.KindNumber}, {Kind: ir.KindNumber, Constraints: &ir.Constraints{Maximum: num("90")}}},
		Constraints: &ir.Constraints{MinItems: i64(2)}}
	meta := &ir.Type{ID: "meta", GoName: "Metadata", Kind: ir.KindObject, Extra: true, ExtraGoName: "Extra",
		Elem:        &ir.Type{Kind: ir.KindString, Constraints: &ir.Constraints{MaxLength: i64(10)}},
		Fields:      []*ir.Field{{JSONName: "Content-Type", GoName: "ContentType", Type: str()}},
		Constraints: &ir.Constraints{MaxProperties: i64(3)}}
	target := &ir.Type{ID: "target", GoName: "Target", Kind: ir.KindUnion, OneOf: true,
		Discriminator: &ir.Discriminator{Property: "kind", Values: []ir.DiscriminatorValue{{Value: "user", Branch: 0}, {Value: "team", Branch: 1}}}}
	userT, teamT := targetBranches()
	target.Branches = []*ir.Type{userT, teamT}
	node := &ir.Type{ID: "node", GoName: "Node", Kind: ir.KindObject}
	node.Fields = []*ir.Field{
		{JSONName: "name", GoName: "Name", Required: true, Type: &ir.Type{Kind: ir.KindString, Constraints: &ir.Constraints{MinLength: i64(1)}}},
		{JSONName: "children", GoName: "Children", Type: &ir.Type{Kind: ir.KindArray, Elem: node}},
	}
	createParams := &ir.Type{ID: "create_issue", GoName: "CreateIssueParams", Kind: ir.KindObject,
		Constraints: &ir.Constraints{DependentRequired: []ir.Dependency{{Property: "milestone", Requires: []string{"labels"}}}},
		Fields: []*ir.Field{
			{JSONName: "title", GoName: "Title", Required: true, Type: str()},
			{JSONName: "body", GoName: "Body", Required: true, Doc: "Body text; null for none.", Type: &ir.Type{Kind: ir.KindString, Nullable: true}},
			{JSONName: "assignee", GoName: "Assignee", Doc: "Login to assign; null clears.", Type: &ir.Type{Kind: ir.KindString, Nullable: true}},
			{JSONName: "labels", GoName: "Labels", Type: &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindString, Nullable: true}}},
			{JSONName: "milestone", GoName: "Milestone", Type: &ir.Type{Kind: ir.KindInteger}},
			{JSONName: "weight", GoName: "Weight", Type: &ir.Type{Kind: ir.KindNumber, Constraints: &ir.Constraints{MultipleOf: num("0.5"), ExclusiveMaximum: num("10")}}},
			{JSONName: "location", GoName: "Location", Type: point},
			{JSONName: "metadata", GoName: "Metadata", Type: meta},
			{JSONName: "target", GoName: "Target", Type: target},
			{JSONName: "scores", GoName: "Scores", Type: &ir.Type{Kind: ir.KindMap, Elem: &ir.Type{Kind: ir.KindInteger, Constraints: &ir.Constraints{Minimum: num("0")}}}},
			{JSONName: "extra", GoName: "Extra", Type: &ir.Type{Kind: ir.KindAny, Constraints: &ir.Constraints{Minimum: num("0"), MaxLength: i64(3)}}},
			{JSONName: "tree", GoName: "Tree", Type: node},
			{JSONName: "id", GoName: "ID", Type: &ir.Type{Kind: ir.KindString, Format: "uuid"}},
			{JSONName: "flags", GoName: "Flags", Default: raw(`["a"]`), Type: &ir.Type{Kind: ir.KindArray, Elem: str()}},
			{JSONName: "draft", GoName: "Draft", Default: raw(`false`), Type: &ir.Type{Kind: ir.KindBool}},
			{JSONName: "never", GoName: "Never", Type: &ir.Type{Kind: ir.KindNever}},
		}}
	result := &ir.Type{ID: "create_issue#result", GoName: "CreateIssueResult", Kind: ir.KindObject, Fields: []*ir.Field{
		{JSONName: "number", GoName: "Number", Required: true, Type: &ir.Type{Kind: ir.KindInteger}},
		{JSONName: "url", GoName: "URL", Type: &ir.Type{Kind: ir.KindString, Format: "uri"}},
	}}
	return &ir.Family{
		Package: "github",
		Sources: []string{"tools.json"},
		Tools: []*ir.Tool{
			{Name: "list_issues", GoName: "ListIssues", Description: "List issues in a repository.", Pos: pos("/0"), Params: listParams,
				ParamsSchema: raw(`{"type":"object","properties":{"owner":{"type":"string"}},"required":["owner","repo"]}`)},
			{Name: "create_issue", GoName: "CreateIssue", Description: "Create an issue.\nReturns its number.", Pos: pos("/1"), Params: createParams, Result: result,
				ParamsSchema: raw(`{"type":"object"}`)},
		},
		Types: []*ir.Type{listParams, state, milestone, createParams, point, meta, target, userT, teamT, node, result},
	}
}

// targetBranches are the branches of a union discriminated by "kind": a
// user (login) and a team (slug).
func targetBranches() (user, team *ir.Type) {
	str := func() *ir.Type { return &ir.Type{Kind: ir.KindString} }
	user = &ir.Type{ID: "user", GoName: "UserTarget", Kind: ir.KindObject, Fields: []*ir.Field{
		{JSONName: "kind", GoName: "Kind", Required: true, Type: &ir.Type{Kind: ir.KindConst, Const: raw(`"user"`)}},
		{JSONName: "login", GoName: "Login", Required: true, Type: str()}}}
	team = &ir.Type{ID: "team", GoName: "TeamTarget", Kind: ir.KindObject, Fields: []*ir.Field{
		{JSONName: "kind", GoName: "Kind", Required: true, Type: &ir.Type{Kind: ir.KindConst, Const: raw(`"team"`)}},
		{JSONName: "slug", GoName: "Slug", Required: true, Type: str()}}}
	return user, team
}
