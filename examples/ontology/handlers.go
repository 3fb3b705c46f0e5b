package ontology

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// The handlers below are thin: each maps its params onto the store's
// generic list, details, create, update and remove (store.go), or onto a
// tree, graph or link operation. Lists, searches, paths and trees return
// json.RawMessage; the other results have a result_schema in the manifest
// and the generated types typed() converts to (served as MCP outputSchema
// and structuredContent).

// ListOntoTasks serves list_onto_tasks.
func (s *Store) ListOntoTasks(ctx context.Context, tc runtime.ToolContext, p *ListOntoTasksParams) (runtime.ToolResult[ListOntoTasksResult], error) {
	f := of(KindTask, p.ProjectID)
	f.state = str(p.StateKey)
	return s.list(f, p.Limit)
}

// ListOntoGoals serves list_onto_goals.
func (s *Store) ListOntoGoals(ctx context.Context, tc runtime.ToolContext, p *ListOntoGoalsParams) (runtime.ToolResult[ListOntoGoalsResult], error) {
	f := of(KindGoal, p.ProjectID)
	f.state = str(p.StateKey)
	return s.list(f, p.Limit)
}

// ListOntoDocuments serves list_onto_documents.
func (s *Store) ListOntoDocuments(ctx context.Context, tc runtime.ToolContext, p *ListOntoDocumentsParams) (runtime.ToolResult[ListOntoDocumentsResult], error) {
	f := of(KindDocument, p.ProjectID)
	f.state, f.typ = str(p.StateKey), str(p.TypeKey)
	return s.list(f, p.Limit)
}

// ListOntoMilestones serves list_onto_milestones.
func (s *Store) ListOntoMilestones(ctx context.Context, tc runtime.ToolContext, p *ListOntoMilestonesParams) (runtime.ToolResult[ListOntoMilestonesResult], error) {
	return s.list(of(KindMilestone, p.ProjectID), p.Limit)
}

// ListOntoRisks serves list_onto_risks.
func (s *Store) ListOntoRisks(ctx context.Context, tc runtime.ToolContext, p *ListOntoRisksParams) (runtime.ToolResult[ListOntoRisksResult], error) {
	f := of(KindRisk, p.ProjectID)
	f.impact = str(p.Impact)
	return s.list(f, p.Limit)
}

// ListOntoRequirements serves list_onto_requirements.
func (s *Store) ListOntoRequirements(ctx context.Context, tc runtime.ToolContext, p *ListOntoRequirementsParams) (runtime.ToolResult[ListOntoRequirementsResult], error) {
	f := of(KindRequirement, p.ProjectID)
	f.typ = str(p.TypeKey)
	return s.list(f, p.Limit)
}

// ListOntoPlans serves list_onto_plans.
func (s *Store) ListOntoPlans(ctx context.Context, tc runtime.ToolContext, p *ListOntoPlansParams) (runtime.ToolResult[ListOntoPlansResult], error) {
	return s.list(of(KindPlan, p.ProjectID), p.Limit)
}

// ListOntoProjects serves list_onto_projects.
func (s *Store) ListOntoProjects(ctx context.Context, tc runtime.ToolContext, p *ListOntoProjectsParams) (runtime.ToolResult[ListOntoProjectsResult], error) {
	f := of(KindProject, nil)
	f.state, f.typ = str(p.StateKey), str(p.TypeKey)
	return s.list(f, p.Limit)
}

// ListTaskDocuments serves list_task_documents: the task's workspace
// documents with their roles.
func (s *Store) ListTaskDocuments(ctx context.Context, tc runtime.ToolContext, p *ListTaskDocumentsParams) (runtime.ToolResult[ListTaskDocumentsResult], error) {
	return s.read(func(t *txn) (string, any, error) {
		if _, err := t.get(KindTask, p.TaskID); err != nil {
			return "", nil, err
		}
		type doc struct {
			*Entity
			Role string `json:"role"`
		}
		out := []doc{}
		for _, a := range t.attachments(p.TaskID) {
			if d := t.entity(a.DocumentID); d != nil {
				out = append(out, doc{d, a.Role})
			}
		}
		return count(len(out), "document"), out, nil
	})
}

