package ontology

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// The entity kinds of the ontology.
const (
	KindProject     = "project"
	KindTask        = "task"
	KindGoal        = "goal"
	KindPlan        = "plan"
	KindDocument    = "document"
	KindMilestone   = "milestone"
	KindRisk        = "risk"
	KindRequirement = "requirement"
)

// allKinds is every kind, in the order search results are grouped.
var allKinds = []string{KindProject, KindTask, KindGoal, KindPlan, KindDocument, KindMilestone, KindRisk, KindRequirement}

// folderType is the type_key of documents that hold other documents.
const folderType = "document.folder"

// Entity is one node of the ontology. Every kind shares the struct; fields a
// kind does not use stay empty.
type Entity struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	ProjectID string `json:"project_id,omitempty"`
	// Title is the title of tasks, documents, milestones and risks, the
	// name of projects, goals and plans, and the text of requirements.
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Content     string `json:"content,omitempty"`
	TypeKey     string `json:"type_key,omitempty"`
	StateKey    string `json:"state_key,omitempty"`
	// ParentID is the folder of a document, the plan of a task and the
	// goal of a plan.
	ParentID    string  `json:"parent_id,omitempty"`
	GoalID      string  `json:"goal_id,omitempty"`  // tasks: the goal a task serves directly
	Priority    int64   `json:"priority,omitempty"` // tasks: 1 highest … 5 lowest
	MoSCoW      string  `json:"moscow,omitempty"`   // requirements: must, should, could, wont
	Due         string  `json:"due,omitempty"`      // due_at of tasks and milestones, target_date of goals
	Impact      string  `json:"impact,omitempty"`
	Probability float64 `json:"probability,omitempty"`
	Mitigation  string  `json:"mitigation,omitempty"`

	seq int64 // creation order: lists are newest first
	pos int   // order among siblings in the document tree
}

// Edge is a typed link between two entities.
type Edge struct {
	ID      string `json:"id"`
	SrcID   string `json:"src_id"`
	SrcKind string `json:"src_kind"`
	DstID   string `json:"dst_id"`
	DstKind string `json:"dst_kind"`
	Rel     string `json:"rel"`
}

// Attachment is a document in a task's workspace.
type Attachment struct {
	DocumentID string `json:"document_id"`
	Role       string `json:"role"`
}

// Store implements Handlers over a SQLite database (modernc.org/sqlite, no
// cgo): see OpenStore and NewStore. It is safe for concurrent use; calls
// run one at a time, each in its own transaction. Writes are atomic: a
// call that fails changes nothing. A dry run (gateway.DryRun) runs the
// write in its transaction, reports what it would do and rolls back. A
// write made under an idempotency key (gateway.IdempotencyKey) records
// its answer in the same transaction; a repeat of the key answers with it
// and writes nothing again, also after a crash and a restart.
type Store struct {
	mu       sync.Mutex
	db       *sql.DB
	readOnly bool
}

// SetReadOnly makes every write a PERMISSION_DENIED failure (the server's
// default without --allow-writes), whatever surface calls it.
func (s *Store) SetReadOnly(ro bool) {
	s.mu.Lock()
	s.readOnly = ro
	s.mu.Unlock()
}

var _ Handlers = (*Store)(nil)

// The ids of the demo project Seed adds (spec 004 §9: move the "API
// Spec" document under the "Engineering" folder).
const (
	DemoProjectID       = "3f2b8c1e-5d4a-4b6e-9c7f-1a2b3c4d5e6f"
	EngineeringFolderID = "7a1c2e3f-0000-4000-8000-0000000000aa"
	DesignFolderID      = "7a1c2e3f-0000-4000-8000-0000000000bb"
	APISpecID           = "7a1c2e3f-0000-4000-8000-000000000001"
	DemoGoalID          = "5b0e0000-0000-4000-8000-000000000001"
	DemoPlanID          = "5b0e0000-0000-4000-8000-000000000002"
	DemoTaskID          = "5b0e0000-0000-4000-8000-000000000003"
	DemoMilestoneID     = "5b0e0000-0000-4000-8000-000000000004"
	DemoRiskID          = "5b0e0000-0000-4000-8000-000000000005"
	DemoRequirementID   = "5b0e0000-0000-4000-8000-000000000006"
	DemoEdgeID          = "5b0e0000-0000-4000-8000-000000000007"
	DemoStagingTaskID   = "5b0e0000-0000-4000-8000-000000000008"
)

