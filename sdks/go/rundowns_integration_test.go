package onair_test

// Show preparation against a real onair server (see integration_test.go): rundowns, items, play next, update on
// air, undo and redo, a stale edit's version_conflict, and the schedule.

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	onair "github.com/onair-live/onair/sdks/go"
)

// strapChannel makes a channel with a strap whose "name" belongs to each instance (an item input).
func strapChannel(ctx context.Context, t *testing.T, client *onair.Client) (channelID, sceneID string) {
	t.Helper()
	channel, err := client.Channels.Create(ctx, onair.ChannelIn{Name: "go-sdk rundown"})
	check(t, err)
	item := onair.DeclaredInputScopeItem
	def := onair.SceneDefinition{
		Layer:  onair.Ptr[int64](20),
		Inputs: []onair.SceneInput{{Name: "name", Type: onair.InputTypeText, Default: "", Scope: &item}},
		Elements: []onair.SceneElement{{Text: &onair.TextElement{
			X: 100, Y: 900, Width: 800, Height: 80, Text: "{name}", FontSize: 48,
		}}},
	}
	scene, err := client.Scenes.Create(ctx, channel.ID, onair.SceneIn{Name: "Strap", Definition: &def})
	check(t, err)
	return channel.ID, scene.ID
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// onAirValues gives a function that reads the values of each program entry of a playout answer, or fails the
// test on its error.
func onAirValues(t *testing.T) func(*onair.State, error) []map[string]any {
	return func(state *onair.State, err error) []map[string]any {
		t.Helper()
		check(t, err)
		out := []map[string]any{}
		for _, p := range state.Program {
			out = append(out, p.Values)
		}
		return out
	}
}

func TestIntegrationRundownPlayNextUpdateUndoRedo(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	ch, sc := strapChannel(ctx, t, client)
	onAir := onAirValues(t)
	rundown, err := client.Rundowns.Create(ctx, ch, onair.RundownIn{Name: "Match"})
	check(t, err)
	if rundown.Name != "Match" || len(rundown.Items) != 0 || rundown.Focus != nil {
		t.Fatalf("rundown: %+v", rundown)
	}
	rd := rundown.ID
	anna, err := client.Rundowns.AddItem(ctx, ch, rd, onair.ItemIn{SceneID: sc, Values: onair.ItemValues{"name": "Anna"}})
	check(t, err)
	ben, err := client.Rundowns.AddItem(ctx, ch, rd, onair.ItemIn{SceneID: sc, Values: onair.ItemValues{"name": "Ben"}})
	check(t, err)
	copied, err := client.Rundowns.DuplicateItem(ctx, ch, rd, ben.ID)
	check(t, err)
	if copied.Values["name"] != "Ben" || copied.State != onair.RundownItemStateReady {
		t.Fatalf("copy: %+v", copied)
	}
	list, err := client.Rundowns.List(ctx, ch)
	check(t, err)
	if len(list.Data) != 1 || list.Data[0].ID != rd {
		t.Fatalf("list: %+v", list)
	}

	played, err := client.Rundowns.PlayNext(ctx, ch, rd)
	check(t, err)
	if len(played.Program) != 1 || played.Program[0].ItemID == nil || *played.Program[0].ItemID != anna.ID {
		t.Fatalf("play next: %+v", played.Program)
	}
	anna1, anna2 := []map[string]any{{"name": "Anna"}}, []map[string]any{{"name": "Anna (updated)"}}
	if got := onAir(client.Playout.Update(ctx, ch, onair.UpdateIn{Values: onair.ItemValues(anna2[0])})); !reflect.DeepEqual(got, anna2) {
		t.Fatalf("after update: %v", got)
	}
	if got := onAir(client.Playout.Undo(ctx, ch)); !reflect.DeepEqual(got, anna1) {
		t.Fatalf("after undo: %v", got)
	}
	if got := onAir(client.Playout.Redo(ctx, ch)); !reflect.DeepEqual(got, anna2) {
		t.Fatalf("after redo: %v", got)
	}

	focused, err := client.Rundowns.Focus(ctx, ch, rd, onair.FocusIn{ItemID: &copied.ID})
	check(t, err)
	if focused.Focus == nil || *focused.Focus != copied.ID {
		t.Fatalf("focus: %v", focused.Focus)
	}
	cued, err := client.Rundowns.Cue(ctx, ch, rd, onair.ItemRefIn{})
	check(t, err)
	if len(cued.Preview) != 1 || cued.Preview[0].ItemID == nil || *cued.Preview[0].ItemID != copied.ID {
		t.Fatalf("cue: %+v", cued.Preview)
	}
	if got := onAir(client.Rundowns.Stop(ctx, ch, rd, onair.ItemRefIn{ItemID: &anna.ID})); len(got) != 0 {
		t.Fatalf("stop: %v", got)
	}
	read, err := client.Rundowns.Get(ctx, ch, rd)
	check(t, err)
	var states []onair.RundownItemState
	for _, i := range read.Items {
		states = append(states, i.State)
	}
	if !reflect.DeepEqual(states, []onair.RundownItemState{"done", "ready", "preview"}) {
		t.Fatalf("states: %v", states)
	}

	// An item straight from the bus routes, and the next step of what is on air (this scene has none).
	if got := onAir(client.Playout.Program(ctx, ch, onair.SceneRef{ItemID: &ben.ID})); !reflect.DeepEqual(got, []map[string]any{{"name": "Ben"}}) {
		t.Fatalf("program an item: %v", got)
	}
	_, err = client.Playout.Continue(ctx, ch, onair.ContinueIn{})
	asAPIError(t, err, 404, "unknown_trigger")

	check(t, client.Rundowns.DeleteItem(ctx, ch, rd, ben.ID))
	read, err = client.Rundowns.Get(ctx, ch, rd)
	check(t, err)
	renamed, err := client.Rundowns.Update(ctx, ch, rd, onair.RundownUpdate{Name: "Final", Version: read.Version})
	check(t, err)
	if renamed.Name != "Final" {
		t.Fatalf("rename: %+v", renamed)
	}
	check(t, client.Rundowns.Delete(ctx, ch, rd))
	_, err = client.Rundowns.Get(ctx, ch, rd)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationStaleItemEditIsAVersionConflictWithTheCurrentItem(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	ch, sc := strapChannel(ctx, t, client)
	rundown, err := client.Rundowns.Create(ctx, ch, onair.RundownIn{Name: "Match"})
	check(t, err)
	rd := rundown.ID
	item, err := client.Rundowns.AddItem(ctx, ch, rd, onair.ItemIn{SceneID: sc, Label: onair.Ptr("First")})
	check(t, err)
	edited, err := client.Rundowns.UpdateItem(ctx, ch, rd, item.ID, onair.ItemUpdate{Label: onair.Ptr("Mine"), Version: 1})
	check(t, err)
	if edited.Version != 2 {
		t.Fatalf("edit: %+v", edited)
	}
	_, err = client.Rundowns.UpdateItem(ctx, ch, rd, item.ID, onair.ItemUpdate{Label: onair.Ptr("Theirs"), Version: 1})
	conflict := asAPIError(t, err, 409, "version_conflict")
	var current onair.RundownItem
	if found, err := conflict.Current(&current); !found || err != nil {
		t.Fatalf("current: found %v, %v (extra %v)", found, err, conflict.Extra)
	}
	if current.ID != item.ID || current.Label != "Mine" || current.Version != 2 {
		t.Fatalf("current: %+v", current)
	}
	var version int64
	if found, err := conflict.Member("version", &version); !found || err != nil || version != 2 {
		t.Fatalf("version: %v %v %v", found, err, version)
	}
	if found, _ := conflict.Member("absent", &version); found {
		t.Fatal("a member the problem does not have was found")
	}
	_, err = client.Playout.Undo(ctx, ch)
	asAPIError(t, err, 409, "nothing_to_undo")
}

func TestIntegrationScheduleATakeListAndCancelIt(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	ch, sc := strapChannel(ctx, t, client)
	_, err := client.Playout.Preview(ctx, ch, onair.SceneRef{SceneID: &sc, Values: map[string]any{"name": "Later"}})
	check(t, err)
	take := onair.ScheduleInOpKindTake
	at := onair.FormatTime(time.Now().Add(10 * time.Minute))
	scheduled, err := client.Schedule.Create(ctx, ch, onair.ScheduleIn{At: at, Op: onair.ScheduleInOp{Kind: &take}})
	check(t, err)
	if scheduled.Op["kind"] != "take" || scheduled.Actor.Type != onair.ActorTypeKey {
		t.Fatalf("scheduled: %+v", scheduled)
	}
	list, err := client.Schedule.List(ctx, ch)
	check(t, err)
	if len(list.Data) != 1 || list.Data[0].ID != scheduled.ID {
		t.Fatalf("list: %+v", list)
	}
	check(t, client.Schedule.Cancel(ctx, ch, scheduled.ID))
	list, err = client.Schedule.List(ctx, ch)
	check(t, err)
	if len(list.Data) != 0 {
		t.Fatalf("after cancel: %+v", list)
	}
	asAPIError(t, client.Schedule.Cancel(ctx, ch, scheduled.ID), 404, "not_found")
	past := onair.FormatTime(time.Now().Add(-time.Minute))
	_, err = client.Schedule.Create(ctx, ch, onair.ScheduleIn{At: past, Op: onair.ScheduleInOp{Kind: &take}})
	asAPIError(t, err, 400, "invalid_request")
}

func TestIntegrationHistoryListsACueATakeAndItsUndoNewestFirstWithTheActor(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	ch, sc := strapChannel(ctx, t, client)
	me, err := client.Me(ctx)
	check(t, err)
	key, err := client.Keys.Get(ctx, me.Key.ID)
	check(t, err)
	_, err = client.Playout.Preview(ctx, ch, onair.SceneRef{SceneID: &sc, Values: map[string]any{"name": "Anna"}})
	check(t, err)
	_, err = client.Playout.Take(ctx, ch, onair.TakeIn{})
	check(t, err)
	_, err = client.Playout.Undo(ctx, ch)
	check(t, err)

	page, err := client.History.List(ctx, ch, onair.ListOptions{})
	check(t, err)
	var kinds []string
	for _, a := range page.Data {
		kinds = append(kinds, a.Kind)
		if want := (onair.Actor{Type: onair.ActorTypeKey, ID: key.ID, Name: key.Name}); a.Actor != want {
			t.Fatalf("actor of %s: %+v, want %+v", a.Kind, a.Actor, want)
		}
	}
	if !reflect.DeepEqual(kinds, []string{"undo", "take", "cue"}) || page.NextCursor != nil {
		t.Fatalf("history: %v, next %v", kinds, page.NextCursor)
	}
	undo, take, cue := page.Data[0], page.Data[1], page.Data[2]
	if undo.Of == nil || *undo.Of != take.ID || take.Of != nil || undo.Frame <= cue.Frame {
		t.Fatalf("undo %+v of take %+v", undo, take)
	}

	first, err := client.History.List(ctx, ch, onair.ListOptions{Limit: 2})
	check(t, err)
	if len(first.Data) != 2 || first.Data[0].ID != undo.ID || first.NextCursor == nil {
		t.Fatalf("first page: %+v", first)
	}
	var walked []string
	it := client.History.ListAll(ctx, ch, onair.ListOptions{Limit: 1})
	for it.Next() {
		walked = append(walked, it.Value().ID)
	}
	check(t, it.Err())
	if !reflect.DeepEqual(walked, []string{undo.ID, take.ID, cue.ID}) {
		t.Fatalf("walked: %v", walked)
	}
}

func TestIntegrationSceneVersionsListedAndRestored(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	ch, sc := strapChannel(ctx, t, client)
	scene, err := client.Scenes.Get(ctx, ch, sc)
	check(t, err)
	changed := scene.Definition
	changed.Elements = []onair.SceneElement{{Text: &onair.TextElement{
		X: 100, Y: 900, Width: 800, Height: 80, Text: "{name}", FontSize: 64,
	}}}
	_, err = client.Scenes.Replace(ctx, ch, sc, onair.SceneUpdate{Name: onair.Ptr("Strap 2"), Definition: changed})
	check(t, err)

	versions, err := client.Scenes.Versions(ctx, ch, sc)
	check(t, err)
	type saved struct {
		version int64
		name    string
		by      onair.ActorType
	}
	var got []saved
	for _, v := range versions.Data {
		got = append(got, saved{v.Version, v.Name, v.SavedBy.Type})
	}
	if want := []saved{{2, "Strap 2", onair.ActorTypeKey}, {1, "Strap", onair.ActorTypeKey}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("versions: %+v", got)
	}

	restored, err := client.Scenes.RestoreVersion(ctx, ch, sc, 1)
	check(t, err)
	if restored.ID != sc || restored.Name != "Strap" || restored.Definition.Elements[0].Text.FontSize != 48 {
		t.Fatalf("restored: %+v", restored)
	}
	versions, err = client.Scenes.Versions(ctx, ch, sc)
	check(t, err)
	if versions.Data[0].Version != 3 || versions.Data[0].Name != "Strap" {
		t.Fatalf("after restore: %+v", versions.Data[0])
	}
	_, err = client.Scenes.RestoreVersion(ctx, ch, sc, 99)
	asAPIError(t, err, 404, "not_found")
}

func TestIntegrationAsRunListsWhatWasOnProgramByRangeAndPageAndAsCSV(t *testing.T) {
	client, ctx := integration(t), testContext(t)
	ch, sc := strapChannel(ctx, t, client)
	before := time.Now()
	_, err := client.Playout.Program(ctx, ch, onair.SceneRef{SceneID: &sc, Values: map[string]any{"name": "Anna"}})
	check(t, err)
	_, err = client.Playout.Update(ctx, ch, onair.UpdateIn{Values: onair.ItemValues{"name": "Anna B."}})
	check(t, err)
	_, err = client.Playout.Program(ctx, ch, onair.SceneRef{SceneID: &sc, Values: map[string]any{"name": "Ben"}})
	check(t, err)
	_, err = client.Playout.Clear(ctx, ch, onair.ClearIn{})
	check(t, err)

	page, err := client.AsRun.List(ctx, ch, onair.AsRunListOptions{})
	check(t, err)
	if len(page.Data) != 2 || page.NextCursor != nil {
		t.Fatalf("as-run: %+v", page)
	}
	a, b := page.Data[0], page.Data[1]
	if a.Values["name"] != "Anna" || a.UpdatedValues["name"] != "Anna B." || b.Values["name"] != "Ben" {
		t.Fatalf("values: %+v / %+v", a, b)
	}
	if a.TakenBy.Type != onair.ActorTypeKey || a.EndAt == nil || a.DurationMs == nil || a.EndInferred || b.ClearedBy == nil {
		t.Fatalf("interval: %+v", a)
	}
	var walked []string
	it := client.AsRun.ListAll(ctx, ch, onair.AsRunListOptions{From: before, Limit: 1})
	for it.Next() {
		walked = append(walked, it.Value().ID)
	}
	check(t, it.Err())
	if !reflect.DeepEqual(walked, []string{a.ID, b.ID}) {
		t.Fatalf("walked: %v", walked)
	}
	csv, err := client.AsRun.CSV(ctx, ch, onair.AsRunListOptions{})
	check(t, err)
	rows := strings.Split(strings.TrimRight(string(csv), "\r\n"), "\r\n")
	if len(rows) != 3 || !strings.HasPrefix(rows[0], "id,layer,sceneId,") || !strings.HasPrefix(rows[1], a.ID+",") {
		t.Fatalf("csv: %q", csv)
	}
}