// SearchOntoTasks serves search_onto_tasks.
func (s *Store) SearchOntoTasks(ctx context.Context, tc runtime.ToolContext, p *SearchOntoTasksParams) (runtime.ToolResult[SearchOntoTasksResult], error) {
	f := of(KindTask, p.ProjectID)
	f.text, f.state = p.Search, str(p.StateKey)
	return s.list(f, p.Limit)
}

// SearchOntoProjects serves search_onto_projects.
func (s *Store) SearchOntoProjects(ctx context.Context, tc runtime.ToolContext, p *SearchOntoProjectsParams) (runtime.ToolResult[SearchOntoProjectsResult], error) {
	f := of(KindProject, nil)
	f.text = p.Search
	return s.list(f, p.Limit)
}

// SearchOntoDocuments serves search_onto_documents.
func (s *Store) SearchOntoDocuments(ctx context.Context, tc runtime.ToolContext, p *SearchOntoDocumentsParams) (runtime.ToolResult[SearchOntoDocumentsResult], error) {
	f := of(KindDocument, p.ProjectID)
	f.text, f.typ = p.Search, str(p.TypeKey)
	return s.list(f, p.Limit)
}

// SearchOntology serves search_ontology: every kind, or those in types.
func (s *Store) SearchOntology(ctx context.Context, tc runtime.ToolContext, p *SearchOntologyParams) (runtime.ToolResult[SearchOntologyResult], error) {
	f := filter{kinds: allKinds, project: str(p.ProjectID), text: p.Query, noun: "entity"}
	if len(p.Types) > 0 {
		f.kinds = nil
		for _, t := range p.Types {
			f.kinds = append(f.kinds, string(t))
		}
	}
	return s.list(f, p.Limit)
}

// GetOntoProjectDetails serves get_onto_project_details.
func (s *Store) GetOntoProjectDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoProjectDetailsParams) (runtime.ToolResult[GetOntoProjectDetailsResult], error) {
	return typed[GetOntoProjectDetailsResult](s.details(KindProject, p.ProjectID))
}

// GetOntoProjectGraph serves get_onto_project_graph: the project's entities
// (documents only when asked) and the edges among them.
func (s *Store) GetOntoProjectGraph(ctx context.Context, tc runtime.ToolContext, p *GetOntoProjectGraphParams) (runtime.ToolResult[GetOntoProjectGraphResult], error) {
	return typed[GetOntoProjectGraphResult](s.read(func(t *txn) (string, any, error) {
		if _, err := t.get(KindProject, p.ProjectID); err != nil {
			return "", nil, err
		}
		g := struct {
			Nodes []*Entity `json:"nodes"`
			Edges []*Edge   `json:"edges"`
		}{Edges: []*Edge{}}
		in := map[string]bool{}
		for _, e := range t.entities(`WHERE (project_id = ? OR id = ?) AND (kind <> 'document' OR ?) ORDER BY seq`, p.ProjectID, p.ProjectID, p.IncludeDocuments) {
			g.Nodes = append(g.Nodes, e)
			in[e.ID] = true
		}
		for _, e := range t.edges(`WHERE src_id IN (SELECT id FROM entities WHERE project_id = ? OR id = ?) ORDER BY id`, p.ProjectID, p.ProjectID) {
			if in[e.SrcID] && in[e.DstID] {
				g.Edges = append(g.Edges, e)
			}
		}
		return count(len(g.Nodes), "node") + ", " + count(len(g.Edges), "edge"), g, nil
	}))
}

// GetOntoTaskDetails serves get_onto_task_details.
func (s *Store) GetOntoTaskDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoTaskDetailsParams) (runtime.ToolResult[GetOntoTaskDetailsResult], error) {
	return typed[GetOntoTaskDetailsResult](s.details(KindTask, p.TaskID))
}