// Seed adds the demo project "BuildOS Launch" unless the database already
// holds it: a goal, a plan, three tasks, a milestone, a risk, a
// requirement, two folders with documents (the "API Spec" still at the
// root), and edges.
func (s *Store) Seed() error {
	_, err := s.do(context.Background(), true, func(t *txn) (string, any, error) {
		if t.entity(DemoProjectID) != nil {
			return "seeded", nil, nil
		}
		p := DemoProjectID
		for _, e := range []*Entity{
			{ID: p, Kind: KindProject, Title: "BuildOS Launch", Description: "Ship the public beta of BuildOS.", TypeKey: "project.software", StateKey: "active"},
			{ID: DemoGoalID, Kind: KindGoal, ProjectID: p, Title: "Ship public beta", StateKey: "active", Due: "2026-09-01"},
			{ID: DemoPlanID, Kind: KindPlan, ProjectID: p, Title: "Beta rollout", StateKey: "active", ParentID: DemoGoalID},
			{ID: DemoTaskID, Kind: KindTask, ProjectID: p, Title: "Write API documentation", StateKey: "todo", Priority: 2, ParentID: DemoPlanID, Due: "2026-07-15T17:00:00Z"},
			{ID: DemoStagingTaskID, Kind: KindTask, ProjectID: p, Title: "Set up staging environment", StateKey: "in_progress", Priority: 1, ParentID: DemoPlanID},
			{Kind: KindTask, ProjectID: p, Title: "Review security checklist", StateKey: "blocked", Priority: 3},
			{ID: DemoMilestoneID, Kind: KindMilestone, ProjectID: p, Title: "Beta launch", StateKey: "pending", Due: "2026-09-01T09:00:00Z"},
			{ID: DemoRiskID, Kind: KindRisk, ProjectID: p, Title: "Staging costs exceed budget", Impact: "medium", Probability: 0.3},
			{ID: DemoRequirementID, Kind: KindRequirement, ProjectID: p, Title: "API responses take under 200 ms", TypeKey: "requirement.non_functional", MoSCoW: "must"},
			{ID: EngineeringFolderID, Kind: KindDocument, ProjectID: p, Title: "Engineering", TypeKey: folderType, StateKey: "published"},
			{ID: DesignFolderID, Kind: KindDocument, ProjectID: p, Title: "Design", TypeKey: folderType, StateKey: "published"},
			{Kind: KindDocument, ProjectID: p, Title: "Architecture Overview", TypeKey: "document.spec", StateKey: "review", ParentID: EngineeringFolderID, Content: "# Architecture\n\nServices, storage and queues."},
			{ID: APISpecID, Kind: KindDocument, ProjectID: p, Title: "API Spec", TypeKey: "document.spec", StateKey: "draft", Content: "# API Spec\n\nEndpoints of the public API."},
		} {
			t.insert(e)
		}
		t.putEdge(&Edge{ID: DemoEdgeID, SrcID: APISpecID, SrcKind: KindDocument, DstID: DemoTaskID, DstKind: KindTask, Rel: "supports"})
		t.attach(DemoTaskID, Attachment{DocumentID: APISpecID, Role: "reference"})
		return "seeded", nil, nil
	})
	return err
}

// txn is one call's transaction with the queries the handlers share. A
// database failure panics with a dbError, which Store.do turns into an
// INTERNAL error after rolling back.
type txn struct {
	tx *sql.Tx
}

