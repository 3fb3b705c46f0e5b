package quickstart

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// Todo is one stored item.
type Todo struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Due      string   `json:"due,omitempty"`
	Priority int64    `json:"priority,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	Done     bool     `json:"done"`
	seq      int
}

// Store implements Handlers with an in-memory list of todo items. The zero
// value is ready to use and safe for concurrent use. Its write handlers
// honour gateway.DryRun: a dry run answers what the call would do and
// changes nothing (the gateway lets dry runs through when writes are
// disabled, trusting handlers to do so).
type Store struct {
	mu    sync.Mutex
	items map[string]*Todo
	next  int
}

var _ Handlers = (*Store)(nil)

// ListTodos serves list_todos: newest first, filtered by state and tag.
func (s *Store) ListTodos(ctx context.Context, tc runtime.ToolContext, p *ListTodosParams) (runtime.ToolResult[ListTodosResult], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Todo
	for _, t := range s.items {
		if p.State == ListTodosStateOpen && t.Done || p.State == ListTodosStateDone && !t.Done {
			continue
		}
		if p.Tag != nil && !contains(t.Tags, *p.Tag) {
			continue
		}
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq > out[j].seq })
	if int64(len(out)) > p.Limit {
		out = out[:p.Limit]
	}
	res := ListTodosResult{Items: make([]ListTodosResultItemsItem, 0, len(out))}
	for i := range out {
		res.Items = append(res.Items, ListTodosResultItemsItem(view(&out[i])))
	}
	noun := "items"
	if len(out) == 1 {
		noun = "item"
	}
	return runtime.OK(res, fmt.Sprintf("%d %s %s", len(out), p.State, noun)), nil
}

// GetTodo serves get_todo.
func (s *Store) GetTodo(ctx context.Context, tc runtime.ToolContext, p *GetTodoParams) (runtime.ToolResult[GetTodoResult], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, found := s.items[p.TodoID]
	if !found {
		return runtime.ToolResult[GetTodoResult]{}, runtime.NotFound("no todo item %s; list_todos shows the existing ids", p.TodoID)
	}
	return runtime.OK(view(t), "found "+t.ID), nil
}

// CreateTodo serves create_todo.
func (s *Store) CreateTodo(ctx context.Context, tc runtime.ToolContext, p *CreateTodoParams) (runtime.ToolResult[CreateTodoResult], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.items {
		if !t.Done && strings.EqualFold(t.Title, p.Title) {
			return runtime.ToolResult[CreateTodoResult]{}, runtime.Conflict("an open item %s already has this title", t.ID)
		}
	}
	if s.items == nil {
		s.items = map[string]*Todo{}
	}
	t := &Todo{ID: fmt.Sprintf("td_%d", s.next+1), Title: p.Title, Tags: p.Tags, seq: s.next + 1}
	if p.Due != nil {
		t.Due = *p.Due
	}
	if p.Priority != nil {
		t.Priority = *p.Priority
	}
	if gateway.DryRun(ctx) {
		return runtime.OK(CreateTodoResult(view(t)), "would create "+t.ID+" (dry run: nothing stored)"), nil
	}
	s.next++
	s.items[t.ID] = t
	return runtime.OK(CreateTodoResult(view(t)), "created "+t.ID), nil
}

// UpdateTodo serves update_todo: absent fields stay, a null due date clears.
func (s *Store) UpdateTodo(ctx context.Context, tc runtime.ToolContext, p *UpdateTodoParams) (runtime.ToolResult[UpdateTodoResult], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stored, found := s.items[p.TodoID]
	if !found {
		return runtime.ToolResult[UpdateTodoResult]{}, runtime.NotFound("no todo item %s", p.TodoID)
	}
	t := stored
	if gateway.DryRun(ctx) {
		copied := *stored
		t = &copied
	}
	if p.Title != nil {
		t.Title = *p.Title
	}
	if p.Due.IsNull() {
		t.Due = ""
	} else if due, set := p.Due.Get(); set {
		t.Due = due
	}
	if p.Done != nil {
		t.Done = *p.Done
	}
	if t != stored {
		return runtime.OK(UpdateTodoResult(view(t)), "would update "+t.ID+" (dry run: nothing stored)"), nil
	}
	return runtime.OK(UpdateTodoResult(view(t)), "updated "+t.ID), nil
}

// DeleteTodo serves delete_todo.
func (s *Store) DeleteTodo(ctx context.Context, tc runtime.ToolContext, p *DeleteTodoParams) (runtime.ToolResult[DeleteTodoResult], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, found := s.items[p.TodoID]; !found {
		return runtime.ToolResult[DeleteTodoResult]{}, runtime.NotFound("no todo item %s", p.TodoID)
	}
	if gateway.DryRun(ctx) {
		return runtime.OK(DeleteTodoResult{Deleted: p.TodoID}, "would delete "+p.TodoID+" (dry run: nothing deleted)"), nil
	}
	delete(s.items, p.TodoID)
	return runtime.OK(DeleteTodoResult{Deleted: p.TodoID}, "deleted "+p.TodoID), nil
}

// view is the typed result for one stored item (the result types of
// get_todo, create_todo, update_todo and the items of list_todos come from
// the same result_schema in toolgen.yaml, so they convert into each other).
func view(t *Todo) GetTodoResult {
	r := GetTodoResult{ID: t.ID, Title: t.Title, Tags: t.Tags, Done: t.Done}
	if due := t.Due; due != "" {
		r.Due = &due
	}
	if priority := t.Priority; priority != 0 {
		r.Priority = &priority
	}
	return r
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