// GetOntoGoalDetails serves get_onto_goal_details.
func (s *Store) GetOntoGoalDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoGoalDetailsParams) (runtime.ToolResult[GetOntoGoalDetailsResult], error) {
	return typed[GetOntoGoalDetailsResult](s.details(KindGoal, p.GoalID))
}

// GetOntoPlanDetails serves get_onto_plan_details.
func (s *Store) GetOntoPlanDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoPlanDetailsParams) (runtime.ToolResult[GetOntoPlanDetailsResult], error) {
	return typed[GetOntoPlanDetailsResult](s.details(KindPlan, p.PlanID))
}

// GetOntoDocumentDetails serves get_onto_document_details.
func (s *Store) GetOntoDocumentDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoDocumentDetailsParams) (runtime.ToolResult[GetOntoDocumentDetailsResult], error) {
	return typed[GetOntoDocumentDetailsResult](s.details(KindDocument, p.DocumentID))
}

// GetOntoMilestoneDetails serves get_onto_milestone_details.
func (s *Store) GetOntoMilestoneDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoMilestoneDetailsParams) (runtime.ToolResult[GetOntoMilestoneDetailsResult], error) {
	return typed[GetOntoMilestoneDetailsResult](s.details(KindMilestone, p.MilestoneID))
}

// GetOntoRiskDetails serves get_onto_risk_details.
func (s *Store) GetOntoRiskDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoRiskDetailsParams) (runtime.ToolResult[GetOntoRiskDetailsResult], error) {
	return typed[GetOntoRiskDetailsResult](s.details(KindRisk, p.RiskID))
}

// GetOntoRequirementDetails serves get_onto_requirement_details.
func (s *Store) GetOntoRequirementDetails(ctx context.Context, tc runtime.ToolContext, p *GetOntoRequirementDetailsParams) (runtime.ToolResult[GetOntoRequirementDetailsResult], error) {
	return typed[GetOntoRequirementDetailsResult](s.details(KindRequirement, p.RequirementID))
}

// GetDocumentTree serves get_document_tree.
func (s *Store) GetDocumentTree(ctx context.Context, tc runtime.ToolContext, p *GetDocumentTreeParams) (runtime.ToolResult[GetDocumentTreeResult], error) {
	return s.read(func(t *txn) (string, any, error) {
		if _, err := t.get(KindProject, p.ProjectID); err != nil {
			return "", nil, err
		}
		depth := int64(-1) // unlimited
		setNum(&depth, p.MaxDepth)
		return "document tree", t.tree("", p.ProjectID, p.IncludeDocuments, depth), nil
	})
}

// GetDocumentPath serves get_document_path.
func (s *Store) GetDocumentPath(ctx context.Context, tc runtime.ToolContext, p *GetDocumentPathParams) (runtime.ToolResult[GetDocumentPathResult], error) {
	return s.read(func(t *txn) (string, any, error) {
		e, err := t.get(KindDocument, p.DocumentID)
		if err != nil {
			return "", nil, err
		}
		return "path of " + e.Title, t.path(e), nil
	})
}

// GetEntityRelationships serves get_entity_relationships.
func (s *Store) GetEntityRelationships(ctx context.Context, tc runtime.ToolContext, p *GetEntityRelationshipsParams) (runtime.ToolResult[GetEntityRelationshipsResult], error) {
	return s.read(func(t *txn) (string, any, error) {
		if _, err := t.get(string(p.EntityKind), p.EntityID); err != nil {
			return "", nil, err
		}
		edges := t.edgesOf(p.EntityID, string(p.Direction))
		return count(len(edges), "edge"), edges, nil
	})
}