// do runs fn in a transaction and turns its outcome into a result. A read
// (write false) or a failure rolls back. A write commits, unless ctx is a
// dry run: then it rolls back and its message becomes "dry run: would …".
func (s *Store) do(ctx context.Context, write bool, fn func(t *txn) (string, any, error)) (res runtime.ToolResult[json.RawMessage], err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return res, runtime.Internal("database: %v", err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = tx.Rollback()
		}
		if p := recover(); p != nil {
			de, ok := p.(dbError)
			if !ok {
				panic(p)
			}
			res, err = runtime.ToolResult[json.RawMessage]{}, runtime.Internal("database: %v", de.err)
		}
	}()
	dry := write && gateway.DryRun(ctx)
	if write && s.readOnly && !dry {
		// A dry run writes nothing: the gateway allows it when writes are
		// not, and says so to the model.
		return res, runtime.PermissionDenied("writes are not allowed on this server (start it with --allow-writes); tell the user instead of retrying")
	}
	t := &txn{tx: tx}
	key := ""
	if write && !dry {
		key = gateway.IdempotencyKey(ctx)
	}
	if key != "" {
		if msg, raw, ok := t.applied(key); ok {
			return runtime.OK(raw, msg), nil
		}
	}
	msg, v, err := fn(t)
	if err != nil {
		return res, err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return res, err
	}
	switch {
	case dry:
		return runtime.OK(json.RawMessage(raw), "dry run: would "+msg), nil
	case !write:
		return runtime.OK(json.RawMessage(raw), msg), nil
	}
	if key != "" {
		t.recordApplied(key, msg, raw)
	}
	if err := tx.Commit(); err != nil {
		return res, runtime.Internal("database: %v", err)
	}
	committed = true
	return runtime.OK(json.RawMessage(raw), msg), nil
}

// read and write are do for reads and writes.
func (s *Store) read(fn func(t *txn) (string, any, error)) (runtime.ToolResult[json.RawMessage], error) {
	return s.do(context.Background(), false, fn)
}

func (s *Store) write(ctx context.Context, fn func(t *txn) (string, any, error)) (runtime.ToolResult[json.RawMessage], error) {
	return s.do(ctx, true, fn)
}

// entityCols are the columns of Entity, in scan order.
const entityCols = `id, kind, project_id, title, description, content, type_key, state_key, parent_id, goal_id, priority, moscow, due, impact, probability, mitigation, seq, pos`

// entities returns the entities a query over entityCols selects.
func (t *txn) entities(query string, args ...any) []*Entity {
	rows, err := t.tx.Query(`SELECT `+entityCols+` FROM entities `+query, args...)
	t.check(err)
	defer rows.Close()
	out := []*Entity{}
	for rows.Next() {
		e := &Entity{}
		t.check(rows.Scan(&e.ID, &e.Kind, &e.ProjectID, &e.Title, &e.Description, &e.Content, &e.TypeKey, &e.StateKey,
			&e.ParentID, &e.GoalID, &e.Priority, &e.MoSCoW, &e.Due, &e.Impact, &e.Probability, &e.Mitigation, &e.seq, &e.pos))
		out = append(out, e)
	}
	t.check(rows.Err())
	return out
}

// entity returns the entity id, or nil.
func (t *txn) entity(id string) *Entity {
	if id == "" {
		return nil
	}
	if es := t.entities(`WHERE id = ?`, id); len(es) > 0 {
		return es[0]
	}
	return nil
}

// next returns the next value of a counter.
func (t *txn) next(name string) int {
	var n int
	t.check(t.tx.QueryRow(`INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value`, name).Scan(&n))
	return n
}

// newID returns a fresh UUID-shaped id.
func (t *txn) newID() string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", t.next("id"))
}