// GetLinkedEntities serves get_linked_entities: the other end of each edge.
func (s *Store) GetLinkedEntities(ctx context.Context, tc runtime.ToolContext, p *GetLinkedEntitiesParams) (runtime.ToolResult[GetLinkedEntitiesResult], error) {
	return s.read(func(t *txn) (string, any, error) {
		if _, err := t.get(string(p.EntityKind), p.EntityID); err != nil {
			return "", nil, err
		}
		out := []*Entity{}
		for _, e := range t.edgesOf(p.EntityID, "both") {
			other := e.DstID
			if other == p.EntityID {
				other = e.SrcID
			}
			if x := t.entity(other); x != nil && (p.FilterKind == nil || x.Kind == string(*p.FilterKind)) {
				out = append(out, x)
			}
		}
		return count(len(out), "linked entity"), out, nil
	})
}

// CreateOntoTask serves create_onto_task.
func (s *Store) CreateOntoTask(ctx context.Context, tc runtime.ToolContext, p *CreateOntoTaskParams) (runtime.ToolResult[CreateOntoTaskResult], error) {
	e := &Entity{Kind: KindTask, ProjectID: p.ProjectID, Title: p.Title, StateKey: string(p.StateKey), Priority: p.Priority}
	set(&e.Description, p.Description)
	set(&e.Due, p.DueAt)
	set(&e.ParentID, p.PlanID)
	set(&e.GoalID, p.GoalID)
	return typed[CreateOntoTaskResult](s.create(ctx, e))
}

// CreateOntoGoal serves create_onto_goal.
func (s *Store) CreateOntoGoal(ctx context.Context, tc runtime.ToolContext, p *CreateOntoGoalParams) (runtime.ToolResult[CreateOntoGoalResult], error) {
	e := &Entity{Kind: KindGoal, ProjectID: p.ProjectID, Title: p.Name, StateKey: "draft"}
	set(&e.Description, p.Description)
	set(&e.Due, p.TargetDate)
	return typed[CreateOntoGoalResult](s.create(ctx, e))
}

// CreateOntoPlan serves create_onto_plan.
func (s *Store) CreateOntoPlan(ctx context.Context, tc runtime.ToolContext, p *CreateOntoPlanParams) (runtime.ToolResult[CreateOntoPlanResult], error) {
	e := &Entity{Kind: KindPlan, ProjectID: p.ProjectID, Title: p.Name, StateKey: "draft"}
	set(&e.Description, p.Description)
	set(&e.ParentID, p.GoalID)
	return typed[CreateOntoPlanResult](s.create(ctx, e))
}

// CreateOntoDocument serves create_onto_document.
func (s *Store) CreateOntoDocument(ctx context.Context, tc runtime.ToolContext, p *CreateOntoDocumentParams) (runtime.ToolResult[CreateOntoDocumentResult], error) {
	e := &Entity{Kind: KindDocument, ProjectID: p.ProjectID, Title: p.Title, TypeKey: p.TypeKey, StateKey: "draft"}
	set(&e.Content, p.Content)
	set(&e.ParentID, p.ParentID)
	return typed[CreateOntoDocumentResult](s.create(ctx, e))
}

// CreateOntoProject serves create_onto_project, with its initial goals.
func (s *Store) CreateOntoProject(ctx context.Context, tc runtime.ToolContext, p *CreateOntoProjectParams) (runtime.ToolResult[CreateOntoProjectResult], error) {
	e := &Entity{Kind: KindProject, Title: p.Name, StateKey: string(p.StateKey)}
	set(&e.Description, p.Description)
	set(&e.TypeKey, p.TypeKey)
	var goals []*Entity
	for _, g := range p.Goals {
		goals = append(goals, &Entity{Kind: KindGoal, Title: g, StateKey: "draft"})
	}
	return typed[CreateOntoProjectResult](s.create(ctx, e, goals...))
}

// CreateTaskDocument serves create_task_document: attaches document_id to
// the task, or creates a document in the task's project and attaches it.
func (s *Store) CreateTaskDocument(ctx context.Context, tc runtime.ToolContext, p *CreateTaskDocumentParams) (runtime.ToolResult[CreateTaskDocumentResult], error) {
	return typed[CreateTaskDocumentResult](s.write(ctx, func(t *txn) (string, any, error) {
		task, err := t.get(KindTask, p.TaskID)
		if err != nil {
			return "", nil, err
		}
		var d *Entity
		switch {
		case p.DocumentID != nil:
			if d, err = t.get(KindDocument, *p.DocumentID); err != nil {
				return "", nil, err
			}
			if slices.ContainsFunc(t.attachments(task.ID), func(a Attachment) bool { return a.DocumentID == d.ID }) {
				return "", nil, runtime.Conflict("document %s is already attached to task %s", d.ID, task.ID)
			}
		case p.Title == nil:
			return "", nil, runtime.Invalid("pass document_id to attach an existing document, or title (and content) to create one")
		default:
			d = &Entity{Kind: KindDocument, ProjectID: task.ProjectID, Title: *p.Title, TypeKey: "document.task", StateKey: "draft"}
			set(&d.Content, p.Content)
			if err := t.checkNew(d); err != nil {
				return "", nil, err
			}
			t.insert(d)
		}
		a := Attachment{DocumentID: d.ID, Role: string(p.Role)}
		t.attach(task.ID, a)
		return fmt.Sprintf("attach %s to task %s as %s", d.Title, task.Title, a.Role), map[string]any{"task_id": task.ID, "document": d, "role": a.Role}, nil
	}))
}

// UpdateOntoTask serves update_onto_task.
func (s *Store) UpdateOntoTask(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoTaskParams) (runtime.ToolResult[UpdateOntoTaskResult], error) {
	return typed[UpdateOntoTaskResult](s.update(ctx, KindTask, p.TaskID, edits(p.Title, p.Description, p.StateKey), func(e *Entity) {
		setNum(&e.Priority, p.Priority)
		setNullable(&e.Due, p.DueAt)
	}))
}

// UpdateOntoProject serves update_onto_project.
func (s *Store) UpdateOntoProject(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoProjectParams) (runtime.ToolResult[UpdateOntoProjectResult], error) {
	return typed[UpdateOntoProjectResult](s.update(ctx, KindProject, p.ProjectID, edits(p.Name, p.Description, p.StateKey)))
}

// UpdateOntoGoal serves update_onto_goal.
func (s *Store) UpdateOntoGoal(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoGoalParams) (runtime.ToolResult[UpdateOntoGoalResult], error) {
	return typed[UpdateOntoGoalResult](s.update(ctx, KindGoal, p.GoalID, edits(p.Name, p.Description, p.StateKey), func(e *Entity) { setNullable(&e.Due, p.TargetDate) }))
}

// UpdateOntoPlan serves update_onto_plan.
func (s *Store) UpdateOntoPlan(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoPlanParams) (runtime.ToolResult[UpdateOntoPlanResult], error) {
	return typed[UpdateOntoPlanResult](s.update(ctx, KindPlan, p.PlanID, edits(p.Name, p.Description, p.StateKey)))
}

// UpdateOntoDocument serves update_onto_document.
func (s *Store) UpdateOntoDocument(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoDocumentParams) (runtime.ToolResult[UpdateOntoDocumentResult], error) {
	return typed[UpdateOntoDocumentResult](s.update(ctx, KindDocument, p.DocumentID, edits(p.Title, nil, p.StateKey), func(e *Entity) { set(&e.Content, p.Content) }))
}

// UpdateOntoMilestone serves update_onto_milestone.
func (s *Store) UpdateOntoMilestone(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoMilestoneParams) (runtime.ToolResult[UpdateOntoMilestoneResult], error) {
	return typed[UpdateOntoMilestoneResult](s.update(ctx, KindMilestone, p.MilestoneID, edits(p.Title, nil, p.StateKey), func(e *Entity) { setNullable(&e.Due, p.DueAt) }))
}