// insert stores e, giving it an id when it has none and placing documents
// last among their siblings.
func (t *txn) insert(e *Entity) {
	if e.ID == "" {
		e.ID = t.newID()
	}
	e.seq = int64(t.next("seq"))
	e.pos = len(t.children(e.ParentID, e.ProjectID))
	t.exec(`INSERT INTO entities (`+entityCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.Kind, e.ProjectID, e.Title, e.Description, e.Content, e.TypeKey, e.StateKey,
		e.ParentID, e.GoalID, e.Priority, e.MoSCoW, e.Due, e.Impact, e.Probability, e.Mitigation, e.seq, e.pos)
}

// save writes every field of e.
func (t *txn) save(e *Entity) {
	t.exec(`UPDATE entities SET kind = ?, project_id = ?, title = ?, description = ?, content = ?, type_key = ?, state_key = ?,
		parent_id = ?, goal_id = ?, priority = ?, moscow = ?, due = ?, impact = ?, probability = ?, mitigation = ?, seq = ?, pos = ? WHERE id = ?`,
		e.Kind, e.ProjectID, e.Title, e.Description, e.Content, e.TypeKey, e.StateKey,
		e.ParentID, e.GoalID, e.Priority, e.MoSCoW, e.Due, e.Impact, e.Probability, e.Mitigation, e.seq, e.pos, e.ID)
}

// get returns the entity id of kind k, or NOT_FOUND naming the op that
// lists them.
func (t *txn) get(k, id string) (*Entity, error) {
	e := t.entity(id)
	if e == nil || e.Kind != k {
		return nil, runtime.NotFound("no %s %s; onto.%s.search or onto.%s.list shows the existing ids", k, id, k, k)
	}
	return e, nil
}

// anyKind returns the entity id of whatever kind, or NOT_FOUND.
func (t *txn) anyKind(id string) (*Entity, error) {
	e := t.entity(id)
	if e == nil {
		return nil, runtime.NotFound("no entity %s; onto.search finds entities by name", id)
	}
	return e, nil
}

// counts returns how many entities of each kind a project holds.
func (t *txn) counts(projectID string) map[string]int {
	rows, err := t.tx.Query(`SELECT kind, COUNT(*) FROM entities WHERE project_id = ? GROUP BY kind`, projectID)
	t.check(err)
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		t.check(rows.Scan(&k, &n))
		out[k] = n
	}
	t.check(rows.Err())
	return out
}

// edges returns the edges a query selects.
func (t *txn) edges(query string, args ...any) []*Edge {
	rows, err := t.tx.Query(`SELECT id, src_id, src_kind, dst_id, dst_kind, rel FROM edges `+query, args...)
	t.check(err)
	defer rows.Close()
	out := []*Edge{}
	for rows.Next() {
		e := &Edge{}
		t.check(rows.Scan(&e.ID, &e.SrcID, &e.SrcKind, &e.DstID, &e.DstKind, &e.Rel))
		out = append(out, e)
	}
	t.check(rows.Err())
	return out
}

func (t *txn) putEdge(e *Edge) {
	t.exec(`INSERT INTO edges (id, src_id, src_kind, dst_id, dst_kind, rel) VALUES (?, ?, ?, ?, ?, ?)`, e.ID, e.SrcID, e.SrcKind, e.DstID, e.DstKind, e.Rel)
}

// attachments returns the workspace documents of a task, in attach order.
func (t *txn) attachments(taskID string) []Attachment {
	rows, err := t.tx.Query(`SELECT document_id, role FROM attachments WHERE task_id = ? ORDER BY seq`, taskID)
	t.check(err)
	defer rows.Close()
	out := []Attachment{}
	for rows.Next() {
		var a Attachment
		t.check(rows.Scan(&a.DocumentID, &a.Role))
		out = append(out, a)
	}
	t.check(rows.Err())
	return out
}

func (t *txn) attach(taskID string, a Attachment) {
	t.exec(`INSERT INTO attachments (task_id, document_id, role, seq) VALUES (?, ?, ?, ?)`, taskID, a.DocumentID, a.Role, t.next("seq"))
}