// UpdateOntoRisk serves update_onto_risk.
func (s *Store) UpdateOntoRisk(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoRiskParams) (runtime.ToolResult[UpdateOntoRiskResult], error) {
	return typed[UpdateOntoRiskResult](s.update(ctx, KindRisk, p.RiskID, func(e *Entity) {
		set(&e.Title, p.Title)
		set(&e.Impact, p.Impact)
		setNum(&e.Probability, p.Probability)
		set(&e.Mitigation, p.Mitigation)
	}))
}

// UpdateOntoRequirement serves update_onto_requirement.
func (s *Store) UpdateOntoRequirement(ctx context.Context, tc runtime.ToolContext, p *UpdateOntoRequirementParams) (runtime.ToolResult[UpdateOntoRequirementResult], error) {
	return typed[UpdateOntoRequirementResult](s.update(ctx, KindRequirement, p.RequirementID, func(e *Entity) {
		set(&e.Title, p.Text)
		set(&e.MoSCoW, p.Priority)
	}))
}

// DeleteOntoTask serves delete_onto_task.
func (s *Store) DeleteOntoTask(ctx context.Context, tc runtime.ToolContext, p *DeleteOntoTaskParams) (runtime.ToolResult[DeleteOntoTaskResult], error) {
	return typed[DeleteOntoTaskResult](s.remove(ctx, KindTask, p.TaskID))
}

// DeleteOntoDocument serves delete_onto_document.
func (s *Store) DeleteOntoDocument(ctx context.Context, tc runtime.ToolContext, p *DeleteOntoDocumentParams) (runtime.ToolResult[DeleteOntoDocumentResult], error) {
	return typed[DeleteOntoDocumentResult](s.remove(ctx, KindDocument, p.DocumentID))
}

// DeleteOntoGoal serves delete_onto_goal.
func (s *Store) DeleteOntoGoal(ctx context.Context, tc runtime.ToolContext, p *DeleteOntoGoalParams) (runtime.ToolResult[DeleteOntoGoalResult], error) {
	return typed[DeleteOntoGoalResult](s.remove(ctx, KindGoal, p.GoalID))
}

// DeleteOntoPlan serves delete_onto_plan.
func (s *Store) DeleteOntoPlan(ctx context.Context, tc runtime.ToolContext, p *DeleteOntoPlanParams) (runtime.ToolResult[DeleteOntoPlanResult], error) {
	return typed[DeleteOntoPlanResult](s.remove(ctx, KindPlan, p.PlanID))
}

// LinkOntoEntities serves link_onto_entities; an identical edge is a
// CONFLICT.
func (s *Store) LinkOntoEntities(ctx context.Context, tc runtime.ToolContext, p *LinkOntoEntitiesParams) (runtime.ToolResult[LinkOntoEntitiesResult], error) {
	return typed[LinkOntoEntitiesResult](s.write(ctx, func(t *txn) (string, any, error) {
		e := &Edge{SrcID: p.SrcID, SrcKind: string(p.SrcKind), DstID: p.DstID, DstKind: string(p.DstKind), Rel: string(p.Rel)}
		for _, end := range [][2]string{{e.SrcKind, e.SrcID}, {e.DstKind, e.DstID}} {
			if _, err := t.get(end[0], end[1]); err != nil {
				return "", nil, err
			}
		}
		if e.SrcID == e.DstID {
			return "", nil, runtime.Invalid("an entity cannot be linked to itself")
		}
		if x := t.edges(`WHERE src_id = ? AND dst_id = ? AND rel = ?`, e.SrcID, e.DstID, e.Rel); len(x) > 0 {
			return "", nil, runtime.Conflict("edge %s already links them with %s", x[0].ID, x[0].Rel)
		}
		e.ID = t.newID()
		t.putEdge(e)
		return "link " + e.Rel + " edge " + e.ID, e, nil
	}))
}

// UnlinkOntoEdge serves unlink_onto_edge.
func (s *Store) UnlinkOntoEdge(ctx context.Context, tc runtime.ToolContext, p *UnlinkOntoEdgeParams) (runtime.ToolResult[UnlinkOntoEdgeResult], error) {
	return typed[UnlinkOntoEdgeResult](s.write(ctx, func(t *txn) (string, any, error) {
		found := t.edges(`WHERE id = ?`, p.EdgeID)
		if len(found) == 0 {
			return "", nil, runtime.NotFound("no edge %s; onto.entity.relationships.get lists edge ids", p.EdgeID)
		}
		t.exec(`DELETE FROM edges WHERE id = ?`, p.EdgeID)
		return "unlink edge " + p.EdgeID, found[0], nil
	}))
}

// ReorganizeOntoProjectGraph serves reorganize_onto_project_graph. Every
// move is checked first; a dry run (the gateway's default for this op)
// returns the plan and applies nothing.
func (s *Store) ReorganizeOntoProjectGraph(ctx context.Context, tc runtime.ToolContext, p *ReorganizeOntoProjectGraphParams) (runtime.ToolResult[ReorganizeOntoProjectGraphResult], error) {
	return typed[ReorganizeOntoProjectGraphResult](s.write(ctx, func(t *txn) (string, any, error) {
		if _, err := t.get(KindProject, p.ProjectID); err != nil {
			return "", nil, err
		}
		type step struct {
			EntityID string `json:"entity_id"`
			Kind     string `json:"kind"`
			Title    string `json:"title"`
			From     string `json:"from_parent_id"`
			To       string `json:"to_parent_id"`
		}
		plan := struct {
			Applied bool   `json:"applied"`
			Moves   []step `json:"moves"`
		}{}
		// Each move is checked against the tree as the moves before it left
		// it (so two moves cannot build a cycle), and applied in the
		// transaction: a failing move rolls all of them back.
		for i, m := range p.Moves {
			e, err := t.anyKind(m.EntityID)
			if err == nil && e.ProjectID != p.ProjectID {
				err = runtime.Invalid("%s %s belongs to another project", e.Kind, e.ID)
			}
			if err == nil {
				err = t.checkParent(e, m.NewParentID)
			}
			if err != nil {
				return "", nil, fmt.Errorf("moves[%d]: %w", i, err)
			}
			plan.Moves = append(plan.Moves, step{e.ID, e.Kind, e.Title, e.ParentID, m.NewParentID})
			t.reparent(e, m.NewParentID, nil)
		}
		plan.Applied = !gateway.DryRun(ctx)
		return "apply " + count(len(plan.Moves), "move"), plan, nil
	}))
}

// MoveDocumentInTree serves move_document_in_tree: under a folder, or to
// the root when new_parent_id is null.
func (s *Store) MoveDocumentInTree(ctx context.Context, tc runtime.ToolContext, p *MoveDocumentInTreeParams) (runtime.ToolResult[MoveDocumentInTreeResult], error) {
	return s.write(ctx, func(t *txn) (string, any, error) {
		d, err := t.get(KindDocument, p.DocumentID)
		if err != nil {
			return "", nil, err
		}
		if d.ProjectID != p.ProjectID {
			return "", nil, runtime.NotFound("document %s is not in project %s", d.ID, p.ProjectID)
		}
		parent := str(p.NewParentID)
		if parent != "" {
			if err := t.checkParent(d, parent); err != nil {
				return "", nil, err
			}
		}
		t.reparent(d, parent, p.Position)
		return "move " + d.Title, t.path(d), nil
	})
}

// typed converts a store result into the tool's generated result type
// (from the manifest's result_schema), decoding it with the generated
// decoder: a result that does not fit its schema is an INTERNAL failure,
// never a silently different shape.
func typed[T any](r runtime.ToolResult[json.RawMessage], err error) (runtime.ToolResult[T], error) {
	if err != nil || !r.Success {
		return runtime.ToolResult[T]{Message: r.Message}, err
	}
	var v T
	if err := json.Unmarshal(r.Value, &v); err != nil {
		return runtime.ToolResult[T]{}, runtime.Internal("result does not match its result schema: %v", err)
	}
	return runtime.ToolResult[T]{Message: r.Message, Value: v, Success: true}, nil
}