// filter selects entities; empty fields match everything.
type filter struct {
	kinds                       []string
	project, state, typ, impact string
	text                        string // case-insensitive substring of the title
	noun                        string // how the message names a result
}

// where returns f as an SQL condition and its arguments.
func (f filter) where() (string, []any) {
	var conds []string
	var args []any
	marks := make([]string, len(f.kinds))
	for i, k := range f.kinds {
		marks[i] = "?"
		args = append(args, k)
	}
	conds = append(conds, "kind IN ("+strings.Join(marks, ", ")+")")
	if f.project != "" {
		conds = append(conds, "(project_id = ? OR (id = ? AND kind = 'project'))")
		args = append(args, f.project, f.project)
	}
	for _, c := range []struct{ col, v string }{{"state_key", f.state}, {"type_key", f.typ}, {"impact", f.impact}} {
		if c.v != "" {
			conds = append(conds, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	if f.text != "" {
		conds = append(conds, "instr(lower(title), ?) > 0")
		args = append(args, strings.ToLower(f.text))
	}
	return "WHERE " + strings.Join(conds, " AND "), args
}

// of is the filter of one kind, scoped to a project when projectID is set.
func of(k string, projectID *string) filter {
	return filter{kinds: []string{k}, project: str(projectID), noun: k}
}

// list serves the list and search ops: the entities f keeps, newest first,
// at most limit.
func (s *Store) list(f filter, limit int64) (runtime.ToolResult[json.RawMessage], error) {
	return s.read(func(t *txn) (string, any, error) {
		if f.project != "" {
			if _, err := t.get(KindProject, f.project); err != nil {
				return "", nil, err
			}
		}
		where, args := f.where()
		out := t.entities(where+" ORDER BY seq DESC LIMIT ?", append(args, limit)...)
		return count(len(out), f.noun), out, nil
	})
}

// details serves the get ops: the entity, its children (folder contents,
// a plan's tasks, a goal's plans; a project's entities by kind), its edges
// and, for documents, its path in the tree.
func (s *Store) details(k, id string) (runtime.ToolResult[json.RawMessage], error) {
	return s.read(func(t *txn) (string, any, error) {
		e, err := t.get(k, id)
		if err != nil {
			return "", nil, err
		}
		d := struct {
			*Entity
			Children []*Entity      `json:"children,omitempty"`
			Counts   map[string]int `json:"counts,omitempty"`
			Edges    []*Edge        `json:"edges"`
			Path     []*Entity      `json:"path,omitempty"`
		}{Entity: e, Edges: t.edgesOf(id, "both")}
		switch k {
		case KindProject:
			d.Counts = t.counts(id)
		case KindDocument:
			d.Path = t.path(e)
		}
		if k != KindProject {
			d.Children = t.children(id, e.ProjectID)
		}
		return "found " + k + " " + e.Title, d, nil
	})
}

// update serves the update ops: sets change the entity, which is saved.
func (s *Store) update(ctx context.Context, k, id string, sets ...func(*Entity)) (runtime.ToolResult[json.RawMessage], error) {
	return s.write(ctx, func(t *txn) (string, any, error) {
		e, err := t.get(k, id)
		if err != nil {
			return "", nil, err
		}
		for _, set := range sets {
			set(e)
		}
		t.save(e)
		return "update " + k + " " + id, e, nil
	})
}

// remove serves the delete ops; the entity's edges and task attachments go
// with it, and the plans of a goal and the tasks of a plan are detached.
// A folder that still holds documents is a CONFLICT.
func (s *Store) remove(ctx context.Context, k, id string) (runtime.ToolResult[json.RawMessage], error) {
	return s.write(ctx, func(t *txn) (string, any, error) {
		e, err := t.get(k, id)
		if err != nil {
			return "", nil, err
		}
		if kids := t.children(id, e.ProjectID); k == KindDocument && len(kids) > 0 {
			return "", nil, runtime.Conflict("folder %s still holds %s; move or delete them first", e.Title, count(len(kids), "document"))
		}
		t.exec(`DELETE FROM entities WHERE id = ?`, id)
		t.exec(`UPDATE entities SET parent_id = '' WHERE parent_id = ?`, id)
		t.exec(`UPDATE entities SET goal_id = '' WHERE goal_id = ?`, id)
		t.exec(`DELETE FROM edges WHERE src_id = ? OR dst_id = ?`, id, id)
		t.exec(`DELETE FROM attachments WHERE task_id = ? OR document_id = ?`, id, id)
		return "delete " + k + " " + id, map[string]string{"deleted": id, "kind": k}, nil
	})
}

// created is the result of the create ops: the new entity, with the goals
// created with a project.
type created struct {
	*Entity
	Goals []*Entity `json:"goals,omitempty"`
}

// create serves the create ops: e goes into its project, then each of
// more (goals of a new project). An entity of the same kind and title in
// the project is a CONFLICT.
func (s *Store) create(ctx context.Context, e *Entity, more ...*Entity) (runtime.ToolResult[json.RawMessage], error) {
	return s.write(ctx, func(t *txn) (string, any, error) {
		if err := t.checkNew(e); err != nil {
			return "", nil, err
		}
		t.insert(e)
		for _, m := range more {
			m.ProjectID = e.ID
			if err := t.checkNew(m); err != nil {
				return "", nil, err
			}
			t.insert(m)
		}
		return "create " + e.Kind + " " + e.Title, created{e, more}, nil
	})
}

// checkNew reports what stops e from being created: a missing project or
// parent, or a duplicate title.
func (t *txn) checkNew(e *Entity) error {
	if e.Kind != KindProject {
		if _, err := t.get(KindProject, e.ProjectID); err != nil {
			return err
		}
	}
	if e.ParentID != "" {
		if err := t.checkParent(e, e.ParentID); err != nil {
			return err
		}
	}
	if e.GoalID != "" {
		if g, err := t.get(KindGoal, e.GoalID); err != nil || g.ProjectID != e.ProjectID {
			return runtime.NotFound("no goal %s in project %s; onto.goal.list shows them", e.GoalID, e.ProjectID)
		}
	}
	if x := t.entities(`WHERE kind = ? AND project_id = ? AND lower(title) = lower(?)`, e.Kind, e.ProjectID, e.Title); len(x) > 0 {
		return runtime.Conflict("%s %s already exists with this title; update it instead of creating another", e.Kind, x[0].ID)
	}
	return nil
}

// parentKind is the kind a kind's ParentID refers to.
var parentKind = map[string]string{KindTask: KindPlan, KindPlan: KindGoal, KindDocument: KindDocument}

// checkParent reports whether parentID can hold e: an entity of the right
// kind in e's project (a folder, for documents), not e nor below e.
func (t *txn) checkParent(e *Entity, parentID string) error {
	want, ok := parentKind[e.Kind]
	if !ok {
		return runtime.Invalid("a %s has no parent; only tasks (under plans), plans (under goals) and documents (under folders) move", e.Kind)
	}
	p, err := t.get(want, parentID)
	if err != nil {
		return err
	}
	switch {
	case p.ProjectID != e.ProjectID:
		return runtime.Invalid("%s %s belongs to another project", want, parentID)
	case want == KindDocument && p.TypeKey != folderType:
		return runtime.Invalid("document %s (%s) is not a folder; onto.document.tree.get lists the folders", p.Title, p.TypeKey)
	}
	for x, n := p, 0; x != nil && n < 10000; x, n = t.entity(x.ParentID), n+1 {
		if x.ID == e.ID && e.ID != "" {
			return runtime.Conflict("cannot move %s under itself or its own descendant %s", e.Title, p.Title)
		}
	}
	return nil
}

// children returns the entities directly under parentID in a project, in
// tree order; parentID "" gives the root documents.
func (t *txn) children(parentID, projectID string) []*Entity {
	if parentID == "" {
		return t.entities(`WHERE parent_id = '' AND project_id = ? AND kind = 'document' ORDER BY pos, seq`, projectID)
	}
	return t.entities(`WHERE parent_id = ? AND project_id = ? ORDER BY pos, seq`, parentID, projectID)
}

// reparent moves e under parentID ("" is the root) at position (nil: last),
// renumbering the new siblings.
func (t *txn) reparent(e *Entity, parentID string, position *int64) {
	sibs := slices.DeleteFunc(t.children(parentID, e.ProjectID), func(x *Entity) bool { return x.ID == e.ID })
	at := len(sibs)
	if position != nil && int(*position) < at {
		at = int(*position)
	}
	e.ParentID = parentID
	for i, x := range slices.Insert(sibs, at, e) {
		x.pos = i
		if x == e {
			t.exec(`UPDATE entities SET parent_id = ?, pos = ? WHERE id = ?`, parentID, i, x.ID)
		} else {
			t.exec(`UPDATE entities SET pos = ? WHERE id = ?`, i, x.ID)
		}
	}
}

// path returns the folders from the root down to e, then e.
func (t *txn) path(e *Entity) []*Entity {
	var out []*Entity
	for x := e; x != nil && len(out) < 10000; x = t.entity(x.ParentID) {
		out = append(out, x)
	}
	slices.Reverse(out)
	return out
}

// treeNode is a node of the document tree.
type treeNode struct {
	ID       string      `json:"id"`
	Title    string      `json:"title"`
	TypeKey  string      `json:"type_key"`
	Children []*treeNode `json:"children,omitempty"`
}

// tree returns the documents under parentID down to depth levels, folders
// only unless docs.
func (t *txn) tree(parentID, projectID string, docs bool, depth int64) []*treeNode {
	out := []*treeNode{}
	if depth == 0 {
		return out
	}
	for _, e := range t.children(parentID, projectID) {
		if e.TypeKey == folderType || docs {
			out = append(out, &treeNode{e.ID, e.Title, e.TypeKey, t.tree(e.ID, projectID, docs, depth-1)})
		}
	}
	return out
}

// edgesOf returns the edges of id in direction in, out or both.
func (t *txn) edgesOf(id, direction string) []*Edge {
	switch direction {
	case "in":
		return t.edges(`WHERE dst_id = ? ORDER BY id`, id)
	case "out":
		return t.edges(`WHERE src_id = ? ORDER BY id`, id)
	}
	return t.edges(`WHERE src_id = ? OR dst_id = ? ORDER BY id`, id, id)
}

// str is the string behind an optional string or enum argument, "" when
// absent.
func str[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

// set assigns an optional string or enum argument when present.
func set[T ~string](dst *string, p *T) {
	if p != nil {
		*dst = string(*p)
	}
}

// edits sets the fields most update ops share: title (or name),
// description and state, each when present.
func edits[T ~string](title, description *string, state *T) func(*Entity) {
	return func(e *Entity) {
		set(&e.Title, title)
		set(&e.Description, description)
		set(&e.StateKey, state)
	}
}

// setNullable assigns a nullable argument: null clears, absent keeps.
func setNullable(dst *string, v runtime.Nullable[string]) {
	if v.IsNull() {
		*dst = ""
	} else if x, present := v.Get(); present {
		*dst = x
	}
}

// setNum assigns an optional number argument when present.
func setNum[T int64 | float64](dst *T, p *T) {
	if p != nil {
		*dst = *p
	}
}

// count is "1 task", "2 tasks", "3 entities".
func count(n int, noun string) string {
	switch {
	case n == 1:
	case strings.HasSuffix(noun, "y"):
		noun = strings.TrimSuffix(noun, "y") + "ies"
	default:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}
